// Whether Redis answers, per ioredis client (several stores may share one): a command waits at
// most its timeout, and once Redis has failed to answer, the commands after it fail at once,
// except one a second that is sent to find out whether Redis is back. A blocked or stopped Redis
// then costs a cache miss, not a wait on every request.

import type { Redis } from "ioredis";

/** How long a command waits for its answer unless told otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
/** While Redis is failing, one command at most this often is sent to find out whether it is back. */
const PROBE_EVERY_MS = 1_000;

/** A Redis command failed: which store, what it did, and Redis's own message (or why none came). */
export class RedisStoreError extends Error {
  override readonly name = "RedisStoreError";
  constructor(
    readonly operation: string,
    cause: unknown,
    /** True when Redis did not answer (a timeout, no connection); false when it answered with an error. */
    readonly unreachable = false,
  ) {
    super(`Redis ${operation} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** Whether a command's failure means Redis did not answer, rather than that it refused the command. */
export function isUnreachable(error: unknown): boolean {
  // Redis's own error replies (WRONGTYPE, a script's error, …) are ReplyErrors.
  return !(error instanceof Error && error.name === "ReplyError");
}

/** `promise`, or a rejection once `ms` have passed without its answer. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      // After a long synchronous stretch the answer may be waiting, unread, on the socket: the
      // poll phase reads it before this runs, so a busy process does not time out a prompt Redis.
      setImmediate(() => reject(new Error(`no answer within ${ms} ms`)));
    }, ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** What the stores sharing one client know of whether Redis answers. */
class Health {
  #failing = false;
  #probing = false;
  #triedAt = 0;
  #wasReady = false;

  /** Undefined when a command may be sent now; otherwise why it is not. */
  admit(redis: Redis): Error | undefined {
    if (redis.status === "end") return new Error("the connection is closed");
    if (redis.status === "ready") this.#wasReady = true;
    // Lost after it worked: ioredis reconnects by itself; until then nothing is queued to wait.
    else if (this.#wasReady) return new Error(`Redis is not connected (${redis.status}); not waiting for it`);
    if (!this.#failing) return undefined;
    if (this.#probing || Date.now() - this.#triedAt < PROBE_EVERY_MS)
      return new Error(
        `Redis did not answer a moment ago; not waiting for it (tried again every ${PROBE_EVERY_MS} ms)`,
      );
    this.#probing = true;
    this.#triedAt = Date.now();
    return undefined;
  }

  succeeded(): void {
    this.#failing = false;
    this.#probing = false;
  }

  /** Notes a command Redis did not answer; true when Redis was answering until now. */
  failed(): boolean {
    const first = !this.#failing;
    this.#failing = true;
    this.#probing = false;
    this.#triedAt = Date.now();
    return first;
  }
}

const healths = new WeakMap<Redis, Health>();

/** The health record of a client, shared by every store on it. */
export function healthOf(redis: Redis): Health {
  let health = healths.get(redis);
  if (!health) healths.set(redis, (health = new Health()));
  return health;
}
