// What is read from Redis is checked before anyone uses it: a malformed value is a miss, never a
// crash of the replica that reads it (against a real redis-server).
import { everythingEntry, startRedis, type TestRedis } from "mcp-test-utils";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisKeyValue, RedisRateLimits, RedisTokenStore, RedisToolCache } from "../src/index.js";

let redis: TestRedis;
let raw: Redis;
beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  await raw.quit();
  await redis.stop();
});
beforeEach(async () => {
  await raw.flushall();
});

const later = Date.now() + 3_600_000;

describe("RedisToolCache", () => {
  it.each([
    ["a null tool", { tools: [null], savedAt: 1, expiresAt: later }],
    ["a tool without a name", { tools: [{ inputSchema: { type: "object" } }], savedAt: 1, expiresAt: later }],
    [
      "a tool whose schema is a string",
      { tools: [{ name: "x", inputSchema: "object" }], savedAt: 1, expiresAt: later },
    ],
    ["tools that are not a list", { tools: { name: "x" }, savedAt: 1, expiresAt: later }],
    ["an unknown era", { tools: [], savedAt: 1, expiresAt: later, era: "1999" }],
    ["a cache scope that is not public or private", { tools: [], savedAt: 1, expiresAt: later, cacheScope: 3 }],
    ["freshUntil that is not a number", { tools: [], savedAt: 1, expiresAt: later, freshUntil: "soon" }],
    ["an array", [1, 2]],
    ["null", null],
  ])("an entry with %s is a miss", async (_what, value) => {
    const cache = new RedisToolCache({ redis: raw });
    await raw.set("mcp:tools:srv:bad", JSON.stringify(value));
    expect(await cache.get("srv:bad")).toBeUndefined();
  });

  it('a replica whose cache holds {"tools":[null]} for its server still starts it and lists its live tools', async () => {
    const config = { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } };
    // A first replica fills the cache; then its entry is damaged.
    const first = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: new RedisToolCache({ redis: raw }) });
    await first.connectServers(config);
    await first.startServers();
    await first.disconnectAll();
    const keys = await raw.keys("mcp:tools:*");
    expect(keys.length).toBe(1);
    await raw.set(keys[0]!, JSON.stringify({ tools: [null], savedAt: Date.now(), expiresAt: later }), "PX", 60_000);
    const manager = new MCPManager({
      pins: { store: new MemoryPinStore() },
      cache: new RedisToolCache({ redis: raw }),
    });
    try {
      await manager.connectServers(config);
      await manager.startServers();
      expect(manager.getConnectionStatus("everything")?.state).toBe("connected");
      expect(manager.getTools().map((t) => t.toolName)).toContain("echo");
    } finally {
      await manager.disconnectAll();
    }
  }, 30_000);
});

describe("RedisTokenStore", () => {
  it.each([
    [
      "an access token that is a number",
      { issuer: "https://as", resource: "https://mcp", tokens: { accessToken: 5, tokenType: "Bearer" } },
    ],
    ["tokens without a type", { issuer: "https://as", resource: "https://mcp", tokens: { accessToken: "a" } }],
    [
      "an expiry that is a string",
      {
        issuer: "https://as",
        resource: "https://mcp",
        tokens: { accessToken: "a", tokenType: "Bearer", expiresAt: "tomorrow" },
      },
    ],
    [
      "a client without an id",
      { issuer: "https://as", resource: "https://mcp", client: { tokenEndpointAuthMethod: "none" } },
    ],
    ["a DPoP key that is a string", { issuer: "https://as", resource: "https://mcp", dpopKey: "key" }],
    ["another resource's record", { issuer: "https://as", resource: "https://elsewhere" }],
    ["no issuer", { resource: "https://mcp" }],
    ["a list", [{ issuer: "https://as", resource: "https://mcp" }]],
  ])("a record with %s is a miss (get and find)", async (_what, value) => {
    const store = new RedisTokenStore({ redis: raw, plaintext: true, onWarning: () => {} });
    // Written as a valid record first, so the keys are where the store looks.
    await store.set({ issuer: "https://as", resource: "https://mcp" });
    const [cred] = await raw.keys("mcp:oauth:cred:*");
    await raw.set(cred!, JSON.stringify(value));
    expect(await store.get("https://as", "https://mcp")).toBeUndefined();
    expect(await store.find("https://mcp")).toBeUndefined();
  });
});

describe("RedisKeyValue", () => {
  it("with a validator, a value it refuses is a miss", async () => {
    const isCaller = (value: unknown): value is { caller: string } =>
      typeof value === "object" && value !== null && typeof (value as { caller?: unknown }).caller === "string";
    const sessions = new RedisKeyValue<{ caller: string }>({ redis: raw, namespace: "sessions", validate: isCaller });
    await sessions.set("good", { caller: "alice" }, 60_000);
    await raw.set("mcp:sessions:bad", JSON.stringify({ caller: 42 }));
    await raw.set("mcp:sessions:null", "null");
    expect(await sessions.get("good")).toEqual({ caller: "alice" });
    expect(await sessions.get("bad")).toBeUndefined();
    expect(await sessions.get("null")).toBeUndefined();
  });
});

describe("RedisRateLimits", () => {
  it("a key of another type (a string) is replaced by a full bucket: the limit holds (2 of 4 pass at 2/min)", async () => {
    const rates = new RedisRateLimits({ redis: raw });
    await raw.set("mcp:rate:bucket", "full");
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push((await rates.take("bucket", 2 / 60, 2)).ok);
    expect(taken).toEqual([true, true, false, false]);
    expect(await raw.type("mcp:rate:bucket")).toBe("hash");
  });
});
