// OAuth credentials on Redis, for replicas that share upstream servers' tokens: a token one
// refreshes is the one the others use (the provider reads `stamp` before each request), and a
// refresh runs under a lock, so two replicas never spend the same refresh token.

import { createHash, randomUUID } from "node:crypto";
import type { StoredCredentials, TokenStore } from "@mcp/oauth";
import { parseJson, RedisConnection, RedisStoreError, type RedisStoreOptions } from "./connection.js";
import { isStoredCredentials } from "./validate.js";

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions extends RedisStoreOptions {
  /** A lock not released within this long (its holder died) expires. Default 30 s. */
  lockTtlMs?: number | undefined;
  /** How long to wait for another holder's lock before failing. Default 60 s. */
  lockTimeoutMs?: number | undefined;
}

/** Deletes the lock only if it is still ours. */
const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

function hashOf(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32);
}

/** The lock was held by another process for longer than `lockTimeoutMs`. */
export class RedisLockTimeoutError extends Error {
  override readonly name = "RedisLockTimeoutError";
}

/** {@link TokenStore} on Redis (with `lock` and `stamp`). Never prints what it holds. */
export class RedisTokenStore implements TokenStore {
  readonly #db: RedisConnection;
  readonly #lockTtlMs: number;
  readonly #lockTimeoutMs: number;
  /** The stamps last read, per credentials: what `stamp` answers while Redis does not. */
  readonly #stamps = new Map<string, number | undefined>();

  constructor(options: RedisTokenStoreOptions) {
    this.#db = new RedisConnection(options);
    this.#lockTtlMs = options.lockTtlMs ?? 30_000;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 60_000;
  }

  #key(kind: string, hash: string): string {
    return `${this.#db.prefix}oauth:${kind}:${hash}`;
  }

  async get(issuer: string, resource: string): Promise<StoredCredentials | undefined> {
    const hash = hashOf(issuer, resource);
    return this.#read(hash, resource, await this.#db.run("token get", (r) => r.get(this.#key("cred", hash))));
  }

  async find(resource: string): Promise<StoredCredentials | undefined> {
    const latest = await this.#db.run("token find", (r) => r.get(this.#key("latest", hashOf(resource))));
    return latest === null ? undefined : this.#read(latest, resource, await this.#db.run("token find", (r) => r.get(this.#key("cred", latest))));
  }

  /** A record read from `cred:<hash>`: credentials of that issuer and resource, or a miss. */
  #read(hash: string, resource: string, text: string | null): StoredCredentials | undefined {
    const record = parseJson(text);
    if (!isStoredCredentials(record) || record.resource !== resource || hashOf(record.issuer, record.resource) !== hash) return undefined;
    return record;
  }

  async set(credentials: StoredCredentials): Promise<void> {
    const hash = hashOf(credentials.issuer, credentials.resource);
    const value = JSON.stringify({ ...credentials, savedAt: Date.now() });
    await this.#db.run("token set", (r) => r.multi().set(this.#key("cred", hash), value).set(this.#key("latest", hashOf(credentials.resource)), hash).incr(this.#key("stamp", hash)).exec());
  }

  async delete(issuer: string, resource: string): Promise<void> {
    const hash = hashOf(issuer, resource);
    await this.#db.run("token delete", (r) => r.multi().del(this.#key("cred", hash)).incr(this.#key("stamp", hash)).exec());
  }

  /**
   * The credentials' write counter. While Redis does not answer, the one last read: the provider
   * then goes on with the token it holds instead of failing every request (it reads the
   * credentials again once Redis answers with a newer stamp).
   */
  async stamp(issuer: string, resource: string): Promise<number | undefined> {
    const hash = hashOf(issuer, resource);
    try {
      const value = await this.#db.run("token stamp", (r) => r.get(this.#key("stamp", hash)));
      const stamp = value === null ? undefined : Number(value);
      this.#stamps.set(hash, stamp);
      return stamp;
    } catch (error) {
      if (error instanceof RedisStoreError && error.unreachable) return this.#stamps.get(hash);
      throw error;
    }
  }

  async lock<T>(issuer: string, resource: string, fn: () => Promise<T>): Promise<T> {
    const key = this.#key("lock", hashOf(issuer, resource));
    const token = randomUUID();
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
      const taken = await this.#db.run("token lock", (r) => r.set(key, token, "PX", this.#lockTtlMs, "NX")).catch((error: unknown) => {
        // Unanswered is not unsent: should the SET still run, the release queued behind it undoes it.
        void this.#db.redis.eval(RELEASE, 1, key, token).catch(() => undefined);
        throw error;
      });
      if (taken === "OK") break;
      if (Date.now() > deadline) throw new RedisLockTimeoutError(`another process held the OAuth refresh lock for ${issuer} → ${resource} longer than ${this.#lockTimeoutMs}ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
    try {
      return await fn();
    } finally {
      await this.#db.run("token unlock", (r) => r.eval(RELEASE, 1, key, token)).catch(() => undefined);
    }
  }

  /** Closes the connection if the store opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RedisTokenStore { prefix: ${JSON.stringify(this.#db.prefix)} }`;
  }
}
