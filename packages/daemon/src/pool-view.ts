// The daemon's pool as a command line shows it (`mcp ps`): its status, or why no daemon answers; a
// pooled server stopped by name; and who an attached host is, from what its shim told the daemon
// when it attached (pool-socket.ts).

import type { HostStatus } from "@mcp/pool";
import { DaemonUnavailable } from "./errors.js";
import type { PoolStatus } from "./pool-socket.js";
import { daemonRequest } from "./request.js";

/** What {@link readPoolStatus} found on a socket: the pool's status, or why no daemon answered (nothing is pooled then). */
export type PoolReading = { running: true; status: PoolStatus } | { running: false; why: string };

/**
 * The pool of the daemon on `socket`, or why there is none (a `DaemonUnavailable`'s message: no
 * socket, not this user's, …). Rejects as `daemonRequest` does for anything else.
 */
export async function readPoolStatus(socket: string): Promise<PoolReading> {
  try {
    return { running: true, status: (await daemonRequest(socket, "pool/status", {})) as PoolStatus };
  } catch (error) {
    if (!(error instanceof DaemonUnavailable)) throw error;
    return { running: false, why: error.message };
  }
}

/**
 * Stops the pooled server named `server` in the daemon on `socket` (its hosts are told why): how
 * many processes were stopped (0: none is pooled by that name), or why no daemon answered.
 * Rejects as `daemonRequest` does for anything else.
 */
export async function killPooled(
  socket: string,
  server: string,
): Promise<{ running: true; killed: number } | { running: false; why: string }> {
  try {
    const { killed } = (await daemonRequest(socket, "pool/kill", { server })) as { killed: number };
    return { running: true, killed };
  } catch (error) {
    if (!(error instanceof DaemonUnavailable)) throw error;
    return { running: false, why: error.message };
  }
}

/**
 * One attached host in words: its `clientInfo` name and version (else `a host`), the `--from` its
 * shim was given, and its shim's pid and the shim's parent's, e.g.
 * `Claude Code 1.2 from claude-code:user, shim pid 41 (parent 40)`. Every part is a label the shim
 * sent, trusted for nothing.
 */
export function hostLabel(host: Pick<HostStatus, "clientInfo" | "info">): string {
  const client = host.clientInfo as { name?: unknown; version?: unknown } | undefined;
  const who =
    typeof client?.name === "string"
      ? `${client.name}${typeof client.version === "string" ? ` ${client.version}` : ""}`
      : "a host";
  const from = typeof host.info["from"] === "string" ? ` from ${host.info["from"]}` : "";
  return `${who}${from}, shim pid ${String(host.info["shimPid"])} (parent ${String(host.info["parentPid"])})`;
}
