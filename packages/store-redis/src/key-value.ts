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

/** Options of {@link RedisKeyValue}. */
export interface RedisKeyValueOptions<T> extends RedisStoreOptions {
  /** Keys are `<prefix><namespace>:<key>`. */
  namespace: string;
  /**
   * Checks a value read back: one it refuses (damaged, or written by someone else) is a miss, as
   * if the key were absent. Without it, any JSON value is returned as `T`.
   */
  validate?: ((value: unknown) => value is T) | undefined;
}

/** {@link KeyValueStore} on Redis, under `<prefix><namespace>:`. */
export class RedisKeyValue<T> implements KeyValueStore<T> {
  readonly #db: RedisConnection;
  readonly #namespace: string;
  readonly #validate: ((value: unknown) => value is T) | undefined;

  constructor(options: RedisKeyValueOptions<T>) {
    this.#db = new RedisConnection(options);
    this.#namespace = options.namespace;
    this.#validate = options.validate;
  }

  #key(key: string): string {
    return `${this.#db.prefix}${this.#namespace}:${key}`;
  }

  async get(key: string): Promise<T | undefined> {
    const value = parseJson(await this.#db.run(`${this.#namespace} get`, (r) => r.get(this.#key(key))));
    if (value === undefined || (this.#validate && !this.#validate(value))) return undefined;
    return value as T;
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
