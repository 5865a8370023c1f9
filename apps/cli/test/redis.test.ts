// MCP_REDIS_URL (and `mcp serve --redis`) with a real redis-server: OAuth tokens go into Redis
// only encrypted with MCP_REDIS_KEY / MCP_REDIS_KEY_FILE, or unencrypted when
// MCP_REDIS_PLAINTEXT_TOKENS=1 (--redis-plaintext-tokens) says so; otherwise the command refuses
// with what to do. `mcp auth` signs in against the official SDK's authorization server.
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { RedisTokenStore } from "@mcp/store-redis";
import { freePort, startRedis, startSdkOAuthServer, type SdkOAuthServer, type TestRedis } from "mcp-test-utils";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bin, fixture, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { startHttpServe } from "./serve-helpers.js";

let redis: TestRedis;
let raw: Redis;
let box: Sandbox;
beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
  box = sandbox();
});
afterAll(async () => {
  await raw.quit();
  await redis.stop();
  box.remove();
});
beforeEach(async () => {
  await raw.flushall();
  userConfig(box, { fixture: { command: process.execPath, args: [fixture] } });
});

const KEY = randomBytes(32).toString("base64");

describe("the key", () => {
  it("without one, a command with MCP_REDIS_URL refuses and says how to make one; MCP_REDIS_PLAINTEXT_TOKENS=1 lets it go on", async () => {
    const refused = await mcp(box, ["servers", "--json"], { MCP_REDIS_URL: redis.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/MCP_REDIS_KEY/);
    expect(refused.stderr).toMatch(/openssl rand -base64 32/);
    expect(refused.stderr).toMatch(/MCP_REDIS_PLAINTEXT_TOKENS=1/);
    expect(refused.stderr).toContain("(mcp serve: --redis-plaintext-tokens).");
    const plaintext = await mcp(box, ["servers", "--json"], {
      MCP_REDIS_URL: redis.url,
      MCP_REDIS_PLAINTEXT_TOKENS: "1",
    });
    expect(plaintext.code).toBe(0);
    expect(await raw.keys("mcp:tools:*")).toHaveLength(1);
  }, 60_000);

  it("MCP_REDIS_KEY that is not 32 bytes is a usage error, never shown (the key's other cases: @mcp/store-redis's from-env tests)", async () => {
    const bad = await mcp(box, ["servers", "--json"], { MCP_REDIS_URL: redis.url, MCP_REDIS_KEY: "hunter2-not-a-key" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/MCP_REDIS_KEY must be 32 bytes/);
    expect(bad.stderr).not.toContain("hunter2");
    const file = box.write(join(box.home, "redis.key"), `${KEY}\n`);
    const fromFile = await mcp(box, ["servers", "--json"], { MCP_REDIS_URL: redis.url, MCP_REDIS_KEY_FILE: file });
    expect(fromFile.code).toBe(0);
  }, 60_000);

  it("mcp serve --redis without a key does not start; with --redis-plaintext-tokens it does", async () => {
    const token = { MCP_SERVE_TOKEN: "redis-key-test-token-0123456789" };
    await expect(startHttpServe(box, ["--redis", redis.url], token)).rejects.toThrow(/exited 2: .*MCP_REDIS_KEY/s);
    const served = await startHttpServe(box, ["--redis", redis.url, "--redis-plaintext-tokens"], token);
    await served.stop();
  }, 60_000);
});

describe("OAuth tokens in Redis", () => {
  let server: SdkOAuthServer;
  beforeAll(async () => {
    server = await startSdkOAuthServer();
  });
  afterAll(() => server.stop());

  /** `mcp auth <name> --no-open` with `env`, opening the printed URL as a browser would. */
  function authorize(name: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, "auth", name, "--no-open"], {
        cwd: box.project,
        env: { ...box.env, ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        const opened = /open: (\S+)/.test(stderr);
        stderr += chunk.toString();
        const url = /open: (\S+)/.exec(stderr)?.[1];
        if (url && !opened)
          void fetch(url)
            .then((r) => r.text())
            .catch(reject);
      });
      child.once("error", reject);
      child.once("exit", (code) => resolve({ code, stderr }));
    });
  }

  it("mcp auth keeps them encrypted with MCP_REDIS_KEY; calls read them with the key; with another key they are a miss, with a warning", async () => {
    userConfig(box, { protected: { type: "http", url: server.url, oauth: { callbackPort: await freePort() } } });
    const env = { MCP_REDIS_URL: redis.url, MCP_REDIS_KEY: KEY };
    expect((await authorize("protected", env)).code).toBe(0);
    // Nothing of the tokens is readable in Redis; the library reads them with the same key.
    const [cred] = await raw.keys("mcp:oauth:cred:*");
    const stored = (await raw.get(cred!))!;
    expect(stored).toContain('"enc":"A256GCM"');
    const store = new RedisTokenStore({ redis: raw, key: KEY });
    const tokens = (await store.find(server.url))?.tokens;
    expect(tokens?.accessToken).toBeTruthy();
    const everything = (await Promise.all((await raw.keys("*")).map((k) => raw.get(k).catch(() => "")))).join("\n");
    expect(everything).not.toContain(tokens!.accessToken);
    if (tokens?.refreshToken) expect(everything).not.toContain(tokens.refreshToken);

    const call = await mcp(box, ["call", "protected.whoami", "--no-cache"], env);
    expect(call.stdout).toMatch(/client [0-9a-f-]{36}/);
    expect(call.code).toBe(0);
    expect(server.authorizations()).toBe(1);

    const wrong = await mcp(box, ["servers", "--json", "--no-cache"], {
      ...env,
      MCP_REDIS_KEY: randomBytes(32).toString("hex"),
    });
    expect(
      (JSON.parse(wrong.stdout) as { name: string; status: string }[]).find((r) => r.name === "protected")?.status,
    ).toBe("needs authentication");
    expect(wrong.stderr).toMatch(/are not used: it was encrypted with another key/);
  }, 90_000);
});
