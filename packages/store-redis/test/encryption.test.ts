// OAuth credentials at rest in Redis are encrypted (AES-256-GCM): nothing secret is readable in
// Redis, and a record that is not ours to read (another key, tampered with, moved to another
// key, left unencrypted by an earlier version) is a miss with a warning. Against a real redis-server.
import { randomBytes } from "node:crypto";
import { startRedis, type TestRedis } from "mcp-test-utils";
import type { StoredCredentials } from "@mcp/oauth";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseRedisKey, RedisKeyError, RedisTokenStore } from "../src/index.js";

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

const KEY = randomBytes(32);
const credentials = (resource = "https://mcp.example/mcp"): StoredCredentials => ({
  issuer: "https://as.example",
  resource,
  client: {
    clientId: "client-1",
    clientSecret: "SECRET-CLIENT-SECRET",
    tokenEndpointAuthMethod: "client_secret_basic",
  },
  tokens: {
    accessToken: "SECRET-ACCESS-TOKEN",
    refreshToken: "SECRET-REFRESH-TOKEN",
    tokenType: "DPoP",
    expiresAt: Date.now() + 60_000,
  },
  dpopKey: { kty: "EC", crv: "P-256", x: "public-x", y: "public-y", d: "SECRET-DPOP-PRIVATE-KEY" },
});
const SECRETS = ["SECRET-CLIENT-SECRET", "SECRET-ACCESS-TOKEN", "SECRET-REFRESH-TOKEN", "SECRET-DPOP-PRIVATE-KEY"];

/** Every value in Redis, as text. */
async function everything(): Promise<string> {
  const keys = await raw.keys("*");
  return (await Promise.all(keys.map(async (k) => `${k}=${await raw.get(k)}`))).join("\n");
}

/** A store with the given key (or, with null, none: plaintext), and the warnings it gives. */
function store(key: Uint8Array | string | null = KEY): { store: RedisTokenStore; warnings: string[] } {
  const warnings: string[] = [];
  const made = new RedisTokenStore({
    redis: raw,
    ...(key === null ? { plaintext: true } : { key }),
    onWarning: (m) => warnings.push(m),
  });
  return { store: made, warnings };
}

describe("with a key", () => {
  it("nothing secret is in Redis, and the store reads back what it wrote", async () => {
    const { store: s, warnings } = store();
    await s.set(credentials());
    const stored = await everything();
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
    expect(stored).toContain('"enc":"A256GCM"');
    expect((await s.get("https://as.example", "https://mcp.example/mcp"))?.tokens?.refreshToken).toBe(
      "SECRET-REFRESH-TOKEN",
    );
    expect((await s.find("https://mcp.example/mcp"))?.dpopKey?.d).toBe("SECRET-DPOP-PRIVATE-KEY");
    expect(warnings).toEqual([]);
  });

  it("a record written with another key is a miss with a warning that says so", async () => {
    await store(randomBytes(32)).store.set(credentials());
    const { store: s, warnings } = store();
    expect(await s.get("https://as.example", "https://mcp.example/mcp")).toBeUndefined();
    expect(await s.find("https://mcp.example/mcp")).toBeUndefined();
    expect(warnings.join("\n")).toMatch(/encrypted with another key/);
  });

  it("a tampered record, or one moved under another server's key, is a miss with a warning", async () => {
    const { store: s, warnings } = store();
    await s.set(credentials());
    const [key] = await raw.keys("mcp:oauth:cred:*");
    const envelope = JSON.parse((await raw.get(key!))!) as { data: string };
    const data = Buffer.from(envelope.data, "base64url");
    data[0] = data[0]! ^ 1;
    await raw.set(key!, JSON.stringify({ ...envelope, data: data.toString("base64url") }));
    expect(await s.get("https://as.example", "https://mcp.example/mcp")).toBeUndefined();
    expect(warnings.join("\n")).toMatch(/does not decrypt/);
    // Another server's intact record, copied over this one's: bound to its own key, it does not decrypt here.
    await s.set(credentials("https://other.example/mcp"));
    const other = (await raw.keys("mcp:oauth:cred:*")).find((k) => k !== key)!;
    await raw.set(key!, (await raw.get(other))!);
    expect(await s.find("https://mcp.example/mcp")).toBeUndefined();
    expect((await s.find("https://other.example/mcp"))?.resource).toBe("https://other.example/mcp");
  });

  it("an unencrypted record (an earlier version's) is a miss with a warning; the next write stores it encrypted", async () => {
    await store(null).store.set(credentials());
    expect(await everything()).toContain("SECRET-REFRESH-TOKEN");
    const { store: s, warnings } = store();
    expect(await s.find("https://mcp.example/mcp")).toBeUndefined();
    expect(warnings.join("\n")).toMatch(/unencrypted/);
    await s.set(credentials());
    expect(await everything()).not.toContain("SECRET-REFRESH-TOKEN");
    expect(await s.find("https://mcp.example/mcp")).toBeDefined();
  });

  it("warnings never carry a secret, and one is given once per record and reason", async () => {
    await store(null).store.set(credentials());
    const { store: s, warnings } = store();
    for (let i = 0; i < 3; i++) await s.find("https://mcp.example/mcp");
    expect(warnings.length).toBe(1);
    for (const secret of SECRETS) expect(warnings.join("\n")).not.toContain(secret);
  });
});

describe("without a key", () => {
  it("a store must be told plaintext: true, or it refuses to be made", () => {
    expect(() => new RedisTokenStore({ redis: raw })).toThrow(RedisKeyError);
    expect(() => new RedisTokenStore({ redis: raw })).toThrow(/key.*plaintext: true/);
  });

  it("with plaintext: true an encrypted record is a miss with a warning that a key is needed", async () => {
    await store().store.set(credentials());
    const { store: s, warnings } = store(null);
    expect(await s.find("https://mcp.example/mcp")).toBeUndefined();
    expect(warnings.join("\n")).toMatch(/encrypted, and this store has no key/);
  });
});

describe("parseRedisKey", () => {
  const bytes = randomBytes(32);
  it("reads 32 bytes as 64 hex digits, base64 or base64url (spaces and a newline around it are fine)", () => {
    for (const text of [
      bytes.toString("hex"),
      bytes.toString("base64"),
      bytes.toString("base64url"),
      `  ${bytes.toString("base64")}\n`,
    ])
      expect(Buffer.from(parseRedisKey(text))).toEqual(bytes);
  });
  it("a store takes the key as text too", async () => {
    const { store: s } = store(bytes.toString("base64"));
    await s.set(credentials());
    expect(await everything()).not.toContain("SECRET-ACCESS-TOKEN");
    expect((await store(bytes).store.find("https://mcp.example/mcp"))?.tokens?.accessToken).toBe("SECRET-ACCESS-TOKEN");
  });
  it("refuses anything else with a RedisKeyError naming where it came from and how to make one, never echoing it", () => {
    for (const text of [
      "",
      "short-secret-value",
      bytes.toString("hex").slice(2),
      randomBytes(16).toString("base64"),
      `${bytes.toString("hex")}zz`,
    ]) {
      let error: unknown;
      try {
        parseRedisKey(text, "MCP_REDIS_KEY");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RedisKeyError);
      expect((error as Error).message).toMatch(/MCP_REDIS_KEY.*32 bytes/);
      expect((error as Error).message).toMatch(/openssl rand -base64 32/);
      if (text.trim()) expect((error as Error).message).not.toContain(text.trim());
    }
  });
});
