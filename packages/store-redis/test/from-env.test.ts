// storesFromEnv: MCP_REDIS_URL and its companions → the stores, against a real redis-server. Tokens
// go into Redis only encrypted with MCP_REDIS_KEY / MCP_REDIS_KEY_FILE, or unencrypted when
// MCP_REDIS_PLAINTEXT_TOKENS=1 says so; otherwise a RedisKeyError says what to do, before connecting.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoredCredentials } from "@mcp/oauth";
import { startRedis, type TestRedis } from "mcp-test-utils";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisKeyError, RedisTokenStore, storesFromEnv, type RedisStores } from "../src/index.js";

let redis: TestRedis;
let raw: Redis;
let dir: string;
beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
  dir = mkdtempSync(join(tmpdir(), "stores-from-env-"));
});
afterAll(async () => {
  await raw.quit();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await raw.flushall();
});

const KEY = randomBytes(32).toString("base64");
const credentials: StoredCredentials = {
  issuer: "https://as.example",
  resource: "https://mcp.example/mcp",
  client: { clientId: "client-1", tokenEndpointAuthMethod: "none" },
  tokens: { accessToken: "SECRET-ACCESS-TOKEN", tokenType: "Bearer", expiresAt: Date.now() + 60_000 },
};

/** The stores for `env`, closed after `use`. */
async function withStores(env: Record<string, string>, use: (stores: RedisStores) => Promise<void>): Promise<void> {
  const stores = await storesFromEnv(env);
  expect(stores).toBeDefined();
  try {
    await use(stores!);
  } finally {
    await stores!.close();
  }
}

describe("storesFromEnv", () => {
  it("is undefined without MCP_REDIS_URL", async () => {
    expect(await storesFromEnv({ MCP_REDIS_KEY: KEY })).toBeUndefined();
  });

  it("without a key, refuses and says how to make one; MCP_REDIS_PLAINTEXT_TOKENS=1 keeps tokens unencrypted", async () => {
    const refused = await storesFromEnv({ MCP_REDIS_URL: redis.url }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RedisKeyError);
    expect((refused as Error).message).toMatch(/MCP_REDIS_KEY/);
    expect((refused as Error).message).toMatch(/openssl rand -base64 32/);
    expect((refused as Error).message).toMatch(/MCP_REDIS_PLAINTEXT_TOKENS=1/);
    await withStores({ MCP_REDIS_URL: redis.url, MCP_REDIS_PLAINTEXT_TOKENS: "1" }, async (stores) => {
      expect(stores.url).toBe(redis.url);
      await stores.tokens.set(credentials);
    });
    const [cred] = await raw.keys("mcp:oauth:cred:*");
    expect(await raw.get(cred!)).toContain("SECRET-ACCESS-TOKEN");
  });

  it("MCP_REDIS_KEY that is not 32 bytes is refused, never shown; one in MCP_REDIS_KEY_FILE is read; both at once, or a file it cannot read, are refused", async () => {
    const bad = storesFromEnv({ MCP_REDIS_URL: redis.url, MCP_REDIS_KEY: "hunter2-not-a-key" });
    await expect(bad).rejects.toThrow(RedisKeyError);
    await expect(bad).rejects.toThrow(/MCP_REDIS_KEY must be 32 bytes/);
    await expect(bad).rejects.not.toThrow(/hunter2/);
    const file = join(dir, "redis.key");
    writeFileSync(file, `${KEY}\n`);
    await withStores({ MCP_REDIS_URL: redis.url, MCP_REDIS_KEY_FILE: file }, async (stores) => {
      await stores.tokens.set(credentials);
    });
    // Encrypted with the file's key: readable with it, not in Redis.
    const [cred] = await raw.keys("mcp:oauth:cred:*");
    expect(await raw.get(cred!)).toContain('"enc":"A256GCM"');
    expect(await raw.get(cred!)).not.toContain("SECRET-ACCESS-TOKEN");
    expect((await new RedisTokenStore({ redis: raw, key: KEY }).find(credentials.resource))?.tokens?.accessToken).toBe(
      "SECRET-ACCESS-TOKEN",
    );
    await expect(
      storesFromEnv({ MCP_REDIS_URL: redis.url, MCP_REDIS_KEY_FILE: join(dir, "nowhere.key") }),
    ).rejects.toThrow(/MCP_REDIS_KEY_FILE: cannot read .*nowhere\.key \(ENOENT\)/);
    await expect(
      storesFromEnv({ MCP_REDIS_URL: redis.url, MCP_REDIS_KEY_FILE: file, MCP_REDIS_KEY: KEY }),
    ).rejects.toThrow(/both set/);
  });

  it("keeps every store under MCP_REDIS_PREFIX on one connection", async () => {
    await withStores({ MCP_REDIS_URL: redis.url, MCP_REDIS_KEY: KEY, MCP_REDIS_PREFIX: "fleet:" }, async (stores) => {
      await stores.tokens.set(credentials);
      await stores.cache.set("server-a", {
        tools: [{ name: "echo", inputSchema: { type: "object" } }],
        savedAt: Date.now(),
        expiresAt: Date.now() + 60_000,
      });
      expect((await stores.cache.get("server-a"))?.tools).toEqual([{ name: "echo", inputSchema: { type: "object" } }]);
      await stores.sessions.set("session-1", { caller: "ada" }, 60_000);
      expect(await stores.sessions.get("session-1")).toEqual({ caller: "ada" });
      await stores.consent.set("consent-state:s1", "v1.sealed", 60_000);
      expect(await stores.consent.get("consent-state:s1")).toBe("v1.sealed");
      await stores.consent.delete("consent-state:s1");
      expect(await stores.consent.get("consent-state:s1")).toBeUndefined();
      await stores.consent.set("consent-token:up\nada", "v1.sealed", 60_000);
    });
    const keys = await raw.keys("*");
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(keys.filter((key) => !key.startsWith("fleet:"))).toEqual([]);
    expect(keys).toContain("fleet:gateway-sessions:session-1");
    expect(keys).toContain("fleet:gateway-consent:consent-token:up\nada");
  });
});
