// A person's approvals of a project's servers: the policy of a program a person runs (yes for one
// run, a question, else skip and say), and approving named project servers on request (`mcp config approve`).
import { McpError } from "@mcp/jsonrpc";
import type { DiscoveredServer, LoadResult } from "../config/types.js";
import { askingPolicy, needsApproval, type ApprovalPolicy, type ApprovalRequest } from "./policy.js";
import { createApprovalStore } from "./store.js";

/** What {@link personPolicy} does with the project servers no approval covers. */
export interface PersonPolicyOptions extends Omit<ApprovalPolicy, "approve"> {
  /** They all start, for this policy's manager only: nothing is remembered (`mcp --yes`). */
  yes?: boolean | undefined;
  /** Asks the person, once, about those not declined in this project ({@link askingPolicy}); without it none starts. */
  ask?: ((requests: readonly ApprovalRequest[]) => boolean | Promise<boolean>) | undefined;
  /** Without `ask`: told about those skipped that were not declined in this project (to say how to approve them), when there is one. */
  skipped?: ((requests: readonly ApprovalRequest[]) => void) | undefined;
}

/**
 * The approval policy of a program a person runs (the `mcp` CLI's): with `yes` every project
 * server asked about starts, remembered nowhere; with `ask` (a terminal, a dialog) the person is
 * asked once ({@link askingPolicy}: yes remembered, no declined for the project); otherwise none
 * starts, and `skipped` hears about those not declined here.
 *
 * @example
 * const approvals = personPolicy({ ask: process.stdin.isTTY ? askOnTerminal : undefined, skipped: (r) => console.warn(`${r.length} skipped`) });
 */
export function personPolicy(options: PersonPolicyOptions): ApprovalPolicy {
  const { yes, ask, skipped, ...policy } = options;
  if (yes) return { ...policy, approve: () => true };
  if (ask) return askingPolicy({ ...policy, ask });
  return {
    ...policy,
    approve: (requests) => {
      const asked = requests.filter((request) => !request.declined);
      if (asked.length > 0) skipped?.(asked);
      return false;
    },
  };
}

/**
 * A name given to {@link approveProjectServers} that is no project server: `file` is where the
 * entry of that name is when it is one (from the user's files: it needs no approval).
 */
export class NotProjectServerError extends McpError<"unknown_server"> {
  static override readonly brand: string = "NotProjectServerError";
  declare readonly serverName: string;
  declare readonly file: string | undefined;

  constructor(serverName: string, file: string | undefined) {
    super(
      "unknown_server",
      file === undefined
        ? `no project server named "${serverName}"`
        : `"${serverName}" is not a project server (${file}): it needs no approval`,
    );
    this.serverName = serverName;
    this.file = file;
  }
}

/** Where {@link approveProjectServers} remembers, and who confirms first. */
export interface ApproveProjectOptions {
  /** The project folder the approval is for. */
  project: string;
  /** The approvals file (`createApprovalStore`'s `file`; default `defaultApprovalsFile()`). */
  approvals?: string | undefined;
  /** Shown the servers about to be approved; nothing is approved unless it answers yes. */
  confirm?: ((servers: readonly DiscoveredServer[]) => boolean | Promise<boolean>) | undefined;
}

/**
 * Approves for `options.project` the project servers of `loaded` named (all of them when none is
 * named) exactly as loaded: the configs shown to `confirm`, not the files read again, so any later
 * change to what one runs asks again. Resolves with the servers approved (none when the project
 * defines none), or `undefined` when `confirm` said no (nothing remembered, nothing declined).
 *
 * @throws NotProjectServerError for a name that is no project server of `loaded` (nothing approved).
 */
export async function approveProjectServers(
  loaded: LoadResult,
  names: readonly string[],
  options: ApproveProjectOptions,
): Promise<DiscoveredServer[] | undefined> {
  const project = Object.values(loaded.servers).filter(needsApproval);
  for (const name of names)
    if (!project.some((server) => server.name === name))
      throw new NotProjectServerError(name, loaded.servers[name]?.source.file);
  const chosen = names.length > 0 ? project.filter((server) => names.includes(server.name)) : project;
  if (chosen.length === 0) return chosen;
  if (options.confirm && !(await options.confirm(chosen))) return undefined;
  await createApprovalStore({ file: options.approvals }).remember(options.project, chosen);
  return chosen;
}
