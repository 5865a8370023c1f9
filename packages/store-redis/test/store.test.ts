// The stores against a real redis-server (Debian's package) on a free loopback port.
import { randomBytes } from "node:crypto";
import { everythingEntry, startAuthFixture, startRedis, type AuthFixture, type TestRedis } from "mcp-test-utils";
import { MCPManager, MemoryPinStore, type CachedTools } from "@mcp/manager";
import { followRedirectAuthorize, OAuthProvider } from "@mcp/oauth";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisKeyValue, RedisStoreError, RedisTokenStore, RedisToolCache } from "../src/index.js";

/** The key the tests encrypt credentials with. */
const key = randomBytes(32);
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

const entry = (over: Partial<CachedTools> = {}): CachedTools => ({
  tools: [{ name: "echo", inputSchema: { type: "object" } }],
  savedAt: Date.now(),
  expiresAt: Date.now() + 60_000,
  ...over,
});

describe("RedisToolCache", () => {
  it("keeps an entry until it expires, in Redis too; drops private lists unless told to share them", async () => {
    const cache = new RedisToolCache({ redis: redis.url, prefix: "t1:" });
    try {
      await cache.set("srv:abc", entry());
      expect((await cache.get("srv:abc"))?.tools[0]?.name).toBe("echo");
      const ttl = await raw.pttl("t1:tools:srv:abc");
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await cache.set("srv:old", entry({ expiresAt: Date.now() - 1 }));
      expect(await raw.exists("t1:tools:srv:old")).toBe(0);
      await cache.set("srv:private", entry({ cacheScope: "private" }));
      expect(await cache.get("srv:private")).toBeUndefined();
      const shared = new RedisToolCache({ redis: raw, prefix: "t1:", sharePrivate: true });
      await shared.set("srv:private", entry({ cacheScope: "private" }));
      expect(await cache.get("srv:private")).toBeDefined();
      await raw.set("t1:tools:srv:bad", "{not json");
      expect(await cache.get("srv:bad")).toBeUndefined();
      await cache.delete("srv:abc");
      expect(await cache.get("srv:abc")).toBeUndefined();
      // A client given by the caller stays open after close().
      await shared.close();
      expect(await raw.ping()).toBe("PONG");
    } finally {
      await cache.close();
    }
  });

  it("two managers sharing it: the second offers the server's tools from the first one's list before it starts", async () => {
    const config = { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } };
    const first = new MCPManager({
      pins: { store: new MemoryPinStore() },
      cache: new RedisToolCache({ redis: redis.url }),
    });
    await first.connectServers(config);
    await first.startServers();
    const live = first.getTools().map((t) => t.toolName);
    await first.disconnectAll();
    const secondCache = new RedisToolCache({ redis: redis.url });
    const second = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: secondCache });
    try {
      const offered = await second.addServers(config);
      expect(offered.length).toBe(live.length);
      expect(offered.every((t) => t.deferred)).toBe(true);
      expect(second.getConnectionStatus("everything")?.state).toBe("idle");
    } finally {
      await second.disconnectAll();
      await secondCache.close();
    }
  }, 30_000);

  it("an unreachable Redis fails the command with a RedisStoreError, not a hang", async () => {
    const cache = new RedisToolCache({ redis: "redis://127.0.0.1:1" });
    try {
      const started = Date.now();
      await expect(cache.get("x")).rejects.toBeInstanceOf(RedisStoreError);
      await expect(cache.get("x")).rejects.toThrow(/Redis tool cache get failed/);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await cache.close();
    }
  }, 30_000);
});

describe("RedisTokenStore", () => {
  let f: AuthFixture;
  beforeEach(async () => {
    // Each refresh token works once, and a refresh takes a while: replicas refreshing together would spend one twice.
    f = await startAuthFixture({ rotateRefresh: true, refreshDelayMs: 800 });
  });
  const refreshes = (): number => f.log.filter((l) => l.form.get("grant_type") === "refresh_token").length;
  const replica = (store: RedisTokenStore, margin?: number): OAuthProvider =>
    new OAuthProvider({
      serverUrl: f.mcpUrl,
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: followRedirectAuthorize(),
      store,
      ...(margin === undefined ? {} : { refreshMarginMs: margin }),
    });

  it("get, find, stamp and delete; nothing is printed", async () => {
    const store = new RedisTokenStore({ redis: redis.url, key });
    try {
      expect(await store.stamp("https://as", "https://mcp")).toBeUndefined();
      await store.set({
        issuer: "https://as",
        resource: "https://mcp",
        tokens: { accessToken: "secret-a", tokenType: "Bearer" },
      });
      expect((await store.get("https://as", "https://mcp"))?.tokens?.accessToken).toBe("secret-a");
      expect((await store.find("https://mcp"))?.issuer).toBe("https://as");
      expect(await store.stamp("https://as", "https://mcp")).toBe(1);
      await store.delete("https://as", "https://mcp");
      expect(await store.get("https://as", "https://mcp")).toBeUndefined();
      expect(await store.stamp("https://as", "https://mcp")).toBe(2);
      const { inspect } = await import("node:util");
      expect(inspect(store)).not.toContain("secret");
    } finally {
      await store.close();
    }
  });

  it("three replicas with an expired token refresh it once; all use the fresh token", async () => {
    const stores = [0, 1, 2].map(() => new RedisTokenStore({ redis: redis.url, key }));
    try {
      await replica(stores[0]!).authorizeNow();
      const saved = (await stores[0]!.find(f.mcpUrl))!;
      await stores[0]!.set({ ...saved, tokens: { ...saved.tokens!, expiresAt: Date.now() - 1000 } });
      const headers = await Promise.all(stores.map((s) => replica(s).headers()));
      expect(refreshes()).toBe(1);
      const fresh = `Bearer ${(await stores[1]!.find(f.mcpUrl))!.tokens!.accessToken}`;
      expect(headers.map((h) => h["authorization"])).toEqual([fresh, fresh, fresh]);
      expect(fresh).not.toBe(`Bearer ${saved.tokens!.accessToken}`);
      expect(await raw.keys("mcp:oauth:lock:*")).toEqual([]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("a token refreshed by one replica is used by the other on its next request, without a refresh of its own", async () => {
    const a = new RedisTokenStore({ redis: redis.url, key });
    const b = new RedisTokenStore({ redis: redis.url, key });
    try {
      const ours = replica(a);
      await ours.authorizeNow();
      const first = (await ours.headers())["authorization"];
      // The other replica refreshes (its margin makes any token due).
      const theirs = (await replica(b, 10 * 365 * 24 * 3600 * 1000).headers())["authorization"];
      expect(theirs).not.toBe(first);
      expect(refreshes()).toBe(1);
      expect((await ours.headers())["authorization"]).toBe(theirs);
      expect(refreshes()).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("RedisKeyValue", () => {
  it("sets with a time to live, touches, and deletes", async () => {
    const sessions = new RedisKeyValue<{ caller: string }>({ redis: redis.url, namespace: "sessions" });
    try {
      await sessions.set("s1", { caller: "alice" }, 200);
      expect(await sessions.get("s1")).toEqual({ caller: "alice" });
      await sessions.touch("s1", 60_000);
      expect(await raw.pttl("mcp:sessions:s1")).toBeGreaterThan(1000);
      await sessions.set("s2", { caller: "bob" }, 50);
      expect(await raw.pttl("mcp:sessions:s2")).toBeGreaterThan(0); // a time to live, not a forever key
      await expect.poll(() => sessions.get("s2")).toBeUndefined(); // Redis expired it
      await sessions.delete("s1");
      expect(await sessions.get("s1")).toBeUndefined();
    } finally {
      await sessions.close();
    }
  });
});
