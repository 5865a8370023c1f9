// One Redis connection shared by the stores: given by the caller (theirs to close), or opened from
// a URL (closed by `close()`). Every key is put under a prefix so one Redis can serve many fleets.

import { Redis } from "ioredis";

/** How a store reaches Redis. */
export interface RedisStoreOptions {
  /** An ioredis client (yours to close), or a `redis://` / `rediss://` URL (the store opens and closes it). */
  redis: Redis | string;
  /** Put before every key. Default `"mcp:"`. */
  prefix?: string | undefined;
  /**
   * Connection problems of a connection the store opened (it reconnects by itself; a command that
   * cannot be sent fails with a {@link RedisStoreError}). Default: ignored.
   */
  onError?: ((error: Error) => void) | undefined;
}

/** A Redis command failed: which store, what it did, and Redis's own message. */
export class RedisStoreError extends Error {
  override readonly name = "RedisStoreError";
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`Redis ${operation} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * Opens an ioredis connection as the stores do from a URL: a command fails after two reconnect
 * attempts (rather than waiting for Redis forever), and connection problems go to `onError`
 * instead of ioredis's own console line. One connection can then serve several stores.
 */
export function connectRedis(url: string, onError?: (error: Error) => void): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 5_000, enableAutoPipelining: true });
  redis.on("error", (error: Error) => onError?.(error));
  return redis;
}

/** The connection and key prefix of a store. */
export class RedisConnection {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;

  constructor(options: RedisStoreOptions) {
    if (typeof options.redis === "string") {
      this.redis = connectRedis(options.redis, options.onError);
      this.#owned = true;
    } else {
      this.redis = options.redis;
      this.#owned = false;
    }
    this.prefix = options.prefix ?? "mcp:";
  }

  /** Runs a command, its failure named. */
  async run<T>(operation: string, command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      return await command(this.redis);
    } catch (error) {
      throw new RedisStoreError(operation, error);
    }
  }

  /** Closes a connection the store opened (one you gave stays open). */
  async close(): Promise<void> {
    if (this.#owned) await this.redis.quit().catch(() => this.redis.disconnect());
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
