// A blocked or stopped Redis costs a command its timeout, not a hang; while Redis keeps failing,
// commands fail at once; when it is back, they work again. The manager still starts its servers,
// and an OAuth provider keeps the token it holds. Against a real redis-server, stopped with
// SIGSTOP (connections open, nothing answered) or ended.
import { randomBytes } from "node:crypto";
import { everythingEntry, startAuthFixture, startRedis, type TestRedis } from "mcp-test-utils";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { followRedirectAuthorize, OAuthProvider } from "@mcp/oauth";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeRedis, connectRedis, RedisStoreError, RedisTokenStore, RedisToolCache } from "../src/index.js";

/** The key the tests encrypt credentials with. */
const key = randomBytes(32);
let redis: TestRedis;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  redis.resume();
  for (const close of closers.splice(0)) await close();
  await redis.stop();
});

/** The error a promise rejects with (the test fails if it resolves). */
async function failure(promise: Promise<unknown>): Promise<RedisStoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RedisStoreError);
  return error as RedisStoreError;
}

/** Runs `read` until it succeeds (Redis is back and the store noticed), giving up with the test's timeout. */
async function until<T>(read: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe.each([
  ["opened from a URL", (): Redis | string => redis.url],
  [
    "on a client given by the caller",
    (): Redis | string => {
      const client = new Redis(redis.url);
      closers.push(() => client.quit().catch(() => client.disconnect()));
      return client;
    },
  ],
])("a store %s", (_how, connection) => {
  it("with Redis blocked: the command times out, the next fail at once without waiting, and all work again once it answers", async () => {
    const cache = new RedisToolCache({ redis: connection(), commandTimeoutMs: 300 });
    closers.push(() => cache.close());
    expect(await cache.get("k")).toBeUndefined();
    redis.pause();
    const first = await failure(cache.get("k"));
    expect(first.unreachable).toBe(true);
    expect(first.message).toMatch(/tool cache get failed: no answer within 300 ms/);
    // Redis has not answered since: the next commands are not sent, so they cannot wait.
    const next = await failure(cache.set("k", { tools: [], savedAt: Date.now(), expiresAt: Date.now() + 60_000 }));
    expect(next.unreachable).toBe(true);
    expect(next.message).toMatch(/did not answer a moment ago/);
    redis.resume();
    await until(() => cache.set("k", { tools: [], savedAt: Date.now(), expiresAt: Date.now() + 60_000 }));
    expect((await cache.get("k"))?.tools).toEqual([]);
  });
});

it("with Redis ended: a command fails as unreachable, and the next at once", async () => {
  const cache = new RedisToolCache({ redis: redis.url });
  closers.push(() => cache.close());
  expect(await cache.get("k")).toBeUndefined();
  await redis.stop();
  expect((await failure(cache.get("k"))).unreachable).toBe(true);
  expect((await failure(cache.get("k"))).message).toMatch(/did not answer a moment ago|is not connected/);
});

it("a connection of connectRedis reports each failure once while Redis stays down, not once per reconnect attempt", async () => {
  const errors: string[] = [];
  const client = connectRedis(redis.url, { onError: (e) => errors.push(e.message) });
  closers.push(() => closeRedis(client));
  await client.ping();
  await redis.stop();
  // Wait for four reconnect attempts, each refused.
  await new Promise<void>((resolve) => {
    let attempts = 0;
    client.on("reconnecting", () => ++attempts === 4 && resolve());
  });
  expect(errors.length).toBeGreaterThan(0);
  expect(new Set(errors).size).toBe(errors.length);
});

it("a reply error of Redis itself is not taken for an unreachable Redis", async () => {
  const client = new Redis(redis.url);
  closers.push(() => client.quit());
  const cache = new RedisToolCache({ redis: client });
  await client.hset("mcp:tools:k", "a", "b");
  const error = await failure(cache.get("k"));
  expect(error.unreachable).toBe(false);
  expect(error.message).toMatch(/WRONGTYPE/);
  // And the store goes on sending commands.
  expect(await cache.get("other")).toBeUndefined();
});

it("a manager whose Redis cache is blocked still starts its servers and lists their tools", async () => {
  const cache = new RedisToolCache({ redis: redis.url, commandTimeoutMs: 300 });
  closers.push(() => cache.close());
  await cache.get("warm");
  redis.pause();
  const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache });
  try {
    await manager.connectServers({ everything: { command: process.execPath, args: [everythingEntry, "stdio"] } });
    await manager.startServers();
    expect(manager.getConnectionStatus("everything")?.state).toBe("connected");
    expect(manager.getTools().map((t) => t.toolName)).toContain("echo");
  } finally {
    await manager.disconnectAll();
  }
}, 30_000);

describe("an OAuth provider on a RedisTokenStore", () => {
  it("keeps sending the token it holds while Redis is blocked", async () => {
    const f = await startAuthFixture({});
    closers.push(() => f.stop());
    const store = new RedisTokenStore({ redis: redis.url, key, commandTimeoutMs: 300 });
    closers.push(() => store.close());
    const provider = new OAuthProvider({
      serverUrl: f.mcpUrl,
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: followRedirectAuthorize(),
      store,
    });
    await provider.authorizeNow();
    const before = (await provider.headers())["authorization"];
    expect(before).toMatch(/^Bearer /);
    redis.pause();
    expect((await provider.headers())["authorization"]).toBe(before);
    expect((await provider.headers())["authorization"]).toBe(before);
  });

  it("whose first read met a blocked Redis reads the credentials once Redis answers again", async () => {
    const f = await startAuthFixture({});
    closers.push(() => f.stop());
    const store = new RedisTokenStore({ redis: redis.url, key, commandTimeoutMs: 300 });
    closers.push(() => store.close());
    await new OAuthProvider({
      serverUrl: f.mcpUrl,
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: followRedirectAuthorize(),
      store,
    }).authorizeNow();
    const saved = (await store.find(f.mcpUrl))!.tokens!.accessToken;
    // A replica starting while Redis is blocked.
    const provider = new OAuthProvider({
      serverUrl: f.mcpUrl,
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: followRedirectAuthorize(),
      store,
    });
    redis.pause();
    await expect(provider.headers()).rejects.toBeInstanceOf(RedisStoreError);
    redis.resume();
    expect((await until(() => provider.headers()))["authorization"]).toBe(`Bearer ${saved}`);
  });
});
