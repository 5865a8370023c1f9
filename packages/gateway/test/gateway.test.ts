// The gateway embedded in a test's own node:http server, under a path of its own, with its own
// authentication; the upstreams are the probe (mcp-test-utils) over stdio and Streamable HTTP.
// What it holds (sessions, callers' own connections) is read from stats(): nothing piles up.
import { request } from "node:http";
import { execFileSync } from "node:child_process";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { buildProbe1x, probeStdioEntry, startSdkServer, type SdkServer } from "mcp-test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Caller, CreateGatewayOptions } from "../src/index.js";
import { mountGateway, type Mounted } from "./app.js";

const USERS = new Map<string, Caller>([
  ["alice-key", { id: "u-alice", name: "alice" }],
  ["bob-key", { id: "u-bob", name: "bob", allow: ["p1h__*"] }],
  ["carol-key", { id: "u-carol", name: "carol" }],
]);

let upstream: SdkServer;
const running: Mounted[] = [];

/** A manager with the probes, a gateway on it mounted at /api/mcp of an app of ours, authenticating by `x-api-key`. */
async function mount(options: Partial<CreateGatewayOptions> = {}): Promise<Mounted> {
  const configs = {
    p1s: { command: process.execPath, args: [probeStdioEntry, "1x"] },
    p1h: { type: "http" as const, url: upstream.url },
  };
  const mounted = await mountGateway(configs, {
    path: "/api/mcp",
    authenticate: (req) => USERS.get(String(req.headers["x-api-key"])),
    callers: [...USERS.values()],
    ...options,
  });
  running.push(mounted);
  return mounted;
}

async function session(url: string, key: string): Promise<Client1> {
  const client = new Client1(
    { name: key, version: "1" },
    { capabilities: { sampling: {}, elicitation: {}, roots: {} } },
  );
  client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).CreateMessageRequestSchema, () => ({
    role: "assistant",
    content: { type: "text", text: `sampled-by-${key}` },
    model: "m",
  }));
  client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ElicitRequestSchema, () => ({
    action: "accept",
    content: { answer: `elicited-by-${key}` },
  }));
  client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ListRootsRequestSchema, () => ({
    roots: [{ uri: `file:///${key}` }],
  }));
  await client.connect(new Http1(new URL(url), { requestInit: { headers: { "x-api-key": key } } }));
  return client;
}

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });

/** The probe processes (`probe-stdio.js 1x`) this test process has running. */
function probeProcesses(): number {
  try {
    return execFileSync("pgrep", ["-f", "-P", String(process.pid), "probe-stdio.js 1x"])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean).length;
  } catch {
    return 0;
  }
}

beforeAll(async () => {
  upstream = await startSdkServer({ build: buildProbe1x });
});
afterEach(async () => {
  for (const m of running.splice(0)) await m.stop();
});
afterAll(async () => {
  await upstream.stop();
});

describe("createGateway mounted in an app's own server", () => {
  it("its authentication decides who calls, under its path; before it, every path answers 401", async () => {
    const { url } = await mount();
    for (const path of ["", "/p1s", "/nobody"])
      expect((await post(`${url}${path}`, {}, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(401);
    expect(
      (await post(`${url}/nobody`, { "x-api-key": "alice-key" }, { jsonrpc: "2.0", id: 1, method: "ping" })).status,
    ).toBe(404);
    expect(await (await fetch(url.replace("/api/mcp", "/elsewhere"))).text()).toBe("app");
    const bob = new Client2({ name: "bob", version: "2" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await bob.connect(new Http2(new URL(url), { requestInit: { headers: { "x-api-key": "bob-key" } } }));
    expect((await bob.listTools()).tools.map((t) => t.name).sort()).toEqual(["p1h__flood", "p1h__probe"]);
    await bob.close();
  });

  it("a caller learns nothing of servers it may not see: their endpoint and their tools are unknown, as names that do not exist", async () => {
    const { url } = await mount();
    const status = async (path: string) =>
      (
        await post(
          `${url}${path}`,
          { "x-api-key": "bob-key" },
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
          },
        )
      ).status;
    expect(await status("/p1s")).toBe(404);
    expect(await status("/nobody")).toBe(404);
    expect(await status("/p1h")).toBe(200);
    const bob = await session(url, "bob-key");
    const refusal = (name: string): Promise<string> =>
      bob.callTool({ name, arguments: {} }).then(
        () => "answered",
        (error: Error) => error.message,
      );
    expect((await refusal("p1s__probe")).replace("p1s", "nobody")).toBe(await refusal("nobody__probe"));
    await bob.close();
  });

  it("initialize in a batch counts against the session cap like any other", async () => {
    const { url, gateway } = await mount({ sessionLimits: { perCaller: 2 } });
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    for (let i = 0; i < 6; i++) {
      const answer = await post(url, { "x-api-key": "alice-key" }, [init]);
      expect(answer.status).toBe(200);
      await answer.text();
    }
    expect(gateway.stats().sessions).toBe(2);
  });

  it("a Host that is not this machine's is refused unless hosts says so", async () => {
    const { url } = await mount();
    const status = await new Promise<number>((resolve) => {
      const u = new URL(url);
      request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: "POST",
          headers: { host: "attacker.example", "x-api-key": "alice-key" },
        },
        (res) => resolve(res.statusCode ?? 0),
      ).end("{}");
    });
    expect(status).toBe(403);
    const named = await mount({ hosts: ["gateway.internal"] });
    const u = new URL(named.url);
    const admitted = await new Promise<number>((resolve) => {
      request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: "POST",
          headers: {
            host: "gateway.internal",
            "x-api-key": "alice-key",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (res) => resolve(res.statusCode ?? 0),
      ).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
      );
    });
    expect(admitted).toBe(200);
  });

  it("a request that opens no session leaves nothing behind", async () => {
    const { url, gateway } = await mount();
    for (let i = 0; i < 200; i++) {
      const refused = await post(
        url,
        { "x-api-key": "alice-key", "mcp-protocol-version": "2025-11-25" },
        { jsonrpc: "2.0", id: i, method: "tools/list" },
      );
      expect(refused.status).toBe(400);
    }
    expect(gateway.stats()).toEqual({ sessions: 0, lanes: 0, connections: 0, rounds: 0 });
  });

  it("a caller holds at most perCaller sessions: opening another closes its least recently used idle one", async () => {
    const { url, gateway } = await mount({ sessionLimits: { perCaller: 2 } });
    const [first, second] = [await session(url, "alice-key"), await session(url, "alice-key")];
    const bobs = await session(url, "bob-key");
    expect(gateway.stats().sessions).toBe(3);
    const third = await session(url, "alice-key");
    expect(gateway.stats().sessions).toBe(3);
    await expect(first.listTools()).rejects.toThrow(/404|not found/i);
    for (const client of [second, third, bobs]) expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    for (const client of [first, second, third, bobs]) await client.close();
  });

  it("a session its caller left without DELETE (the official SDKs never send one) is closed after idleMs; its id is then 404", async () => {
    const { url, gateway } = await mount({ sessionLimits: { idleMs: 200 } });
    const client = await session(url, "alice-key");
    const id = (client.transport as Http1).sessionId!;
    // Listening on its GET stream, the session is in use however long it is quiet.
    expect(gateway.stats().sessions).toBe(1);
    await client.close();
    await vi.waitFor(() => expect(gateway.stats().sessions).toBe(0), { timeout: 10_000, interval: 50 });
    expect(gateway.stats().connections).toBe(0);
    expect(
      (
        await post(
          url,
          { "x-api-key": "alice-key", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
        )
      ).status,
    ).toBe(404);
  });

  it("with several callers, each has its own process of a 2025 stdio server, closed once idle", async () => {
    const { url, gateway } = await mount({ laneIdleMs: 300 });
    const before = probeProcesses();
    const [alice, alice2, carol] = [
      await session(url, "alice-key"),
      await session(url, "alice-key"),
      await session(url, "carol-key"),
    ];
    // Every call in flight (each has sent its first progress): alice's two share her process, carol has hers.
    let started = 0;
    let allStarted: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => (allStarted = resolve));
    const calls = [alice, alice2, carol].map((c, i) =>
      c.callTool({ name: "p1s__probe", arguments: { secret: `s${i}`, steps: 1, delayMs: 1000 } }, undefined, {
        onprogress: () => void (++started === 3 && allStarted()),
      }),
    );
    await inFlight;
    expect(gateway.stats().lanes).toBe(2);
    expect(probeProcesses()).toBe(before + 2);
    const answers = await Promise.all(calls);
    expect(
      answers.map((a) => (JSON.parse((a.content as { text: string }[])[0]!.text) as { sampled: string }).sampled),
    ).toEqual(["sampled-by-alice-key", "sampled-by-alice-key", "sampled-by-carol-key"]);
    // A call the caller may not make opens nothing.
    const bob = await session(url, "bob-key");
    await expect(bob.callTool({ name: "p1s__probe", arguments: { secret: "x" } })).rejects.toThrow(/Unknown tool/);
    await vi.waitFor(() => expect(gateway.stats().lanes).toBe(0), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(probeProcesses()).toBe(before), { timeout: 10_000, interval: 50 });
    for (const client of [alice, alice2, carol, bob]) await client.close();
  });
});
