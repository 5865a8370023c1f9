// This user's daemon, started when none answers: what a shim (or an embedder) does before it asks
// the daemon anything. Shims that start at once (a host opening all its servers) start one daemon
// between them: the first takes a lock file next to the socket, the rest wait for the socket to answer.

import { closeSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { probeDaemon } from "./request.js";
import { DaemonError } from "./errors.js";
import { checkSocket } from "./private.js";

/** How long a start lock may be held before another process takes it over (its holder died). */
const LOCK_STALE_MS = 20_000;

/** Options of {@link ensureDaemon}. */
export interface EnsureDaemonOptions {
  /**
   * Starts the daemon in the background (e.g. `mcp daemon run` as a detached process); called by
   * at most one of the processes that find no daemon at once, with the lock held. It may resolve
   * before the socket answers: {@link ensureDaemon} waits for it.
   */
  start: () => Promise<unknown>;
  /** How long to wait for the socket to answer, in all (default 20 s). */
  timeoutMs?: number | undefined;
}

/**
 * The socket of this user's daemon once a daemon answers there, started with `options.start` when
 * none does. `socket`'s folder must be made first (`claimSocketFolder`): the lock lives in it. A
 * `DaemonError` when it does not answer in time, or when the socket is not this user's alone.
 */
export async function ensureDaemon(socket: string, options: EnsureDaemonOptions): Promise<string> {
  const lock = join(dirname(socket), "start.lock");
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while ((await probeDaemon(socket, 1000)) !== "live") {
    if (Date.now() > deadline) throw new DaemonError(`the mcp daemon did not start on ${socket}`);
    let held: number | undefined;
    try {
      held = openSync(lock, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
      } catch {
        // removed meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 50)); // another process is starting it: poll its socket
      continue;
    }
    try {
      closeSync(held);
      if ((await probeDaemon(socket, 1000)) !== "live") {
        await options.start();
        // It may resolve before its socket answers: waited for here, the lock held, so no one starts another.
        while ((await probeDaemon(socket, 1000)) !== "live") {
          if (Date.now() > deadline) throw new DaemonError(`the mcp daemon did not start on ${socket}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      rmSync(lock, { force: true });
    }
  }
  const trusted = checkSocket(socket);
  if (trusted.state === "foreign") throw new DaemonError(`not using ${socket}: ${trusted.problem}`);
  return socket;
}
