// What `mcp daemon stdio <server>` (shim-relay.ts) needs before it relays: the server found as `mcp
// call` finds it (the same files, the same approval of project servers), written with this shell's
// folder and environment (@mcp/daemon's asThisShellRuns), and this user's daemon, started if none runs.

import { attachParamsFor, daemonEnvFor, ensureDaemon, type AttachParams } from "@mcp/daemon/client";
import { pooledEntry, PooledEntryError, type PooledEntry, type PooledEntryProblem } from "@mcp/manager/config";
import { approveCommandFor } from "../approvals.js";
import { openSession, type GlobalOptions } from "../session.js";
import { CliError, EXIT } from "../ui.js";
import { claimDaemonSocket, spawnDaemon } from "./command.js";

/** What `mcp hosts pool` writes after the name: `--from <host>:<scope> -- <command> [args…]`. */
export interface ShimWords {
  /** The original command and arguments (after `--`), as the host's entry had them. */
  command?: string[] | undefined;
  from?: string | undefined;
}

/** The CLI's way out of each reason the manager's `pooledEntry` gives: its exit code and what follows its words. */
const WAY_OUT: Record<PooledEntryProblem, [number, (server: string) => string]> = {
  not_approved: [EXIT.failure, (server) => `. Approve it with: ${approveCommandFor([server])}`],
  invalid: [EXIT.failure, () => ""],
  not_stdio: [EXIT.usage, () => ""],
  runs_shim: [EXIT.usage, () => ": give the file that has its own command with --config <file>"],
};

/** The server as this shell runs it (@mcp/daemon's `attachParamsFor`), and where it came from; a `CliError` saying why not. */
async function resolveServer(globals: GlobalOptions, server: string, words: ShimWords = {}) {
  if (globals.yes)
    throw new CliError(
      "mcp daemon stdio does not take --yes: a project server is served only once approved (mcp config approve)",
      EXIT.usage,
    );
  if (globals.stdio || globals.http || globals.sse)
    throw new CliError(
      "mcp daemon stdio serves a configured server: name it (--stdio, --http and --sse are not for the shim)",
      EXIT.usage,
    );
  const session = await openSession({ ...globals, server: [server] }, { connect: false, allowEmbedded: false });
  try {
    // An entry `mcp hosts pool` rewrote runs this shim: what it serves is the original (its approval too).
    let entry: PooledEntry;
    try {
      entry = pooledEntry(session, server, words.command);
    } catch (error) {
      if (!(error instanceof PooledEntryError)) throw error;
      const [exitCode, hint] = WAY_OUT[error.problem];
      throw new CliError(`${error.message}${hint(server)}`, exitCode);
    }
    const { config, source, otherCommand } = entry;
    // The entry found by name wins over the words the host passed (they may be another file's, or unexpanded): said, not refused.
    if (otherCommand)
      process.stderr.write(
        `mcp daemon stdio ${server}: serving the entry in ${source ?? "your config"} (${[config.command, ...(config.args ?? [])].join(" ")}), not the command this shim was given after --\n`,
      );
    // The daemon's approval check reads the same files and expands them as this shell did.
    return attachParamsFor(entry, session.cwd);
  } finally {
    await session.close();
  }
}

/** What the shim serves (`pool/attach`'s params, less the server's name and the pids), and the daemon's socket. */
export type ShimResolved = Omit<AttachParams, "server" | "shimPid" | "parentPid"> & { socket: string };

/** The server as this shell runs it and this user's daemon (started if need be); a `CliError` saying why not. */
export async function resolveForShim(
  globals: GlobalOptions,
  server: string,
  words: ShimWords = {},
): Promise<ShimResolved> {
  if (process.platform === "win32")
    throw new CliError(
      "mcp daemon stdio needs a Unix socket: Windows named pipes are not supported for the pool yet",
      EXIT.usage,
    );
  const { config, source, project, vars } = await resolveServer(globals, server, words);
  // This user's daemon, started (`mcp daemon run`, in the background) when none answers; shims that
  // start at once start one between them. It starts without the entry's own env, which the host gave this shim.
  const socket = claimDaemonSocket();
  await ensureDaemon(socket, { start: () => spawnDaemon(socket, {}, daemonEnvFor(Object.keys(config.env ?? {}))) });
  return {
    config,
    source: source ?? words.from,
    from: words.from,
    project,
    vars,
    socket,
  };
}

/**
 * The hidden `mcp daemon resolve <server>`, run by the shim in a child process so the shim that
 * stays with the host for its whole session holds none of the code that finds servers: prints the
 * server as this shell runs it, its source and the daemon's socket (started if need be), as one
 * JSON line; or fails saying why (on stderr, which the shim passes on).
 */
export async function daemonResolve(globals: GlobalOptions, server: string, words: ShimWords = {}): Promise<number> {
  const resolved = await resolveForShim(globals, server, words);
  process.stdout.write(`${JSON.stringify(resolved)}\n`);
  return EXIT.ok;
}
