import type { DiscoveredServer } from "../config/types.js";
import type { Fingerprint } from "./fingerprint.js";
import { createApprovalStore, type ApprovalStore } from "./store.js";

/**
 * Which discovered servers may run. A project-scope entry (a file in the project directory, any
 * family's: it came with the repository) starts only when an approval covers it as it is now:
 * the approvals file holds its fingerprint for this project, or the host file approved it by name
 * (Claude Code's `enabledMcpjsonServers` / `enableAllProjectMcpServers` in `~/.claude.json`,
 * `approved: true`). Any other is put to the policy's `approve`; the default refuses it. User-
 * and local-scope entries (files in the user's home) start without asking.
 */

/** One project server that no approval covers, as `approve` is asked about it. */
export interface ApprovalRequest {
  /** The entry as discovered (`written`: as its file writes it, for showing to a person), with the config that will run. */
  server: DiscoveredServer;
  /** What it will run, as salted hashes (the approvals file's salt). */
  fingerprint: Fingerprint;
  /** The parts that changed since it was approved ("command", "env", "other settings"); undefined when it never was. */
  changedParts: string[] | undefined;
  /** Why it is not covered, in words: "not approved yet", "changed since it was approved: env", "declined for this project", … */
  reason: string;
  /** True when it was declined in this project: a prompt usually leaves these alone. */
  declined: boolean;
}

/** What `approve` may see and use: the project directory and the store (to remember an answer). */
export interface ApprovalContext {
  project: string;
  store: ApprovalStore;
}

/** `true`: every server asked about may start; `false`: none; or the names of those that may. */
export type ApprovalAnswer = boolean | readonly string[];

/**
 * The manager's `approvals` option: where approvals are kept, who is asked about the rest, and
 * what a refused server's status says approves it.
 */
export interface ApprovalPolicy {
  /** Default: `createApprovalStore()` (`approvals.json` in the user's config folder, the `mcp` CLI's file). */
  store?: ApprovalStore | undefined;
  /**
   * Asked once per `connectServers` / `addServers` / `discoverAndConnect` about every project
   * server no approval covers (a prompt, a dialog, a setting). Its answer holds for this manager;
   * to remember it, call `context.store.remember(…)` (or `deny`). Default: none may start.
   */
  approve?:
    | ((requests: readonly ApprovalRequest[], context: ApprovalContext) => ApprovalAnswer | Promise<ApprovalAnswer>)
    | undefined;
  /** What a refused server's status names as the way to approve it. */
  howToApprove?: ((server: DiscoveredServer) => string) | undefined;
}

/** Why a server is `not-approved`, and what approves it. */
export interface ApprovalRefusal {
  /** "not approved yet", "changed since it was approved: env", "declined for this project", … */
  reason: string;
  /** What approves it ("mcp config approve repo", or the host's own words). */
  approve: string;
}

/**
 * A policy that asks a person once (a prompt, a dialog) about the project servers not declined in
 * this project: yes approves them as they are now and remembers it in the store; no declines them
 * by name for this project, so they are not asked about again until approved.
 *
 * @example
 * const approvals = askingPolicy({ ask: (requests) => confirm(`Start ${requests.map((r) => r.server.name)}?`) });
 * const manager = new MCPManager({ approvals });
 */
export function askingPolicy(
  options: Omit<ApprovalPolicy, "approve"> & {
    ask: (requests: readonly ApprovalRequest[]) => boolean | Promise<boolean>;
  },
): ApprovalPolicy {
  const { ask, ...policy } = options;
  return {
    ...policy,
    approve: async (requests, { project, store }) => {
      const asked = requests.filter((request) => !request.declined);
      if (asked.length === 0) return false;
      const servers = asked.map((request) => request.server);
      // The store reads its file again: another process may have written it while the question was open.
      if (await ask(asked)) {
        await store.remember(project, servers);
        return servers.map((server) => server.name);
      }
      await store.deny(
        project,
        servers.map((server) => server.name),
      );
      return false;
    },
  };
}

/** What {@link reviewApprovals} decided. */
export interface ApprovalOutcome {
  /** Names that may start. */
  approved: Set<string>;
  /** Why each other one may not, in words. */
  refused: Map<string, string>;
}

/** How a refused server is approved, unless the policy says: the `mcp` CLI's command, or this option. */
export function defaultHowToApprove(server: DiscoveredServer): string {
  return `mcp config approve ${JSON.stringify(server.name)} in this project, or the approvals option of MCPManager`;
}

/** True for an entry that needs an approval to run: one from a file in the project directory. */
export function needsApproval(server: DiscoveredServer): boolean {
  return server.source.scope === "project";
}

/**
 * Decides which of these discovered servers may start in `project`: user-scope ones and those the
 * host file approved by name at once; project ones the store covers as they are now; then the
 * policy's `approve` about the rest (none asked when there is none). Refused ones get their reason.
 */
export async function reviewApprovals(
  servers: readonly DiscoveredServer[],
  options: { project: string; policy?: ApprovalPolicy | undefined },
): Promise<ApprovalOutcome> {
  const approved = new Set<string>();
  const refused = new Map<string, string>();
  const pending = servers.filter((server) => {
    if (!needsApproval(server) || server.approved === true) approved.add(server.name);
    return !approved.has(server.name);
  });
  if (pending.length === 0) return { approved, refused };
  const store = options.policy?.store ?? createApprovalStore();
  const checks = await store.check(options.project, pending);
  const requests: ApprovalRequest[] = [];
  pending.forEach((server, i) => {
    const check = checks[i]!;
    if (check.approved) approved.add(server.name);
    else
      requests.push({
        server,
        fingerprint: check.fingerprint,
        changedParts: check.changedParts,
        reason: check.reason,
        declined: check.declined,
      });
  });
  if (requests.length === 0) return { approved, refused };
  let answer: ApprovalAnswer = false;
  let failed: string | undefined;
  try {
    answer = (await options.policy?.approve?.(requests, { project: options.project, store })) ?? false;
  } catch (error) {
    // A policy that fails approves nothing, and the refusal says why; the other servers go on.
    failed = error instanceof Error ? error.message : String(error);
  }
  const yes = new Set(answer === true ? requests.map((r) => r.server.name) : answer === false ? [] : answer);
  const no = requests.filter((request) => !yes.has(request.server.name));
  for (const request of requests) if (yes.has(request.server.name)) approved.add(request.server.name);
  if (no.length === 0) return { approved, refused };
  // Said again after the answer: a prompt's "no" may have declined them meanwhile.
  const after = options.policy?.approve
    ? await store.check(
        options.project,
        no.map((r) => r.server),
      )
    : undefined;
  no.forEach((request, i) => {
    const check = after?.[i];
    const reason = check && !check.approved ? check.reason : request.reason;
    refused.set(request.server.name, failed === undefined ? reason : `${reason}; asking failed: ${failed}`);
  });
  return { approved, refused };
}
