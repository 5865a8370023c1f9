// The refresh lock on a real redis-server: renewed while its holder lives, so a refresh slower
// than the lock's time to live is still one refresh; expired when its holder died; and a write
// made under a lock that someone else's write overtook is refused (fenced by the stamp).
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startAuthFixture, startRedis, type AuthFixture, type TestRedis } from "mcp-test-utils";
import { followRedirectAuthorize, OAuthProvider } from "@mcp/oauth";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisStaleWriteError, RedisTokenStore } from "../src/index.js";

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
const stores: RedisTokenStore[] = [];
const store = (options: { lockTtlMs?: number } = {}): RedisTokenStore => {
  const made = new RedisTokenStore({ redis: redis.url, key, ...options });
  stores.push(made);
  return made;
};
beforeEach(async () => {
  await raw.flushall();
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

describe("a refresh slower than the lock's time to live", () => {
  let f: AuthFixture;
  beforeEach(async () => {
    // Each refresh token works once, and a refresh takes three times the lock's TTL.
    f = await startAuthFixture({ rotateRefresh: true, refreshDelayMs: 1_500 });
  });
  afterEach(() => f.stop());

  it("three replicas with a 500 ms lock and a 1.5 s refresh: one refresh, the refresh token spent once, all on the fresh token", async () => {
    const replicas = [0, 1, 2].map(() => store({ lockTtlMs: 500 }));
    const provider = (s: RedisTokenStore): OAuthProvider =>
      new OAuthProvider({
        serverUrl: f.mcpUrl,
        redirectUri: "http://127.0.0.1:1/callback",
        authorize: followRedirectAuthorize(),
        store: s,
      });
    await provider(replicas[0]!).authorizeNow();
    const saved = (await replicas[0]!.find(f.mcpUrl))!;
    await replicas[0]!.set({ ...saved, tokens: { ...saved.tokens!, expiresAt: Date.now() - 1000 } });
    const headers = await Promise.all(replicas.map((s) => provider(s).headers()));
    const presented = f.log
      .filter((l) => l.form.get("grant_type") === "refresh_token")
      .map((l) => l.form.get("refresh_token"));
    expect(presented).toEqual([saved.tokens!.refreshToken]);
    const fresh = `Bearer ${(await replicas[1]!.find(f.mcpUrl))!.tokens!.accessToken}`;
    expect(fresh).not.toBe(`Bearer ${saved.tokens!.accessToken}`);
    expect(headers.map((h) => h["authorization"])).toEqual([fresh, fresh, fresh]);
    expect(await raw.keys("mcp:oauth:lock:*")).toEqual([]);
  }, 30_000);
});

it("the lock outlives its time to live while its holder runs, and goes when it is done", async () => {
  // Renewed every 400 ms: a holder's event loop stalled for less than 800 ms (a loaded machine) keeps it.
  const holder = store({ lockTtlMs: 1200 });
  const other = store({ lockTtlMs: 1200 });
  let release!: () => void;
  let otherGotIt = false;
  const held = holder.lock("i", "r", () => new Promise<void>((resolve) => (release = resolve)));
  await expect.poll(() => raw.keys("mcp:oauth:lock:*")).toHaveLength(1);
  const [key] = (await raw.keys("mcp:oauth:lock:*")) as [string];
  // Another replica tries for it all along.
  const second = other.lock("i", "r", () => {
    otherGotIt = true;
    return Promise.resolve();
  });
  // Wait, by what Redis shows, for three renewals (each resets the key's TTL), past the TTL.
  let renewals = 0;
  for (let last = await raw.pttl(key); renewals < 3;) {
    await new Promise((r) => setTimeout(r, 5));
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    if (ttl > last) renewals++;
    last = ttl;
  }
  expect(otherGotIt).toBe(false);
  // The other gets it once the holder is done.
  release();
  await held;
  await second;
  expect(otherGotIt).toBe(true);
  expect(await raw.keys("mcp:oauth:lock:*")).toEqual([]);
});

it("a lock left by a holder that died (SIGKILL) expires after lockTtlMs", async () => {
  const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
  const code = `const { RedisTokenStore } = await import(${JSON.stringify(entry)});
    const store = new RedisTokenStore({ redis: ${JSON.stringify(redis.url)}, lockTtlMs: 300, plaintext: true });
    await store.lock("i", "r", () => { process.stdout.write("locked\\n"); return new Promise(() => {}); });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) =>
    child.stdout.on("data", (c: Buffer) => c.toString().includes("locked") && resolve()),
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  expect((await raw.keys("mcp:oauth:lock:*")).length).toBe(1);
  expect(await store({ lockTtlMs: 300 }).lock("i", "r", () => Promise.resolve("got it"))).toBe("got it");
});

it("a write under the lock is fenced by the stamp: refused when another process wrote since the lock was taken, accepted when nobody did", async () => {
  const creds = (accessToken: string) => ({
    issuer: "https://as",
    resource: "https://mcp",
    tokens: { accessToken, tokenType: "Bearer" },
  });
  const ours = store();
  const theirs = store();
  await ours.set(creds("old"));
  const lapse = async (): Promise<void> => void (await raw.del(...(await raw.keys("mcp:oauth:lock:*"))));
  const stale = ours.lock("https://as", "https://mcp", async () => {
    // Our lock lapses (a pause longer than its TTL), and another process takes it and writes.
    await lapse();
    await theirs.lock("https://as", "https://mcp", () => theirs.set(creds("theirs")));
    await ours.set(creds("ours"));
  });
  await expect(stale).rejects.toBeInstanceOf(RedisStaleWriteError);
  await expect(stale).rejects.toThrow(/written by another process/);
  expect((await ours.get("https://as", "https://mcp"))?.tokens?.accessToken).toBe("theirs");
  // Nobody wrote meanwhile: accepted even though the lock lapsed, and again after our own write.
  await ours.lock("https://as", "https://mcp", async () => {
    await lapse();
    await ours.set(creds("first"));
    await ours.set(creds("second"));
  });
  expect((await ours.get("https://as", "https://mcp"))?.tokens?.accessToken).toBe("second");
});
