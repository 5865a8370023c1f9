// Two `mcp serve --http` replicas sharing one real redis-server, behind a round-robin balancer:
// callers of both protocol eras, requests alternating between replicas, and a replica killed
// while it streams a call.
import { randomBytes } from "node:crypto";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { callTool, connectToServer } from "@mcp/client";
import { callerId } from "@mcp/gateway";
import { followRedirectAuthorize, OAuthProvider } from "@mcp/oauth";
import { RedisTokenStore } from "@mcp/store-redis";
import { startAuthFixture, startRedis, type TestRedis } from "mcp-test-utils";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBalancer, type Balancer } from "./balancer.js";
import { sandbox, userConfig, type Sandbox } from "./helpers.js";
import { gatewayBox, startHttpServe, type HttpServe } from "./serve-helpers.js";

const TOKEN = "replica-test-token-0123456789";
/** The key every replica encrypts the upstream OAuth tokens in Redis with. */
const KEY = randomBytes(32).toString("base64");
const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
const text = (result: unknown): string =>
  ((result as { content: { text: string }[] }).content ?? []).map((c) => c.text).join("\n");

describe("two gateway replicas sharing Redis", () => {
  let redis: TestRedis;
  let box: Sandbox;
  let replicas: HttpServe[];
  let lb: Balancer;
  const stops: (() => Promise<void>)[] = [];
  /** Two replicas on the shared Redis, behind a balancer of their own. */
  const pair = async (options: { sticky?: boolean } = {}): Promise<{ replicas: HttpServe[]; lb: Balancer }> => {
    const started = await Promise.all(
      [0, 1].map(() => startHttpServe(box, ["--redis", redis.url], { MCP_SERVE_TOKEN: TOKEN, MCP_REDIS_KEY: KEY })),
    );
    const balancer = await startBalancer(
      started.map((r) => r.url),
      options,
    );
    stops.push(() => balancer.stop(), ...started.map((r) => () => r.stop()));
    return { replicas: started, lb: balancer };
  };
  beforeAll(async () => {
    redis = await startRedis();
    box = gatewayBox();
    ({ replicas, lb } = await pair());
  }, 60_000);
  afterAll(async () => {
    for (const stop of stops) await stop();
    await redis?.stop();
    box?.remove();
  });

  it("a 2026-07-28 caller: its requests alternate between the replicas, and every one is answered", async () => {
    const client = new Client2(
      { name: "modern", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new Http2(new URL(lb.url), { requestInit: auth }));
    try {
      const from = lb.served.length;
      for (let i = 0; i < 6; i++)
        expect(text(await client.callTool({ name: "everything__echo", arguments: { message: `m${i}` } }))).toBe(
          `Echo: m${i}`,
        );
      const calls = lb.served.slice(from).filter((s) => s.method === "tools/call");
      expect(calls.length).toBe(6);
      expect(new Set(calls.map((c) => c.replica))).toEqual(new Set([0, 1]));
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a 2025 caller's session, opened on one replica, is served by the other too (opened again there from Redis)", async () => {
    const client = new Client1({ name: "legacy", version: "1" });
    const from = lb.served.length;
    await client.connect(new Http1(new URL(lb.url), { requestInit: auth }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("v2__add");
      for (let i = 0; i < 4; i++)
        expect(text(await client.callTool({ name: "v2__add", arguments: { a: i, b: 1 } }))).toBe(String(i + 1));
      const session = lb.served.slice(from).filter((s) => s.method === "tools/call");
      expect(new Set(session.map((c) => c.replica))).toEqual(new Set([0, 1]));
      // The session is in Redis, with who opened it (its caller's id: a hash of the token), not its token.
      const raw = new Redis(redis.url);
      const id = (client.transport as Http1).sessionId!;
      const record = JSON.parse((await raw.get(`mcp:gateway-sessions:${id}`))!) as {
        caller: string;
        initialize: { clientInfo: { name: string } };
      };
      expect(record.caller).toBe(callerId(TOKEN));
      expect(record.initialize.clientInfo.name).toBe("legacy");
      expect(JSON.stringify(record)).not.toContain(TOKEN);
      // Both replicas wrote the tool lists they fetched into the shared cache.
      expect((await raw.keys("mcp:tools:*")).length).toBeGreaterThanOrEqual(2);
      await raw.quit();
    } finally {
      await client.close();
    }
  }, 60_000);

  it("with session affinity, sampling reaches a 2025 caller; when its replica dies the session goes on on the other", async () => {
    const sticky = await pair({ sticky: true });
    const client = new Client1({ name: "legacy", version: "1" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      content: { type: "text", text: "sampled across replicas" },
      model: "m",
      stopReason: "endTurn",
    }));
    await client.connect(new Http1(new URL(sticky.lb.url), { requestInit: auth }));
    try {
      expect(
        text(await client.callTool({ name: "everything__trigger-sampling-request", arguments: { prompt: "p" } })),
      ).toContain("sampled across replicas");
      const home = sticky.lb.served.filter((s) => s.method === "tools/call").at(-1)!.replica;
      const dead = sticky.replicas[home]!.child;
      const exited = new Promise((resolve) =>
        dead.exitCode !== null || dead.signalCode !== null ? resolve(undefined) : dead.once("exit", resolve),
      );
      dead.kill("SIGKILL");
      await exited;
      // The first request after the death may meet the dead connection; one retry at most.
      const call = () => client.callTool({ name: "everything__trigger-sampling-request", arguments: { prompt: "q" } });
      const after = await call().catch(call);
      expect(text(after)).toContain("sampled across replicas");
      expect(sticky.lb.served.filter((s) => s.method === "tools/call").at(-1)!.replica).toBe(1 - home);
      expect(text(await client.callTool({ name: "v2__add", arguments: { a: 20, b: 22 } }))).toBe("42");
    } finally {
      await client.close().catch(() => {});
    }
  }, 60_000);

  it("a replica killed while it streams a call costs the caller one retry, and nothing else", async () => {
    ({ replicas, lb } = await pair());
    // Our own client: the official SDK v2 client leaves a call whose response stream broke pending
    // until its timeout ("SSE stream disconnected" goes to onerror), so it would cost a timeout, not a retry.
    const connection = await connectToServer("gateway", { type: "http", url: lb.url, headers: auth.headers });
    try {
      let killed: number | undefined;
      const started = Date.now();
      const first = callTool(
        connection,
        "everything__trigger-long-running-operation",
        { duration: 20, steps: 40 },
        {
          onProgress: () => {
            if (killed !== undefined) return;
            // The replica streaming this call's progress dies.
            killed = lb.served.filter((s) => s.method === "tools/call").at(-1)!.replica;
            replicas[killed]!.child.kill("SIGKILL");
          },
        },
      );
      await expect(first).rejects.toThrow();
      // Told when the stream broke, not when the 20 s operation would have ended (half of it is room for a loaded machine).
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(killed).toBeDefined();
      expect(lb.dead.has(killed!)).toBe(true);
      // The one retry, on the replica left.
      const retried = await callTool(connection, "everything__trigger-long-running-operation", {
        duration: 1,
        steps: 2,
      });
      expect(text(retried)).toContain("Long running operation completed");
      expect(lb.served.at(-1)!.replica).toBe(1 - killed!);
      // And the caller goes on as before.
      expect(text(await callTool(connection, "everything__echo", { message: "after" }))).toBe("Echo: after");
    } finally {
      await connection.transport.close();
    }
  }, 60_000);

  it("a session evicted by its caller's cap is gone from Redis too: no replica opens it again", async () => {
    const init = (url: string) =>
      fetch(url, {
        method: "POST",
        headers: { ...auth.headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "many", version: "1" } },
        }),
      });
    const list = (url: string, id: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          ...auth.headers,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": id,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
    // A pair of its own: the tests before may have killed one of the first pair's replicas.
    const { replicas: own } = await pair();
    const ids: string[] = [];
    for (let i = 0; i < 34; i++) {
      const answer = await init(own[0]!.url);
      await answer.text();
      ids.push(answer.headers.get("mcp-session-id")!);
    }
    // The cap is 32 a caller: the two oldest were closed, here and in Redis.
    const raw = new Redis(redis.url);
    await expect
      .poll(
        async () =>
          (await raw.exists(`mcp:gateway-sessions:${ids[0]!}`)) + (await raw.exists(`mcp:gateway-sessions:${ids[1]!}`)),
        { timeout: 5_000 },
      )
      .toBe(0);
    await raw.quit();
    for (const url of own.map((r) => r.url)) expect((await list(url, ids[0]!)).status).toBe(404);
    expect((await list(own[1]!.url, ids[33]!)).status).toBe(200);
  }, 60_000);

  it("a caller's sessions are capped across replicas and under concurrency; an initialize too big to save stores nothing", async () => {
    const init = (url: string, name = "flood") =>
      fetch(url, {
        method: "POST",
        headers: { ...auth.headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name, version: "1" } },
        }),
      });
    const { replicas: own } = await pair();
    const raw = new Redis(redis.url);
    try {
      /** The caller's session records in Redis now. */
      const records = async (): Promise<string[]> => {
        const keys = (await raw.keys("mcp:gateway-sessions:*")).filter((k) => !k.includes("-group:"));
        const values = keys.length === 0 ? [] : await raw.mget(...keys);
        return values.filter(
          (v) => v !== null && (JSON.parse(v) as { caller: string }).caller === callerId(TOKEN),
        ) as string[];
      };
      // 40 initializes at once, 20 on each replica.
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const answer = await init(own[i % 2]!.url);
          await answer.text();
          expect(answer.status).toBe(200);
        }),
      );
      // One more on each: once its record is there, so are those sent before it on that replica's connection.
      for (const replica of own) {
        const answer = await init(replica.url);
        await answer.text();
        const id = answer.headers.get("mcp-session-id")!;
        await expect.poll(() => raw.exists(`mcp:gateway-sessions:${id}`), { timeout: 5_000 }).toBe(1);
      }
      expect((await records()).length).toBeLessThanOrEqual(32);
      // An initialize whose params would take 100 KB in Redis is refused, and nothing of it is kept.
      const big = await init(own[0]!.url, "x".repeat(100_000));
      expect(big.status).toBe(400);
      expect(big.headers.get("mcp-session-id")).toBeNull();
      expect((await records()).some((r) => r.includes("xxxxxxxxxx"))).toBe(false);
    } finally {
      await raw.quit();
    }
  }, 60_000);

  it("an upstream OAuth token refreshed by one replica is the one the other sends; the refresh token is spent once", async () => {
    // A protected upstream server whose authorization server spends each refresh token once.
    const f = await startAuthFixture({ rotateRefresh: true, refreshDelayMs: 300, mcp: true });
    const oauthBox = sandbox();
    const store = new RedisTokenStore({ redis: redis.url, key: KEY });
    try {
      userConfig(oauthBox, { up: { type: "http", url: f.mcpUrl } });
      // Signed in once, into Redis, encrypted with the replicas' key (as `MCP_REDIS_URL=… MCP_REDIS_KEY=… mcp auth up` does).
      await new OAuthProvider({
        serverUrl: f.mcpUrl,
        redirectUri: "http://127.0.0.1:1/callback",
        authorize: followRedirectAuthorize(),
        store,
      }).authorizeNow();
      const started = await Promise.all(
        [0, 1].map(() =>
          startHttpServe(oauthBox, ["--redis", redis.url], { MCP_SERVE_TOKEN: TOKEN, MCP_REDIS_KEY: KEY }),
        ),
      );
      const balancer = await startBalancer(started.map((r) => r.url));
      stops.push(() => balancer.stop(), ...started.map((r) => () => r.stop()));
      const client = new Client2(
        { name: "modern", version: "1" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new Http2(new URL(balancer.url), { requestInit: auth }));
      try {
        const first = text(await client.callTool({ name: "up__whoami", arguments: {} }));
        // The token runs out (as Redis holds it); the next two calls land on one replica each.
        const saved = (await store.find(f.mcpUrl))!;
        expect(first).toBe(saved.tokens!.accessToken);
        await store.set({ ...saved, tokens: { ...saved.tokens!, expiresAt: Date.now() - 1000 } });
        const from = balancer.served.length;
        const [a, b] = [
          text(await client.callTool({ name: "up__whoami", arguments: {} })),
          text(await client.callTool({ name: "up__whoami", arguments: {} })),
        ];
        expect(
          new Set(
            balancer.served
              .slice(from)
              .filter((s) => s.method === "tools/call")
              .map((s) => s.replica),
          ),
        ).toEqual(new Set([0, 1]));
        const refreshes = f.log.filter((l) => l.form.get("grant_type") === "refresh_token").length;
        expect(refreshes).toBe(1);
        const fresh = (await store.find(f.mcpUrl))!.tokens!.accessToken;
        expect(fresh).not.toBe(first);
        expect([a, b]).toEqual([fresh, fresh]);
      } finally {
        await client.close();
      }
    } finally {
      await store.close();
      await f.stop();
      oauthBox.remove();
    }
  }, 60_000);
});
