// OAuth credentials on Redis, for replicas that share upstream servers' tokens: a token one
// refreshes is the one the others use (the provider reads `stamp` before each request), and a
// refresh runs under a lock, renewed while its holder runs and fencing its writes, so two
// replicas never spend the same refresh token (see `refresh-lock.ts`). Records are encrypted
// with the store's key (`sealed.ts`) unless it was told `plaintext: true`.

import { createHash } from "node:crypto";
import type { StoredCredentials, TokenStore } from "@mcp/oauth";
import { parseJson, RedisConnection, RedisStoreError, type RedisStoreOptions } from "./connection.js";
import { RedisStaleWriteError, RefreshLocks, WRITE } from "./refresh-lock.js";
import { isEnvelope, keyBytes, RedisKeyError, Sealer } from "./sealed.js";
import { isStoredCredentials } from "./validate.js";

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions extends RedisStoreOptions {
  /**
   * The key credentials are encrypted with at rest (AES-256-GCM): 32 bytes, or text of them as
   * 64 hex digits or base64 (`openssl rand -base64 32`). Every replica sharing the records needs
   * the same one. Without it, `plaintext: true` must say that credentials go unencrypted.
   */
  key?: Uint8Array | string | undefined;
  /** Stores credentials as plain JSON, readable by anyone who can read the Redis. Only without `key`. */
  plaintext?: boolean | undefined;
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
  readonly #sealer: Sealer | undefined;
  readonly #warn: (message: string) => void;
  /** What was warned about, per record: each once. */
  readonly #warned = new Set<string>();

  /** @throws {RedisKeyError} with neither `key` nor `plaintext: true`, or a key that is not 32 bytes. */
  constructor(options: RedisTokenStoreOptions) {
    if (options.key === undefined && options.plaintext !== true) {
      throw new RedisKeyError(
        `RedisTokenStore needs a key to encrypt OAuth credentials at rest (\`key\`: 32 bytes; make one with \`openssl rand -base64 32\`), or \`plaintext: true\` to store them unencrypted`,
      );
    }
    this.#sealer = options.key === undefined ? undefined : new Sealer(keyBytes(options.key, "RedisTokenStore's key"));
    this.#db = new RedisConnection(options);
    this.#warn = options.onWarning ?? ((message: string) => process.emitWarning(message, "RedisTokenStoreWarning"));
    this.#locks = new RefreshLocks(this.#db, options.lockTtlMs ?? 30_000, options.lockTimeoutMs ?? 60_000, this.#warn);
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
    return latest === null
      ? undefined
      : this.#read(latest, resource, await this.#db.run("token find", (r) => r.get(this.#key("cred", latest))));
  }

  /**
   * A record read from `cred:<hash>`: credentials of that issuer and resource, or a miss (with a
   * warning, once, when there was something there this store cannot use).
   */
  #read(hash: string, resource: string, text: string | null): StoredCredentials | undefined {
    if (text === null) return undefined;
    let value = parseJson(text);
    if (isEnvelope(value)) {
      if (!this.#sealer)
        return this.#miss(
          hash,
          "it is encrypted, and this store has no key (give it the key the records were written with)",
        );
      const opened = this.#sealer.open(`oauth:cred:${hash}`, value);
      if ("problem" in opened) return this.#miss(hash, opened.problem);
      value = parseJson(opened.text);
    } else if (this.#sealer && value !== undefined) {
      // An earlier version's record, or a plaintext store's: its contents cannot be trusted (anyone
      // who can write to the Redis could have put it there), so the provider signs in again.
      return this.#miss(
        hash,
        "it is stored unencrypted (by an earlier version, or a store with plaintext: true); it is ignored, and the next sign-in or refresh stores it encrypted",
      );
    }
    if (!isStoredCredentials(value) || value.resource !== resource || hashOf(value.issuer, value.resource) !== hash)
      return this.#miss(hash, "it is not OAuth credentials for this server");
    return value;
  }

  #miss(hash: string, why: string): undefined {
    const seen = `${hash} ${why}`;
    if (!this.#warned.has(seen)) {
      if (this.#warned.size >= 1_000) this.#warned.clear();
      this.#warned.add(seen);
      this.#warn(`OAuth credentials at ${this.#key("cred", hash)} are not used: ${why}`);
    }
    return undefined;
  }

  /**
   * Saves credentials and bumps their stamp. Under the refresh lock, the write is fenced: a
   * {@link RedisStaleWriteError} when another process wrote them since the lock was taken.
   */
  async set(credentials: StoredCredentials): Promise<void> {
    const hash = hashOf(credentials.issuer, credentials.resource);
    const text = JSON.stringify({ ...credentials, savedAt: Date.now() });
    await this.#write(
      "token set",
      credentials.issuer,
      credentials.resource,
      this.#sealer ? this.#sealer.seal(`oauth:cred:${hash}`, text) : text,
    );
  }

  async delete(issuer: string, resource: string): Promise<void> {
    await this.#write("token delete", issuer, resource, "");
  }

  async #write(operation: string, issuer: string, resource: string, record: string): Promise<void> {
    const hash = hashOf(issuer, resource);
    const fence = this.#locks.fenceFor(hash);
    const stamp = await this.#db.run(
      operation,
      (r) =>
        r.eval(
          WRITE,
          3,
          this.#key("cred", hash),
          this.#key("latest", hashOf(resource)),
          this.#key("stamp", hash),
          record,
          hash,
          fence?.stamp ?? "*",
        ) as Promise<number>,
    );
    if (stamp === -1)
      throw new RedisStaleWriteError(
        `OAuth credentials for ${issuer} → ${resource} were written by another process after this one took the refresh lock (its lock lapsed): this write is refused; theirs are newer`,
      );
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
    return this.#locks.run(
      hash,
      { lock: this.#key("lock", hash), stamp: this.#key("stamp", hash) },
      `${issuer} → ${resource}`,
      fn,
    );
  }

  /** Closes the connection if the store opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RedisTokenStore { prefix: ${JSON.stringify(this.#db.prefix)}, ${this.#sealer ? `encrypted, key id ${this.#sealer.kid}` : "plaintext"} }`;
  }
}
