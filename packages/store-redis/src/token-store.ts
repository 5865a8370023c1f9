// OAuth credentials on Redis, for replicas that share upstream servers' tokens: a token one
// refreshes is the one the others use (the provider reads `stamp` before each request), and a
// refresh runs under a lock, renewed while its holder runs and fencing its writes, so two
// replicas never spend the same refresh token (see `refresh-lock.ts`).

import { createHash } from "node:crypto";
import type { StoredCredentials, TokenStore } from "@mcp/oauth";
import { parseJson, RedisConnection, RedisStoreError, type RedisStoreOptions } from "./connection.js";
import { RedisStaleWriteError, RefreshLocks, WRITE } from "./refresh-lock.js";
import { isStoredCredentials } from "./validate.js";

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions extends RedisStoreOptions {
  /**
   * The refresh lock's time to live. Its holder renews it every third of this while it runs; a
   * lock whose holder died expires this long after its last renewal. Default 30 s.
   */
  lockTtlMs?: number | undefined;
  /** How long to wait for another holder's lock before failing. Default 60 s. */
  lockTimeoutMs?: number | undefined;
  /**
   * What the store notices and goes on from (a record it cannot use, a lock that lapsed), never
   * with a secret in it. Default: `process.emitWarning`.
   */
  onWarning?: ((message: string) => void) | undefined;
}

function hashOf(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32);
}

/** {@link TokenStore} on Redis (with `lock` and `stamp`). Never prints what it holds. */
export class RedisTokenStore implements TokenStore {
  readonly #db: RedisConnection;
  readonly #locks: RefreshLocks;
  /** The stamps last read, per credentials: what `stamp` answers while Redis does not. */
  readonly #stamps = new Map<string, number | undefined>();

  constructor(options: RedisTokenStoreOptions) {
    this.#db = new RedisConnection(options);
    const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, "RedisTokenStoreWarning"));
    this.#locks = new RefreshLocks(this.#db, options.lockTtlMs ?? 30_000, options.lockTimeoutMs ?? 60_000, warn);
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

  /**
   * Saves credentials and bumps their stamp. Under the refresh lock, the write is fenced: a
   * {@link RedisStaleWriteError} when another process wrote them since the lock was taken.
   */
  async set(credentials: StoredCredentials): Promise<void> {
    await this.#write("token set", credentials.issuer, credentials.resource, JSON.stringify({ ...credentials, savedAt: Date.now() }));
  }

  async delete(issuer: string, resource: string): Promise<void> {
    await this.#write("token delete", issuer, resource, "");
  }

  async #write(operation: string, issuer: string, resource: string, record: string): Promise<void> {
    const hash = hashOf(issuer, resource);
    const fence = this.#locks.fenceFor(hash);
    const stamp = await this.#db.run(operation, (r) => r.eval(WRITE, 3, this.#key("cred", hash), this.#key("latest", hashOf(resource)), this.#key("stamp", hash), record, hash, fence?.stamp ?? "*") as Promise<number>);
    if (stamp === -1) throw new RedisStaleWriteError(`OAuth credentials for ${issuer} → ${resource} were written by another process after this one took the refresh lock (its lock lapsed): this write is refused; theirs are newer`);
    if (fence) fence.stamp = String(stamp);
    this.#stamps.set(hash, stamp);
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

  /**
   * Runs `fn` holding the credentials' refresh lock (waiting up to `lockTimeoutMs` for another
   * holder), renewed while `fn` runs; writes of these credentials inside `fn` are fenced.
   */
  lock<T>(issuer: string, resource: string, fn: () => Promise<T>): Promise<T> {
    const hash = hashOf(issuer, resource);
    return this.#locks.run(hash, { lock: this.#key("lock", hash), stamp: this.#key("stamp", hash) }, `${issuer} → ${resource}`, fn);
  }

  /** Closes the connection if the store opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RedisTokenStore { prefix: ${JSON.stringify(this.#db.prefix)} }`;
  }
}
