// Whether a host may be served a server: by default the manager's approvals (a project file's entry
// runs only once approved, as it is now), so a host that embeds the pool runs nothing a cloned
// repository wrote without the user's say.

import { resolve, sep } from "node:path";
import { RpcError } from "@mcp/jsonrpc";
import {
  createApprovalStore,
  defaultApprovalsFile,
  loadAllMCPConfigs,
  reviewApprovals,
  unwrapShimConfig,
  type ApprovalPolicy,
  type DiscoveredServer,
  type LoadOptions,
} from "@mcp/manager/config";
import type { StdioTransportConfig } from "@mcp/transport-stdio";

/** What a pool's approval check is asked about: one host's attach. */
export interface PoolApprovalRequest {
  /** The server's name, as the host named it. */
  name: string;
  /** The configuration the pool would run. */
  config: StdioTransportConfig;
  /** Where the host said it came from (a file path), if it did. */
  source: string | undefined;
  /** The folder whose project files are checked: the attach's `project`, else the config's `cwd`, else the pool's own folder. */
  project: string;
  /** The values the host expanded `${VAR}` in its files with, put over the check's own environment; default: none. */
  env?: Record<string, string> | undefined;
}

/** A check's answer: served, or refused with why and what approves it. */
export type PoolApprovalVerdict = { approved: true } | { approved: false; reason: string; approve: string };

/** The pool's `approvals` option: asked once per host session, before anything starts. */
export type PoolApprovals = (request: PoolApprovalRequest) => PoolApprovalVerdict | Promise<PoolApprovalVerdict>;

/**
 * A host was refused a server its approval check did not let through (a project server not
 * approved, or changed since it was). A host gets it as the JSON-RPC error of its `initialize`
 * (code -32603, `data: { server, reason, approve }`); `ServerPool.approval(session)` rejects with it.
 */
export class ServerNotApprovedError extends RpcError {
  static override readonly brand: string = "ServerNotApprovedError";
  constructor(
    /** The server's name. */
    readonly server: string,
    /** Why: "not approved yet", "changed since it was approved: env", … */
    readonly reason: string,
    /** What approves it (a command, or the host's own words). */
    readonly approve: string,
  ) {
    super(-32603, `project server "${server}" is not served: ${reason}. Approve it with: ${approve}`, {
      server,
      reason,
      approve,
    });
  }
}

/** Options of {@link managerApprovals}. */
export interface ManagerApprovalsOptions {
  /** The manager's approval policy: its store (default: the `mcp` CLI's approvals file), `approve` and `howToApprove`. */
  policy?: ApprovalPolicy | undefined;
  /** How the project's and the user's files are found and read (`home`, `env` for `${VAR}`, `families`, …). */
  load?: LoadOptions | undefined;
}

type Program = { command: string; args: string[]; env: Record<string, string>; cwd: string };

/**
 * The program a stdio config runs: its command, arguments, the env it sets and its folder (where
 * `npx` finds a repository's own `node_modules/.bin`); an entry pooled through the shim: its original.
 */
function programOf(config: unknown, project: string): Program | undefined {
  if (typeof config !== "object" || config === null || typeof (config as { command?: unknown }).command !== "string")
    return undefined;
  const own = unwrapShimConfig(config) ?? config;
  const { command, args, env, cwd } = own as {
    command: string;
    args?: string[];
    env?: Record<string, string>;
    cwd?: string;
  };
  return { command, args: args ?? [], env: env ?? {}, cwd: resolve(project, cwd ?? ".") };
}

function sameProgram(a: Program, b: Program): boolean {
  const envText = (env: Record<string, string>): string => JSON.stringify(Object.entries(env).sort());
  return (
    a.command === b.command &&
    a.cwd === b.cwd &&
    a.args.length === b.args.length &&
    a.args.every((arg, i) => arg === b.args[i]) &&
    envText(a.env) === envText(b.env)
  );
}

/** Variables that decide where the manager finds config files (and the approvals file): never taken from a request's `env`. */
const WHERE_FILES_ARE = /^(HOME|USERPROFILE|APPDATA|LOCALAPPDATA|XDG_[A-Z_]+|CODEX_HOME)$/i;

const inside = (file: string, folder: string): boolean => resolve(file).startsWith(resolve(folder) + sep);

/**
 * The pool's default approval check, on the manager's policy. It reads the project's and the
 * user's config files (every family the manager reads, shadowed entries too) and decides:
 * - a user- or local-scope entry runs exactly this program (command, arguments, env, folder): served (it
 *   is the user's own, whatever a project file of the same name says);
 * - else, project entries that run it: served only if the policy approves one of them as it is
 *   now (the approvals file, the host file's own approval, or the policy's `approve`);
 * - else, a project entry of this name that runs something else (the file was edited after the
 *   host read it, or the host's config only shares its name): refused;
 * - else, a project file the manager could not read (broken, or this server's entry in it invalid): refused;
 * - else, a `source` file in the project folder that the manager does not read: refused;
 * - else (a config the host wrote itself): served.
 *
 * When the server runs in another folder than `project` (its `cwd`), that folder is checked the
 * same way too and both must serve it: a host that names an empty folder as its project is not
 * served a repository's unapproved server that runs in the repository.
 */
export function managerApprovals(options: ManagerApprovalsOptions = {}): PoolApprovals {
  const policy: ApprovalPolicy = {
    ...options.policy,
    store: options.policy?.store ?? createApprovalStore({ file: defaultApprovalsFile(options.load ?? {}) }),
  };
  const howToApprove = (server: DiscoveredServer): string =>
    policy.howToApprove?.(server) ??
    `mcp config approve ${JSON.stringify(server.name)} in ${server.source.file.split(sep).slice(0, -1).join(sep) || sep}, or the pool's approvals option`;
  const decide: PoolApprovals = async ({ name, config, source, project, env }) => {
    const program = programOf(config, project);
    if (program === undefined) return { approved: false, reason: "it is not a stdio server", approve: "" };
    // `${VAR}` expanded as the host expanded it: an approved entry that names a variable this
    // process was started without (or with another value) is still the entry the host runs.
    // Never where files are found: a host's words do not move the user's own files into a repository.
    if (env !== undefined) env = Object.fromEntries(Object.entries(env).filter(([n]) => !WHERE_FILES_ARE.test(n)));
    const load: LoadOptions =
      env === undefined
        ? (options.load ?? {})
        : { ...options.load, env: { ...(options.load?.env ?? process.env), ...env } };
    const loaded = await loadAllMCPConfigs(project, load);
    const entries = [...Object.values(loaded.servers), ...loaded.shadowed];
    const runs = (entry: DiscoveredServer): boolean => {
      const theirs = programOf(entry.config, project);
      return theirs !== undefined && sameProgram(theirs, program);
    };
    if (entries.some((entry) => entry.source.scope !== "project" && runs(entry))) return { approved: true };
    const running = entries.filter((entry) => entry.source.scope === "project" && runs(entry));
    if (running.length > 0) {
      const outcome = await reviewApprovals(running, { project: resolve(project), policy });
      if (running.some((entry) => outcome.approved.has(entry.name))) return { approved: true };
      const first = running.find((entry) => entry.name === name) ?? running[0]!;
      return {
        approved: false,
        reason: outcome.refused.get(first.name) ?? "not approved yet",
        approve: howToApprove(first),
      };
    }
    const named = entries.find((entry) => entry.source.scope === "project" && entry.name === name);
    if (named)
      return {
        approved: false,
        reason: `the config given is not the entry in ${named.source.file} as it is now (changed since the host read it, or another server of the same name)`,
        approve: howToApprove(named),
      };
    // A project file the manager could not read (a host with a laxer parser may still have read it):
    // what it holds cannot be checked, so a server it might hold is not run on trust.
    const own = new Set(entries.filter((e) => e.source.scope !== "project").map((e) => resolve(e.source.file)));
    const unreadable = loaded.errors.find(
      (error) =>
        (error.server === undefined || error.server === name) &&
        inside(error.file, project) &&
        !own.has(resolve(error.file)),
    );
    if (unreadable)
      return {
        approved: false,
        reason: `the project file ${unreadable.file} could not be read (${unreadable.message}), so what it holds cannot be checked`,
        approve: `fix ${unreadable.file}, or give the pool an approvals option that decides about it`,
      };
    const known = new Set(entries.map((entry) => resolve(entry.source.file)));
    if (source !== undefined && inside(source, project) && !known.has(resolve(source)))
      return {
        approved: false,
        reason: `it comes from ${source}, a file in the project folder that the pool cannot check`,
        approve: "give the pool an approvals option that decides about it",
      };
    return { approved: true };
  };
  // The folder the server runs in is a project too (a host may name another: the check is for
  // both). A server in a repository is checked against that repository's files, whatever `project` says.
  return async (request) => {
    const verdict = await decide(request);
    const cwd = (request.config as { cwd?: unknown } | undefined)?.cwd;
    if (!verdict.approved || (cwd !== undefined && typeof cwd !== "string")) return verdict;
    const runsIn = resolve(request.project, cwd ?? ".");
    if (runsIn === resolve(request.project)) return verdict;
    return decide({ ...request, config: { ...request.config, cwd: runsIn }, project: runsIn });
  };
}
