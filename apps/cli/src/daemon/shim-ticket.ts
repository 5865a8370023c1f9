// The hidden `mcp daemon ticket <server> …`, the one Node step of the light shim (apps/cli/shim/mcp-shim):
// the server found exactly as `mcp daemon stdio` finds it (shim.ts: the same files, approvals and
// environment; the daemon started if none runs), then a single-use ticket for it from the daemon over
// its private Unix socket (@mcp/daemon's loopback relay). Prints `<port> <ticket> <proof>` on one line for the
// script, which keeps them in shell variables (never in argv, the environment or a file).

import { DaemonError, requestTicket, type AttachParams } from "@mcp/daemon/client";
import { CliError, EXIT } from "../ui.js";
import type { GlobalOptions } from "../session.js";
import { resolveForShim, type ShimWords } from "./shim.js";

/** The script's pid and its parent's (the host's), as it passes them: labels for `mcp ps`, trusted for nothing. */
function shimPids(): { shimPid: number; parentPid: number } {
  const given = (process.env["MCP_SHIM_PIDS"] ?? "").split(" ").map(Number);
  // Not passed on to a daemon this process starts.
  delete process.env["MCP_SHIM_PIDS"];
  const [shimPid, parentPid] = given;
  return Number.isSafeInteger(shimPid) && Number.isSafeInteger(parentPid) && given.length === 2
    ? { shimPid: shimPid!, parentPid: parentPid! }
    : { shimPid: process.ppid, parentPid: process.ppid };
}

/** `mcp daemon ticket <server> [--from <host:scope>] [-- <command> …]`: prints `<port> <ticket> <proof>`. */
export async function daemonTicket(globals: GlobalOptions, server: string, words: ShimWords = {}): Promise<number> {
  const pids = shimPids();
  const { socket, ...found } = await resolveForShim(globals, server, words);
  const params: AttachParams = { server, ...found, ...pids };
  const { port, ticket, proof } = await requestTicket(socket, params).catch((error: unknown) => {
    throw error instanceof DaemonError
      ? new CliError(`mcp daemon stdio ${server}: ${error.message}`, error.exitCode)
      : error;
  });
  process.stdout.write(`${port} ${ticket} ${proof}\n`);
  return EXIT.ok;
}
