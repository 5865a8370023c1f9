// One Redis connection shared by the stores: given by the caller (theirs to close), or opened from
// a URL (closed by `close()`). Every key is put under a prefix so one Redis can serve many fleets.
// Every command has a timeout, and while Redis does not answer, commands fail at once instead of
// each waiting its timeout (see `health.ts`).

import { Redis } from "ioredis";
import { DEFAULT_COMMAND_TIMEOUT_MS, healthOf, isUnreachable, RedisStoreError, withTimeout } from "./health.js";

export { RedisStoreError } from "./health.js";

/** How a store reaches Redis. */
export interface RedisStoreOptions {
  /** An ioredis client (yours to close), or a `redis://` / `rediss://` URL (the store opens and closes it). */
  redis: Redis | string;
  /** Put before every key. Default `"mcp:"`. */
  prefix?: string | undefined;
  /**
   * Connection problems: those of a connection the store opened (it reconnects by itself), and
   * Redis starting to fail (a timeout, a lost connection), once each time it starts. A command
   * that fails rejects with a {@link RedisStoreError} whatever this does. Default: ignored.
   */
  onError?: ((error: Error) => void) | undefined;
  /**
   * How long a command may wait for Redis's answer before it fails with a {@link RedisStoreError}
   * (`unreachable: true`). Default 1000 ms.
   */
  commandTimeoutMs?: number | undefined;
}

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** Connection problems (ioredis's `error` events), instead of ioredis's own console line. */
  onError?: ((error: Error) => void) | undefined;
  /** How long a command may wait for its answer. Default 1000 ms. */
  commandTimeoutMs?: number | undefined;
}

/**
 * Opens an ioredis connection as the stores do from a URL: a connection attempt fails after 2 s,
 * a lost connection is retried after 0.2 s doubling to 2 s, and connection problems go to
 * `onError` (each once until the connection works again) instead of ioredis's own console line. One connection can then serve several stores.
 * The stores time their commands themselves (`commandTimeoutMs`); the connection's own ioredis
 * `commandTimeout`, a second longer, bounds anything else sent on it (`quit`).
 */
export function connectRedis(url: string, options: ConnectRedisOptions = {}): Redis {
  const redis = new Redis(url, {
    commandTimeout: (options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS) + 1_000,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
    enableAutoPipelining: true,
  });
  // Each failure once until the connection works again: a Redis that stays down is not a line every retry.
  let last: string | undefined;
  redis.on("ready", () => (last = undefined));
  redis.on("error", (error: Error) => {
    if (error.message === last) return;
    last = error.message;
    options.onError?.(error);
  });
  return redis;
}

/**
 * Ends a connection: `QUIT` (commands already sent are answered first), or at once when Redis does
 * not answer it within `timeoutMs` (default 1000 ms).
 */
export async function closeRedis(redis: Redis, timeoutMs = DEFAULT_COMMAND_TIMEOUT_MS): Promise<void> {
  if (redis.status === "end") return;
  await withTimeout(redis.quit(), timeoutMs).catch(() => redis.disconnect());
}

/** The connection and key prefix of a store. */
export class RedisConnection {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #timeoutMs: number;
  readonly #onError: ((error: Error) => void) | undefined;

  constructor(options: RedisStoreOptions) {
    this.#timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    if (typeof options.redis === "string") {
      this.redis = connectRedis(options.redis, { onError: options.onError, commandTimeoutMs: this.#timeoutMs });
      this.#owned = true;
    } else {
      this.redis = options.redis;
      this.#owned = false;
    }
    this.prefix = options.prefix ?? "mcp:";
    this.#onError = options.onError;
  }

  /**
   * Runs a command, its failure named: a {@link RedisStoreError}, `unreachable` when Redis did
   * not answer (within the timeout) rather than answered with an error. While Redis is failing,
   * one command at most every second is sent to find out whether it is back; the others fail at
   * once.
   */
  async run<T>(operation: string, command: (redis: Redis) => Promise<T>): Promise<T> {
    const health = healthOf(this.redis);
    const refused = health.admit(this.redis);
    if (refused !== undefined) throw new RedisStoreError(operation, refused, true);
    try {
      const result = await withTimeout(command(this.redis), this.#timeoutMs);
      health.succeeded();
      return result;
    } catch (error) {
      const unreachable = isUnreachable(error);
      const failure = new RedisStoreError(operation, error, unreachable);
      if (unreachable && health.failed()) this.#onError?.(failure);
      else if (!unreachable) health.succeeded();
      throw failure;
    }
  }

  /** Closes a connection the store opened (one you gave stays open), at once if Redis does not answer. */
  async close(): Promise<void> {
    if (this.#owned) await closeRedis(this.redis, this.#timeoutMs);
  }
}

/** Reads a JSON value; one that does not parse counts as absent. Check its shape before use. */
export function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
