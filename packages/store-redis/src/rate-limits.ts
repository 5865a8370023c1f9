// Rate-limit buckets on Redis: one token bucket per key for every replica of a gateway (the
// `RateLimitStore` of `@mcp/gateway`, which this package does not import at run time; the compiler
// checks the fit in test/contracts.test.ts). Refill and take happen in one script, on Redis's clock, so replicas whose clocks
// differ still share one bucket exactly.

import { RedisConnection, type RedisStoreOptions } from "./connection.js";

/** What a bucket says when asked for a token. */
export type RateTake = { ok: true } | { ok: false; retryAfterMs: number };

// KEYS[1] the bucket (a hash: tokens, at); ARGV perSecond, burst. Returns { 1 } or { 0, retryAfterMs }.
// A key of another type, or a bucket whose fields are not numbers, is replaced by a full bucket:
// a damaged bucket never turns the limit off.
const TAKE = `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'hash' then redis.call('DEL', KEYS[1]) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil or tokens ~= tokens or at ~= at then tokens = burst; at = now end
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
if ok == 1 then return {1} end
return {0, math.ceil((1 - tokens) / rate * 1000)}
`;

/** Token buckets under `<prefix>rate:`, shared by every process that uses this Redis. */
export class RedisRateLimits {
  readonly #db: RedisConnection;

  constructor(options: RedisStoreOptions) {
    this.#db = new RedisConnection(options);
  }

  /** Refills bucket `key` at `perSecond` up to `burst`, then takes a token if there is one. */
  async take(key: string, perSecond: number, burst: number): Promise<RateTake> {
    const answer = (await this.#db.run("rate take", (r) =>
      r.eval(TAKE, 1, `${this.#db.prefix}rate:${key}`, perSecond, burst),
    )) as [number, number?];
    return answer[0] === 1 ? { ok: true } : { ok: false, retryAfterMs: Number(answer[1] ?? 1000) };
  }

  /** Closes the connection if the store opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }
}
