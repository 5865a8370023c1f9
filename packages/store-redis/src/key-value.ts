// Small keyed JSON state with a time to live, on Redis: what a gateway keeps per 2025-era session
// (who opened it, with what capabilities) so any replica can serve the session's next request.

import { parseJson, RedisConnection, type RedisStoreOptions } from "./connection.js";

/** A keyed store of JSON values that expire. */
export interface KeyValueStore<T> {
  get(key: string): Promise<T | undefined>;
  /** Saves `value`; it expires `ttlMs` after the last `set` (or `touch`). */
  set(key: string, value: T, ttlMs: number): Promise<void>;
  /** Keeps an entry `ttlMs` longer. */
  touch(key: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** {@link KeyValueStore} on Redis, under `<prefix><namespace>:`. */
export class RedisKeyValue<T> implements KeyValueStore<T> {
  readonly #db: RedisConnection;
  readonly #namespace: string;

  constructor(options: RedisStoreOptions & { namespace: string }) {
    this.#db = new RedisConnection(options);
    this.#namespace = options.namespace;
  }

  #key(key: string): string {
    return `${this.#db.prefix}${this.#namespace}:${key}`;
  }

  async get(key: string): Promise<T | undefined> {
    return parseJson<T>(await this.#db.run(`${this.#namespace} get`, (r) => r.get(this.#key(key))));
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    await this.#db.run(`${this.#namespace} set`, (r) => r.set(this.#key(key), JSON.stringify(value), "PX", Math.max(1, Math.floor(ttlMs))));
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    await this.#db.run(`${this.#namespace} touch`, (r) => r.pexpire(this.#key(key), Math.max(1, Math.floor(ttlMs))));
  }

  async delete(key: string): Promise<void> {
    await this.#db.run(`${this.#namespace} delete`, (r) => r.del(this.#key(key)));
  }

  /** Closes the connection if the store opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }
}
