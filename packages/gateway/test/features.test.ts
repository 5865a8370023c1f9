// What a platform team runs the gateway for: an audit log, rate limits, views and tool search.
// The gateway is embedded in a test's own server; the upstreams are the probe (over stdio and
// Streamable HTTP) and a v2 server with 500 tools; the callers are the official SDK clients.
import { createHmac } from "node:crypto";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import type { MCPServerConfig } from "@mcp/client";
import { buildProbe1x, everythingEntry, startSdkServer, startV2HttpServer } from "mcp-test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { canonicalJson, parseCallers, parseViews, type AuditEntry, type CreateGatewayOptions } from "../src/index.js";
import { mountGateway } from "./app.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** Callers as a callers file gives them (rates included), keyed by their tokens. */
const TOKENS = parseCallers(
  JSON.stringify({
    alice: { token: "alice-token-0123456789" },
    bob: { token: "bob-token-0123456789ab", deny: ["probe__flood"], rate: "2/min" },
    support: { token: "support-token-012345", view: "support" },
  }),
  "callers.json",
);
const token = (name: string): string => [...TOKENS].find(([, caller]) => caller.name === name)![0];
const VIEWS = parseViews(
  {
    support: {
      tools: ["probe__flood", "probe__probe"],
      rename: { probe__flood: "send_logs" },
      describe: { send_logs: "Sends a few log lines" },
    },
  },
  "config",
);

async function mount(
  configs: Record<string, MCPServerConfig>,
  options: Partial<CreateGatewayOptions> = {},
): Promise<string> {
  const mounted = await mountGateway(configs, { tokens: TOKENS, views: VIEWS, ...options });
  stops.push(() => mounted.stop());
  return mounted.url;
}

async function client(url: string, name: string): Promise<Client1> {
  const c = new Client1({ name, version: "1" });
  await c.connect(new Http1(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token(name)}` } } }));
  stops.push(() => c.close());
  return c;
}

async function probeUpstream(): Promise<string> {
  const upstream = await startSdkServer({ build: buildProbe1x });
  stops.push(() => upstream.stop());
  return upstream.url;
}

describe("the audit log", () => {
  it("one entry per request: who, where, what (a hash of the arguments, never them), the decision and the outcome", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount(
      { probe: { type: "http", url: await probeUpstream() } },
      { audit: (entry) => void entries.push(entry), auditKey: "audit-key" },
    );
    const alice = await client(url, "alice");
    const bob = await client(url, "bob");
    await alice.callTool({ name: "probe__flood", arguments: { count: 1 } });
    await expect(alice.callTool({ name: "probe__nope", arguments: {} })).rejects.toThrow();
    await expect(bob.callTool({ name: "probe__flood", arguments: { count: 1 } })).rejects.toThrow(/not allowed/);
    const controller = new AbortController();
    const cancelled = alice.callTool(
      { name: "probe__probe", arguments: { secret: "the-secret-value", delayMs: 10_000 } },
      undefined,
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(entries.length).toBeGreaterThan(0), { timeout: 5_000 });
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    expect(
      (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
    ).toBe(401);
    await vi.waitFor(() => expect(entries.filter((e) => e.method === "tools/call").length).toBe(4), {
      timeout: 10_000,
    });
    const calls = entries.filter((e) => e.method === "tools/call");
    expect(calls.map((e) => [e.caller, e.tool, e.decision, e.outcome])).toEqual([
      ["alice", "probe__flood", "allowed", "ok"],
      ["alice", "probe__nope", "allowed", "rpc-error"],
      ["bob", "probe__flood", "denied", undefined],
      ["alice", "probe__probe", "allowed", "cancelled"],
    ]);
    expect(calls[0]).toMatchObject({
      endpoint: "/mcp",
      server: "probe",
      argsHash: createHmac("sha256", "audit-key")
        .update(canonicalJson({ count: 1 }))
        .digest("hex"),
    });
    expect(calls[1]!.code).toBe(-32602);
    expect(JSON.stringify(entries)).not.toContain("the-secret-value");
    expect(entries.some((e) => e.method === "tools/list" && e.caller === "alice")).toBe(false);
    await vi.waitFor(() =>
      expect(entries.some((e) => e.decision === "unauthenticated" && e.caller === null && e.endpoint === "/mcp")).toBe(
        true,
      ),
    );
  });
});

describe("rate limits", () => {
  it("a caller's rate counts calls, not lists or the handshake; past it a call is refused with when to try again (HTTP 429 and Retry-After too)", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount(
      { probe: { type: "http", url: await probeUpstream() } },
      { audit: (entry) => void entries.push(entry) },
    );
    const bob = await client(url, "bob");
    for (let i = 0; i < 5; i++) await bob.listTools();
    for (let i = 0; i < 2; i++)
      await bob.callTool({ name: "probe__probe", arguments: { secret: `b${i}`, steps: 0 } }).catch(() => undefined);
    await expect(bob.callTool({ name: "probe__probe", arguments: { secret: "b3" } })).rejects.toMatchObject({
      code: 429,
      message: expect.stringContaining("try again in"),
    });
    // A 2026-07-28 request refused so is a 429 with Retry-After on the wire.
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const raw = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token("bob")}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "probe__probe",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "probe__probe", arguments: { secret: "x" }, _meta: meta },
      }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);
    // Others are not limited by bob's rate.
    const alice = await client(url, "alice");
    expect((await alice.callTool({ name: "probe__flood", arguments: { count: 1 } })).content).toEqual([
      { type: "text", text: "sent 1" },
    ]);
    await vi.waitFor(() =>
      expect(entries.filter((e) => e.decision === "rate-limited" && e.caller === "bob").length).toBe(2),
    );
  });
});

describe("rate limits on a failing store", () => {
  const failing = (unreachable: boolean): CreateGatewayOptions["rateLimits"] => ({
    take: () =>
      Promise.reject(
        Object.assign(
          new Error(
            unreachable
              ? "no answer within 1000 ms"
              : "WRONGTYPE Operation against a key holding the wrong kind of value",
          ),
          { unreachable },
        ),
      ),
  });

  it("a store that answers with an error refuses a limited caller's calls: no error turns the limit off", async () => {
    const url = await mount({ probe: { type: "http", url: await probeUpstream() } }, { rateLimits: failing(false) });
    const bob = await client(url, "bob");
    for (let i = 0; i < 3; i++)
      await expect(
        bob.callTool({ name: "probe__probe", arguments: { secret: `b${i}`, steps: 0 } }),
      ).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("could not be checked") });
    // A caller without a rate does not ask the store.
    const alice = await client(url, "alice");
    expect((await alice.callTool({ name: "probe__flood", arguments: { count: 1 } })).content).toEqual([
      { type: "text", text: "sent 1" },
    ]);
  });

  it("a store that cannot be reached lets calls through (the documented fail-open)", async () => {
    const url = await mount({ probe: { type: "http", url: await probeUpstream() } }, { rateLimits: failing(true) });
    const bob = await client(url, "bob");
    for (let i = 0; i < 3; i++)
      await expect(
        bob.callTool({ name: "probe__probe", arguments: { secret: `b${i}`, steps: 0 } }),
      ).resolves.toBeDefined();
  });
});

describe("allow, deny and rates beyond tools", () => {
  const CALLERS = parseCallers(
    JSON.stringify({
      echoer: { token: "echoer-token-0123456789", allow: ["everything__echo"] },
      reader: { token: "reader-token-0123456789", allow: ["everything"], rates: { "everything__*": "2/min" } },
    }),
    "callers.json",
  );
  const as = async (url: string, token: string): Promise<Client1> => {
    const c = new Client1({ name: "c", version: "1" });
    await c.connect(new Http1(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    stops.push(() => c.close());
    return c;
  };

  it("a caller allowed one tool of a server gets none of its prompts, resources or completions; a server's rate counts its resource reads", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount(
      { everything: { type: "stdio", command: process.execPath, args: [everythingEntry] } },
      { tokens: CALLERS, audit: (entry) => void entries.push(entry) },
    );
    const reader = await as(url, "reader-token-0123456789");
    const prompt = (await reader.listPrompts()).prompts[0]!.name;
    const uri = (await reader.listResources()).resources[0]!.uri;
    const echoer = await as(url, "echoer-token-0123456789");
    expect((await echoer.callTool({ name: "everything__echo", arguments: { message: "hi" } })).content).toEqual([
      { type: "text", text: "Echo: hi" },
    ]);
    expect((await echoer.listPrompts()).prompts).toEqual([]);
    await expect(echoer.getPrompt({ name: prompt, arguments: {} })).rejects.toThrow(/Unknown prompt/);
    expect((await echoer.listResources()).resources).toEqual([]);
    expect((await echoer.listResourceTemplates()).resourceTemplates).toEqual([]);
    await expect(echoer.readResource({ uri })).rejects.toThrow(/not found/i);
    await expect(
      echoer.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name: "x", value: "" } }),
    ).rejects.toThrow(/Unknown prompt/);
    // `everything__*` at 2/min: two reads, then the third is refused.
    await reader.readResource({ uri });
    await reader.readResource({ uri });
    await expect(reader.readResource({ uri })).rejects.toMatchObject({ code: 429 });
    await vi.waitFor(() =>
      expect(
        entries
          .filter((e) => e.caller === "echoer" && e.decision === "denied")
          .map((e) => e.method)
          .sort(),
      ).toEqual(["completion/complete", "prompts/get"]),
    );
  });
});

describe("views", () => {
  it("a view shows a curated, renamed, re-described set of tools; calls map back to the real tool, and the audit log names both", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount(
      { probe: { type: "http", url: await probeUpstream() } },
      { audit: (entry) => void entries.push(entry) },
    );
    const alice = new Client2({ name: "alice", version: "2" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await alice.connect(
      new Http2(new URL(`${url}/view/support`), {
        requestInit: { headers: { authorization: `Bearer ${token("alice")}` } },
      }),
    );
    stops.push(() => alice.close());
    const tools = (await alice.listTools()).tools;
    expect(tools.map((t) => [t.name, t.description]).sort()).toEqual([
      ["probe__probe", expect.stringContaining("progress")],
      ["send_logs", "Sends a few log lines"],
    ]);
    expect((await alice.callTool({ name: "send_logs", arguments: { count: 2 } })).content).toEqual([
      { type: "text", text: "sent 2" },
    ]);
    await expect(alice.callTool({ name: "probe__flood", arguments: { count: 1 } })).rejects.toThrow(/Unknown tool/);
    await vi.waitFor(() =>
      expect(entries.find((e) => e.viewTool === "send_logs")).toMatchObject({
        endpoint: "/mcp/view/support",
        tool: "probe__flood",
        outcome: "ok",
      }),
    );
    // A caller given the view sees it wherever it connects, and nothing else.
    const support = await client(url, "support");
    expect((await support.listTools()).tools.map((t) => t.name).sort()).toEqual(["probe__probe", "send_logs"]);
    expect((await support.listPrompts()).prompts).toEqual([]);
    expect(
      (
        await fetch(`${url}/probe`, {
          method: "POST",
          headers: { authorization: `Bearer ${token("support")}`, "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(404);
  });
});

describe("search_tools", () => {
  it("finds a tool among 500 for a caller, and the call that follows works", async () => {
    const topics = [
      "weather",
      "invoice",
      "calendar",
      "ticket",
      "email",
      "inventory",
      "payroll",
      "shipment",
      "contract",
      "survey",
    ];
    const build = (): McpServer => {
      const server = new McpServer({ name: "many", version: "1" });
      for (let i = 0; i < 500; i++) {
        const topic = topics[i % topics.length]!;
        server.registerTool(
          `op_${String(i).padStart(3, "0")}`,
          { description: `Handles ${topic} record number ${i}`, inputSchema: z.object({ id: z.string() }) },
          ({ id }) => ({ content: [{ type: "text", text: `op_${i} on ${id}` }] }),
        );
      }
      server.registerTool(
        "celsius_to_fahrenheit",
        {
          description: "Convert a temperature from Celsius to Fahrenheit",
          inputSchema: z.object({ celsius: z.number() }),
        },
        ({ celsius }) => ({ content: [{ type: "text", text: String((celsius * 9) / 5 + 32) }] }),
      );
      return server;
    };
    const many = await startV2HttpServer({ build });
    stops.push(() => many.stop());
    const url = await mount({ many: { type: "http", url: many.url } }, { toolSearch: true });
    const alice = await client(url, "alice");
    expect((await alice.listTools()).tools.length).toBe(502);
    const found = await alice.callTool({
      name: "search_tools",
      arguments: { query: "convert temperature celsius fahrenheit", limit: 3 },
    });
    const definitions = (found.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(definitions[0]!.name).toBe("many__celsius_to_fahrenheit");
    expect(definitions[0]!.inputSchema).toMatchObject({ properties: { celsius: { type: "number" } } });
    expect((await alice.callTool({ name: definitions[0]!.name, arguments: { celsius: 100 } })).content).toEqual([
      { type: "text", text: "212" },
    ]);
  });
});
