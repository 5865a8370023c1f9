// The refresh lock of one set of credentials, and the fence of writes made under it.
//
// The lock is `SET NX PX` with a random value, renewed (compare-and-`PEXPIRE`) every third of its
// time to live while its holder runs, and released only by its holder. A holder that dies stops
// renewing, so its lock expires after `lockTtlMs`. A holder that lives but cannot renew (paused
// longer than the TTL, or Redis not answering) may lose it: another process can then take the
// lock. So every write made under the lock is fenced: it carries the credentials' stamp as it was
// when the lock was taken (or at the holder's own last write), and Redis refuses it when the stamp
// moved since — another process wrote newer credentials, and ours must not overwrite them.

import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { RedisConnection } from "./connection.js";

/** Takes the lock if free; answers whether it did and the stamp at that moment ("" when none). */
const ACQUIRE = `if redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then return {1, redis.call("get", KEYS[2]) or ""} end
return {0, ""}`;
/** Extends the lock only if it is still ours: 1, or 0 when it is gone or another's. */
const RENEW =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end';
/** Deletes the lock only if it is still ours. */
export const RELEASE =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

/**
 * A write of credentials: KEYS cred, latest, stamp; ARGV the record ("" deletes it), the
 * credentials' hash, and the stamp it expects ("*": any). Answers the new stamp, or -1 when the
 * stamp is not the one expected (nothing is written).
 */
export const WRITE = `if ARGV[3] ~= "*" and (redis.call("get", KEYS[3]) or "") ~= ARGV[3] then return -1 end
if ARGV[1] == "" then redis.call("del", KEYS[1]) else redis.call("set", KEYS[1], ARGV[1]); redis.call("set", KEYS[2], ARGV[2]) end
return redis.call("incr", KEYS[3])`;

/** The lock was held by another process for longer than `lockTimeoutMs`. */
export class RedisLockTimeoutError extends Error {
  override readonly name = "RedisLockTimeoutError";
}

/**
 * A write made under the refresh lock was refused: another process wrote these credentials after
 * this one took the lock (so the lock had lapsed). Theirs are newer and stay.
 */
export class RedisStaleWriteError extends Error {
  override readonly name = "RedisStaleWriteError";
}

/** What a holder's writes are fenced by: the credentials it locked, and the stamp it last saw. */
export interface Fence {
  hash: string;
  stamp: string;
}

/** Keys of the lock and of the stamp it fences by. */
export interface LockKeys {
  lock: string;
  stamp: string;
}

/** The refresh locks of one store. */
export class RefreshLocks {
  readonly #held = new AsyncLocalStorage<Fence>();

  constructor(
    private readonly db: RedisConnection,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** The fence of the lock the running code holds on `hash`, if it holds one. */
  fenceFor(hash: string): Fence | undefined {
    const fence = this.#held.getStore();
    return fence?.hash === hash ? fence : undefined;
  }

  /** Runs `fn` holding the lock of `hash` (`what` names it in errors), renewed until `fn` ends. */
  async run<T>(hash: string, keys: LockKeys, what: string, fn: () => Promise<T>): Promise<T> {
    const token = randomUUID();
    const deadline = Date.now() + this.timeoutMs;
    let stamp: string;
    for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
      const [taken, seen] = await this.db
        .run(
          "token lock",
          (r) => r.eval(ACQUIRE, 2, keys.lock, keys.stamp, token, this.ttlMs) as Promise<[number, string]>,
        )
        .catch((error: unknown) => {
          // Unanswered is not unsent: should the SET still run, the release queued behind it undoes it.
          void this.db.redis.eval(RELEASE, 1, keys.lock, token).catch(() => undefined);
          throw error;
        });
      if (taken === 1) {
        stamp = seen;
        break;
      }
      if (Date.now() > deadline)
        throw new RedisLockTimeoutError(
          `another process held the OAuth refresh lock for ${what} longer than ${this.timeoutMs}ms`,
        );
      await new Promise((r) => setTimeout(r, wait));
    }
    const fence: Fence = { hash, stamp };
    let lapsed = false;
    const renew = setInterval(
      () =>
        void this.db
          .run("token lock renew", (r) => r.eval(RENEW, 1, keys.lock, token, this.ttlMs))
          .then(
            (renewed) => {
              if (renewed === 0 && !lapsed) {
                lapsed = true;
                this.warn(
                  `the OAuth refresh lock for ${what} lapsed while its holder ran (not renewed within ${this.ttlMs} ms); its write is refused if another process wrote meanwhile`,
                );
              }
            },
            // Not answered: the next tick tries again; the fence covers a lock lost meanwhile.
            () => undefined,
          ),
      Math.max(1, Math.floor(this.ttlMs / 3)),
    );
    renew.unref();
    try {
      return await this.#held.run(fence, fn);
    } finally {
      clearInterval(renew);
      await this.db.run("token unlock", (r) => r.eval(RELEASE, 1, keys.lock, token)).catch(() => undefined);
    }
  }
}
