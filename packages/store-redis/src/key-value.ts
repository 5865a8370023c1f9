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

// KEYS[1] the group (a sorted set of keys by when they were set), KEYS[2] the value's key; ARGV the
// key, the value, its time to live, the group's cap, the values' key prefix. Members whose value is
// gone (expired, deleted) leave the group; past the cap, the oldest are deleted. Returns them.
const SET_CAPPED = `
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', ARGV[5] .. m) == 0 then redis.call('ZREM', KEYS[1], m) end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[1])
local evicted = {}
while redis.call('ZCARD', KEYS[1]) > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[1])[1]
  if oldest == ARGV[1] then redis.call('ZADD', KEYS[1], now + 1, oldest) else
    redis.call('DEL', ARGV[5] .. oldest)
    table.insert(evicted, oldest)
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return evicted
`;

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
    await this.#db.run(`${this.#namespace} set`, (r) =>
      r.set(this.#key(key), JSON.stringify(value), "PX", Math.max(1, Math.floor(ttlMs))),
    );
  }

  /**
   * Saves `value` as {@link set} does, as a member of `group`, which holds at most `cap` values
   * for every process on this Redis: past it the oldest members (by when they were set) are
   * deleted, atomically with this save. Resolves to the keys deleted.
   */
  async setCapped(key: string, value: T, ttlMs: number, group: string, cap: number): Promise<string[]> {
    const ttl = Math.max(1, Math.floor(ttlMs));
    const groupKey = `${this.#db.prefix}${this.#namespace}-group:${group}`;
    const evicted = await this.#db.run(`${this.#namespace} set`, (r) =>
      r.eval(
        SET_CAPPED,
        2,
        groupKey,
        this.#key(key),
        key,
        JSON.stringify(value),
        ttl,
        Math.max(1, Math.floor(cap)),
        this.#key(""),
      ),
    );
    return Array.isArray(evicted) ? evicted.map(String) : [];
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
