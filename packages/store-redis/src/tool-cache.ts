// The manager's tool cache on Redis: every replica or host sharing the Redis offers a server's
// tools at once from the list any one of them fetched.

import type { CachedTools, ToolCache } from "@mcp/manager";
import { parseJson, RedisConnection, type RedisStoreOptions } from "./connection.js";
import { isCachedTools } from "./validate.js";

/**
 * {@link ToolCache} on Redis. Each entry expires in Redis when the manager's entry does
 * (`expiresAt`). A `"private"` entry (a list the server said was for one authorization context)
 * is kept only when `sharePrivate` is true: set it when every user of the Redis is the same
 * principal (one gateway's replicas), not when many users share it.
 */
export class RedisToolCache implements ToolCache {
  readonly #db: RedisConnection;
  readonly #sharePrivate: boolean;

  constructor(options: RedisStoreOptions & { sharePrivate?: boolean | undefined }) {
    this.#db = new RedisConnection(options);
    this.#sharePrivate = options.sharePrivate ?? false;
  }

  #key(key: string): string {
    return `${this.#db.prefix}tools:${key}`;
  }

  async get(key: string): Promise<CachedTools | undefined> {
    // Anything else under the key (damaged, or written by someone else) is a miss: the server is asked.
    const entry = parseJson(await this.#db.run("tool cache get", (r) => r.get(this.#key(key))));
    return isCachedTools(entry) && entry.expiresAt > Date.now() ? entry : undefined;
  }

  async set(key: string, value: CachedTools): Promise<void> {
    if (value.cacheScope === "private" && !this.#sharePrivate) return;
    const ttl = Math.floor(value.expiresAt - Date.now());
    if (ttl <= 0) return this.delete(key);
    await this.#db.run("tool cache set", (r) => r.set(this.#key(key), JSON.stringify(value), "PX", ttl));
  }

  async delete(key: string): Promise<void> {
    await this.#db.run("tool cache delete", (r) => r.del(this.#key(key)));
  }

  /** Closes the connection if the cache opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }
}
