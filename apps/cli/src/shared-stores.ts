// With MCP_REDIS_URL set, every command keeps tool lists and OAuth tokens in Redis instead of the
// user's folders (`@mcp/store-redis`'s storesFromEnv), so gateway replicas, CI workers or several
// machines share them. Loaded only then: nothing of Redis is read otherwise.

import type { RedisStores } from "@mcp/store-redis";
import { CliError, EXIT, warn } from "./ui.js";

/** The stores of one Redis, and how to let go of it (@mcp/store-redis's; the gateway and the manager check them where they take them). */
export type SharedStores = RedisStores;

/**
 * The Redis stores named by `MCP_REDIS_URL` (@mcp/store-redis's `storesFromEnv`), or undefined;
 * the package is loaded only when the variable is set. A usage error when the key cannot be had,
 * or when tokens would go unencrypted without MCP_REDIS_PLAINTEXT_TOKENS=1.
 */
export async function sharedStores(
  env: NodeJS.ProcessEnv = process.env,
  onError?: (error: Error) => void,
): Promise<SharedStores | undefined> {
  if (!env["MCP_REDIS_URL"]) return undefined;
  const { RedisKeyError, storesFromEnv } = await import("@mcp/store-redis");
  try {
    return await storesFromEnv(env, { onError, onWarning: (message) => warn(`Redis (MCP_REDIS_URL): ${message}`) });
  } catch (error) {
    if (!(error instanceof RedisKeyError)) throw error;
    // No key at all: `mcp serve` users have a flag for the way out.
    const noKey = !env["MCP_REDIS_KEY"] && !env["MCP_REDIS_KEY_FILE"];
    throw new CliError(
      noKey ? error.message.replace(/\.$/, " (mcp serve: --redis-plaintext-tokens).") : error.message,
      EXIT.usage,
    );
  }
}
