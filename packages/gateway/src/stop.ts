// Stopping a process that serves a gateway, as hosts and orchestrators ask it to: SIGINT, SIGTERM
// or (served over stdio) the end of stdin; then closing, bounded in time, so a server slow to exit
// or a request not answered does not hold a replica's shutdown.

import type { Readable } from "node:stream";

/** Why a stop was asked for: a signal, or the end of stdin (how a host ends a stdio server). */
export type StopReason = "Ctrl-C" | "SIGTERM" | "end of stdin";

/** What {@link stopRequests} listens for. */
export interface StopRequests {
  /** Resolves with why, at the first request. */
  asked: Promise<StopReason>;
  /** When it was asked for (`Date.now()`), undefined until then. */
  readonly at: number | undefined;
  /** Stops listening: the signals' and `stdin`'s listeners (and `again`'s) are taken off. */
  dispose(): void;
}

/**
 * Listens for a request to stop: SIGINT, SIGTERM, or the end of `stdin` when given. From the first,
 * a second SIGINT or SIGTERM calls `again` (e.g. exit at once); without `again` it gets the
 * process's default action.
 */
export function stopRequests(
  options: { stdin?: Readable | undefined; again?: (() => void) | undefined } = {},
): StopRequests {
  let at: number | undefined;
  let answer: (why: StopReason) => void = () => {};
  const asked = new Promise<StopReason>((resolve) => (answer = resolve));
  const again = options.again;
  const off = (): void => {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    options.stdin?.off("end", onEnd);
    options.stdin?.off("close", onEnd);
  };
  const done = (why: StopReason): void => {
    if (at !== undefined) return;
    off();
    at = Date.now();
    if (again) {
      process.once("SIGINT", again);
      process.once("SIGTERM", again);
    }
    answer(why);
  };
  const onInt = (): void => done("Ctrl-C");
  const onTerm = (): void => done("SIGTERM");
  const onEnd = (): void => done("end of stdin");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  options.stdin?.once("end", onEnd);
  options.stdin?.once("close", onEnd);
  return {
    asked,
    get at() {
      return at;
    },
    dispose: () => {
      off();
      if (again) {
        process.off("SIGINT", again);
        process.off("SIGTERM", again);
      }
    },
  };
}

/**
 * Runs `close`. When a stop was asked for at `at`, resolves `"late"` once `ms` have passed since
 * then and `close` has not finished (what is still closing is the caller's to cut short, e.g. by
 * exiting), else `"closed"`.
 */
export async function closeWithin(
  at: number | undefined,
  ms: number,
  close: () => Promise<void>,
): Promise<"closed" | "late"> {
  if (at === undefined) return close().then(() => "closed");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">(
    (resolve) => (timer = setTimeout(() => resolve("late"), Math.max(0, at + ms - Date.now()))),
  );
  try {
    return await Promise.race([close().then(() => "closed" as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
