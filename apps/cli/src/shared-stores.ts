// With MCP_REDIS_URL set, every command keeps tool lists and OAuth tokens in Redis instead of the
// user's folders (`@mcp/store-redis`), so gateway replicas, CI workers or several machines share
// them. Loaded only then: nothing of Redis is read otherwise.

import type { ToolCache } from "@mcp/manager";
import type { TokenStore } from "@mcp/oauth";
import type { SessionStore } from "./serve/sessions.js";

/** The stores of one Redis, and how to let go of it. */
export interface SharedStores {
  url: string;
  cache: ToolCache;
  tokens: TokenStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

/** The Redis stores named by `MCP_REDIS_URL` (keys under `MCP_REDIS_PREFIX`, default `mcp:`), or undefined. */
export async function sharedStores(env: NodeJS.ProcessEnv = process.env, onError?: (error: Error) => void): Promise<SharedStores | undefined> {
  const url = env["MCP_REDIS_URL"];
  if (!url) return undefined;
  const { connectRedis, RedisKeyValue, RedisTokenStore, RedisToolCache } = await import("@mcp/store-redis");
  // One connection for the three stores.
  const redis = connectRedis(url, { onError });
  const prefix = env["MCP_REDIS_PREFIX"] || "mcp:";
  return {
    url,
    // One principal behind every user of this Redis (the gateway's own credentials): private lists may be shared.
    cache: new RedisToolCache({ redis, prefix, sharePrivate: true }),
    tokens: new RedisTokenStore({ redis, prefix }),
    sessions: new RedisKeyValue({ redis, prefix, namespace: "gateway-sessions" }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
