// Rate limits per caller: a token bucket per caller and rule, in memory or in a shared store (one
// bucket for every replica). Only requests that do work upstream are counted: tools/call,
// prompts/get, resources/read and completion/complete — not the handshake, pings or lists.

import { ProtocolError } from "@modelcontextprotocol/server";
import { matches, type Caller, type RateRule } from "./policy.js";

/** What a bucket says when asked for a token. */
export type Take = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Where buckets live: `take` refills the bucket `key` at `perSecond` up to `burst`, then takes one
 * token if there is one (atomically, for a store several replicas share). `RedisRateLimits` of
 * `@mcp/store-redis` is one. A failure whose error has `unreachable: true` (the store did not
 * answer) lets requests through; any other failure refuses the request.
 */
export interface RateLimitStore {
  take(key: string, perSecond: number, burst: number): Promise<Take>;
}

/** Buckets in this process's memory. */
export class MemoryRateLimits implements RateLimitStore {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  take(key: string, perSecond: number, burst: number): Promise<Take> {
    const now = Date.now();
    const bucket = this.#buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return Promise.resolve({ ok: true });
    }
    return Promise.resolve({ ok: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) / perSecond) * 1000) });
  }
}

/** The JSON-RPC error code of a request refused for its caller's limits; outside JSON-RPC's reserved range. */
export const LIMITED = 429;

/** A request refused by its caller's rate: says when to try again. */
export function rateLimited(caller: Caller, rule: RateRule, retryAfterMs: number): ProtocolError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ProtocolError(
    LIMITED,
    `Rate limit of caller "${caller.name}" reached (${rule.text}${rule.pattern === "*" ? "" : ` for ${rule.pattern}`}); try again in ${seconds} s`,
    { reason: "rate", retryAfterMs, limit: rule.text, pattern: rule.pattern },
  );
}

/** The rate limits of a gateway's callers. */
export class RateLimiter {
  readonly #store: RateLimitStore;
  readonly #warn: (message: string) => void;
  #failing = false;

  constructor(store: RateLimitStore, warn: (message: string) => void) {
    this.#store = store;
    this.#warn = warn;
  }

  /**
   * Takes a token for one request of `caller` (naming `target`, a tool or prompt, when it has one)
   * from every bucket whose rule applies; throws the refusal when one is empty. A store that cannot
   * be reached lets the request through (said once): a limit must not take the gateway down with
   * its store. A store that answers with an error refuses the request (error `-32603`): no error of
   * the store's turns the limit off.
   */
  async check(caller: Caller, target: { server: string; name: string } | undefined): Promise<void> {
    const rules = caller.rates;
    if (!rules) return;
    for (const rule of rules) {
      if (rule.pattern !== "*" && !(target && matches(rule.pattern, target.server, target.name, false))) continue;
      let taken: Take;
      try {
        taken = await this.#store.take(`${caller.id}\n${rule.pattern}`, rule.perSecond, rule.burst);
        this.#failing = false;
      } catch (error) {
        if ((error as { unreachable?: unknown } | undefined)?.unreachable !== true) {
          this.#warn(
            `rate limits: the store answered with an error (${(error as Error).message}); the request is refused`,
          );
          throw new ProtocolError(
            -32603,
            `Rate limit of caller "${caller.name}" could not be checked; try again later`,
            { reason: "rate-store" },
          );
        }
        if (!this.#failing)
          this.#warn(
            `rate limits: the store cannot be reached (${(error as Error).message}); requests go through unlimited until it answers`,
          );
        this.#failing = true;
        continue;
      }
      if (!taken.ok) throw rateLimited(caller, rule, taken.retryAfterMs);
    }
  }
}
