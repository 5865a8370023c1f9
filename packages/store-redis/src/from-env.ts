// `storesFromEnv()`: the stores of the Redis that MCP_REDIS_URL names, configured from the environment
// as every replica (a gateway, the `mcp` CLI, a CI worker) reads it. OAuth tokens there are encrypted
// with the key of MCP_REDIS_KEY (or the file MCP_REDIS_KEY_FILE); without one, tokens go into Redis
// only when MCP_REDIS_PLAINTEXT_TOKENS=1 says they may go unencrypted.
import { readFile } from "node:fs/promises";
import { closeRedis, connectRedis } from "./connection.js";
import { RedisKeyValue } from "./key-value.js";
import { RedisPinStore } from "./pin-store.js";
import { RedisRateLimits } from "./rate-limits.js";
import { parseRedisKey, RedisKeyError } from "./sealed.js";
import { RedisTokenStore } from "./token-store.js";
import { RedisToolCache } from "./tool-cache.js";

/** The stores of one Redis, sharing one connection, and how to let go of it. */
export interface RedisStores {
  /** The Redis they use (MCP_REDIS_URL). */
  url: string;
  /** The manager's tool cache; private lists are shared (one principal, the replicas' own credentials, behind every user of this Redis). */
  cache: RedisToolCache;
  /** OAuth credentials, encrypted unless MCP_REDIS_PLAINTEXT_TOKENS=1 and no key. */
  tokens: RedisTokenStore;
  /** Tool pins: what one replica (or an admin's CLI) approves, every replica serves. */
  pins: RedisPinStore;
  /** A gateway's 2025-era sessions (namespace `gateway-sessions`; the gateway checks what it reads back), so any replica serves a session's next request. */
  sessions: RedisKeyValue<unknown>;
  /** Callers' rate-limit buckets, one for every replica. */
  rates: RedisRateLimits;
  /** A gateway's per-user upstream consents (namespace `gateway-consent`): values the gateway sealed (AES-256-GCM) before writing, so any replica's callback completes a consent another started. */
  consent: RedisKeyValue<string>;
  /** Closes the connection; at once if Redis does not answer, so a blocked Redis does not hold up a shutdown. */
  close(): Promise<void>;
}

/** Options of {@link storesFromEnv}. */
export interface StoresFromEnvOptions {
  /** A command that failed or a connection problem (each told once until Redis works again). */
  onError?: ((error: Error) => void) | undefined;
  /** What the token store wants a person to know (a record encrypted with another key, unencrypted records). */
  onWarning?: ((message: string) => void) | undefined;
}

const MAKE_ONE = "make one with `openssl rand -base64 32` (the same on every replica)";

/** Whether an environment flag is on (`1`, `true`, `yes`). */
function on(value: string | undefined): boolean {
  return /^(?:1|true|yes)$/i.test(value ?? "");
}

/** The key of MCP_REDIS_KEY or of the file MCP_REDIS_KEY_FILE (32 bytes as base64 or hex), or undefined when neither is set. */
async function keyFromEnv(env: Readonly<Record<string, string | undefined>>): Promise<Uint8Array | undefined> {
  const text = env["MCP_REDIS_KEY"];
  const file = env["MCP_REDIS_KEY_FILE"];
  if (text && file) throw new RedisKeyError("MCP_REDIS_KEY and MCP_REDIS_KEY_FILE are both set: set one");
  if (text) return parseRedisKey(text, "MCP_REDIS_KEY");
  if (!file) return undefined;
  const content = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RedisKeyError(`MCP_REDIS_KEY_FILE: cannot read ${file} (${error.code ?? error.message})`, {
      cause: error,
    });
  });
  return parseRedisKey(content, `the key in MCP_REDIS_KEY_FILE (${file})`);
}

/**
 * The Redis stores `MCP_REDIS_URL` names, or undefined when it is not set (nothing connects then).
 * Keys go under `MCP_REDIS_PREFIX` (default `mcp:`); OAuth tokens are encrypted with the key of
 * `MCP_REDIS_KEY` or of the file `MCP_REDIS_KEY_FILE`. Throws {@link RedisKeyError}, before
 * connecting, when both are set, the file cannot be read, the key is not 32 bytes (the key is never
 * repeated), or there is no key and `MCP_REDIS_PLAINTEXT_TOKENS` is not `1`: tokens are not kept
 * unencrypted unless asked.
 *
 * @example
 * const stores = await storesFromEnv();
 * const manager = new MCPManager({ cache: stores?.cache, ...(stores ? { oauth: { store: stores.tokens }, pins: { store: stores.pins } } : {}) });
 */
export async function storesFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: StoresFromEnvOptions = {},
): Promise<RedisStores | undefined> {
  const url = env["MCP_REDIS_URL"];
  if (!url) return undefined;
  const key = await keyFromEnv(env);
  if (key === undefined && !on(env["MCP_REDIS_PLAINTEXT_TOKENS"])) {
    throw new RedisKeyError(
      `MCP_REDIS_URL is set: OAuth tokens kept in Redis are encrypted, and there is no key. Set MCP_REDIS_KEY to 32 bytes in base64 or hex (${MAKE_ONE}), or MCP_REDIS_KEY_FILE to a file holding it. To keep tokens in Redis unencrypted instead, readable by anyone who can read the Redis, set MCP_REDIS_PLAINTEXT_TOKENS=1.`,
    );
  }
  const { onError, onWarning } = options;
  const redis = connectRedis(url, { onError });
  const prefix = env["MCP_REDIS_PREFIX"] || "mcp:";
  return {
    url,
    cache: new RedisToolCache({ redis, prefix, sharePrivate: true, onError }),
    tokens: new RedisTokenStore({
      redis,
      prefix,
      onError,
      ...(key ? { key } : { plaintext: true }),
      ...(onWarning ? { onWarning } : {}),
    }),
    pins: new RedisPinStore({ redis, prefix, onError }),
    sessions: new RedisKeyValue<unknown>({ redis, prefix, namespace: "gateway-sessions", onError }),
    rates: new RedisRateLimits({ redis, prefix, onError }),
    consent: new RedisKeyValue<string>({
      redis,
      prefix,
      namespace: "gateway-consent",
      onError,
      validate: (value): value is string => typeof value === "string",
    }),
    close: () => closeRedis(redis),
  };
}
