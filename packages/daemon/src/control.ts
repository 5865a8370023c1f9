// This user's daemon as a command line controls it: whether it runs (and what it runs, or why it
// is not asked: a socket that is not this user's, a stale one left by a daemon that is gone), and
// stopping it, waiting until its socket no longer answers.

import { DaemonUnavailable, DaemonUntrusted } from "./errors.js";
import { daemonRequest, probeDaemon } from "./request.js";
import type { DaemonStatus } from "./server.js";

/** What {@link daemonState} found on a socket. */
export type DaemonState =
  | { running: true; status: DaemonStatus }
  /** The socket, or its folder, is not this user's alone: nothing was sent (the message says why). */
  | { running: false; untrusted: string }
  /** No daemon answers; `stale` when a socket file is left by one that is gone. */
  | { running: false; untrusted?: undefined; stale: boolean };

/**
 * The daemon on `socket` and its status, or why there is none. Rejects as `daemonRequest` does for
 * anything but a daemon that is not there or not this user's (e.g. a `DaemonError` answer).
 */
export async function daemonState(socket: string): Promise<DaemonState> {
  try {
    return { running: true, status: (await daemonRequest(socket, "status", {})) as DaemonStatus };
  } catch (error) {
    if (error instanceof DaemonUntrusted) return { running: false, untrusted: error.message };
    if (!(error instanceof DaemonUnavailable)) throw error;
    return { running: false, stale: (await probeDaemon(socket)) === "stale" };
  }
}

/**
 * Asks the daemon on `socket` to stop and waits (at most `waitMs`, default 10 s) until its socket no
 * longer answers. False when no daemon runs there; rejects with `DaemonUntrusted` for a socket
 * that is not this user's (nothing sent), and as `daemonRequest` does otherwise.
 */
export async function stopDaemon(socket: string, options: { waitMs?: number | undefined } = {}): Promise<boolean> {
  try {
    await daemonRequest(socket, "stop", {});
  } catch (error) {
    if (error instanceof DaemonUnavailable && !(error instanceof DaemonUntrusted)) return false;
    throw error;
  }
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  while (Date.now() < deadline && (await probeDaemon(socket, 500)) === "live")
    await new Promise((resolve) => setTimeout(resolve, 50));
  return true;
}
