// With MCP_REDIS_URL set, every command keeps tool lists and OAuth tokens in Redis instead of the
// user's folders (`@mcp/store-redis`), so gateway replicas, CI workers or several machines share
// them. Loaded only then: nothing of Redis is read otherwise. OAuth tokens there are encrypted
// with the key of MCP_REDIS_KEY (or the file MCP_REDIS_KEY_FILE); without one the CLI refuses to
// keep tokens in Redis unless MCP_REDIS_PLAINTEXT_TOKENS=1 (`mcp serve --redis-plaintext-tokens`)
// says they may go unencrypted.

import { readFile } from "node:fs/promises";
import type { PinStore, ToolCache } from "@mcp/manager";
import type { TokenStore } from "@mcp/oauth";
import type { RateLimitStore, SessionStore } from "@mcp/gateway";
import { CliError, EXIT, warn } from "./ui.js";

/** The stores of one Redis, and how to let go of it. */
export interface SharedStores {
  url: string;
  cache: ToolCache;
  tokens: TokenStore;
  /** Tool pins: what `mcp pins approve` approves is what every replica serves. */
  pins: PinStore;
  sessions: SessionStore;
  /** Callers' rate-limit buckets, one for every replica. */
  rates: RateLimitStore;
  close(): Promise<void>;
}

const MAKE_ONE = "make one with `openssl rand -base64 32` (the same on every replica)";

/** Whether an environment flag is on (`1`, `true`, `yes`). */
function on(value: string | undefined): boolean {
  return /^(?:1|true|yes)$/i.test(value ?? "");
}

/**
 * The key OAuth tokens are encrypted with in Redis: the text of MCP_REDIS_KEY or of the file
 * MCP_REDIS_KEY_FILE (32 bytes as base64 or hex), or undefined when neither is set.
 */
async function redisKey(env: NodeJS.ProcessEnv, parse: (text: string, where: string) => Uint8Array): Promise<Uint8Array | undefined> {
  const text = env["MCP_REDIS_KEY"];
  const file = env["MCP_REDIS_KEY_FILE"];
  if (text && file) throw new CliError("MCP_REDIS_KEY and MCP_REDIS_KEY_FILE are both set: set one", EXIT.usage);
  try {
    if (text) return parse(text, "MCP_REDIS_KEY");
    if (file) {
      const content = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new CliError(`MCP_REDIS_KEY_FILE: cannot read ${file} (${error.code ?? error.message})`, EXIT.usage);
      });
      return parse(content, `the key in MCP_REDIS_KEY_FILE (${file})`);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message, EXIT.usage);
  }
  return undefined;
}

/**
 * The Redis stores named by `MCP_REDIS_URL` (keys under `MCP_REDIS_PREFIX`, default `mcp:`), or
 * undefined. A usage error when tokens would go unencrypted without MCP_REDIS_PLAINTEXT_TOKENS=1,
 * or when the key is not a key.
 */
export async function sharedStores(env: NodeJS.ProcessEnv = process.env, onError?: (error: Error) => void): Promise<SharedStores | undefined> {
  const url = env["MCP_REDIS_URL"];
  if (!url) return undefined;
  const { closeRedis, connectRedis, parseRedisKey, RedisKeyValue, RedisPinStore, RedisRateLimits, RedisTokenStore, RedisToolCache } = await import("@mcp/store-redis");
  const key = await redisKey(env, parseRedisKey);
  if (key === undefined && !on(env["MCP_REDIS_PLAINTEXT_TOKENS"])) {
    throw new CliError(
      `MCP_REDIS_URL is set: OAuth tokens kept in Redis are encrypted, and there is no key. Set MCP_REDIS_KEY to 32 bytes in base64 or hex (${MAKE_ONE}), or MCP_REDIS_KEY_FILE to a file holding it. To keep tokens in Redis unencrypted instead, readable by anyone who can read the Redis, set MCP_REDIS_PLAINTEXT_TOKENS=1 (mcp serve: --redis-plaintext-tokens).`,
      EXIT.usage,
    );
  }
  // One connection for the three stores.
  const redis = connectRedis(url, { onError });
  const prefix = env["MCP_REDIS_PREFIX"] || "mcp:";
  return {
    url,
    // One principal behind every user of this Redis (the gateway's own credentials): private lists may be shared.
    cache: new RedisToolCache({ redis, prefix, sharePrivate: true, onError }),
    tokens: new RedisTokenStore({ redis, prefix, onError, ...(key ? { key } : { plaintext: true }), onWarning: (message) => warn(`Redis (MCP_REDIS_URL): ${message}`) }),
    pins: new RedisPinStore({ redis, prefix, onError }),
    sessions: new RedisKeyValue({ redis, prefix, namespace: "gateway-sessions", onError }),
    rates: new RedisRateLimits({ redis, prefix, onError }),
    // At once if Redis does not answer: a blocked Redis does not hold up the end of a command.
    close: () => closeRedis(redis),
  };
}
