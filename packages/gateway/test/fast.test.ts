// The fast path (fast.ts) against the SDK server's: two gateways over one manager, one with the
// fast path and one without, get the same raw 2026-07-28 requests; their answers — status,
// content type, every byte of the body — and their audit entries must be the same.
import { createServer, type Server } from "node:http";
import { McpServer as McpServer1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { buildProbe1x, startSdkServer, startV2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createGateway, gatewayHandlers, parseCallers, parseViews, type AuditEntry } from "../src/index.js";

const TOKENS = parseCallers(
  JSON.stringify({
    alice: { token: "alice-token-0123456789" },
    bob: { token: "bob-token-0123456789ab", allow: ["p1h__*", "odd__*"], rate: "3/min" },
  }),
  "callers.json",
);
const VIEWS = parseViews(
  {
    ops: {
      tools: ["p1h__flood", "odd__*"],
      rename: { p1h__flood: "emit_logs" },
      describe: { emit_logs: "Emits logs" },
    },
  },
  "config",
);

/** A 1.x server whose tools answer with what the SDK server must put on the wire as it is, or mend. */
function oddServer(): McpServer1 {
  const server = new McpServer1({ name: "odd", version: "1" });
  server.registerTool("listy", { description: "structured content that is no object", inputSchema: {} }, () => ({
    content: [],
    structuredContent: [1, 2, 3] as never,
  }));
  server.registerTool("texty", { description: "structured content and text", inputSchema: {} }, () => ({
    content: [{ type: "text", text: "t" }],
    structuredContent: { a: 1 },
  }));
  server.registerTool("failing", { description: "throws", inputSchema: {} }, () => {
    throw new Error("the backend said no");
  });
  server.registerTool("echo", { description: "echo", inputSchema: { text: z.string().optional() } }, ({ text }) => ({
    content: [{ type: "text", text: text ?? "(none)" }],
    _meta: { "com.example/trace": "t1" },
  }));
  return server;
}

describe("the fast path answers as the SDK server does", () => {
  const stops: (() => Promise<void>)[] = [];
  const audits: Record<"fast" | "sdk", AuditEntry[]> = { fast: [], sdk: [] };
  const urls: Record<"fast" | "sdk", string> = { fast: "", sdk: "" };

  beforeAll(async () => {
    const p1h = await startSdkServer({ build: buildProbe1x });
    const odd = await startSdkServer({ build: oddServer });
    const v2 = await startV2HttpServer({ legacy: "reject" });
    stops.push(
      () => p1h.stop(),
      () => odd.stop(),
      () => v2.stop(),
    );
    const handlers = gatewayHandlers();
    const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, ...handlers, cache: false });
    await manager.connectServers({
      p1h: { type: "http", url: p1h.url },
      odd: { type: "http", url: odd.url },
      v2: { type: "http", url: v2.url },
    });
    stops.push(() => manager.disconnectAll());
    for (const kind of ["fast", "sdk"] as const) {
      const gateway = createGateway(manager, {
        ...(kind === "fast" ? { handlers } : {}),
        tokens: TOKENS,
        views: VIEWS,
        toolSearch: true,
        fastPath: kind === "fast",
        audit: (entry) => void audits[kind].push(entry),
        auditKey: "one-key",
      });
      const app: Server = createServer((req, res) => void gateway.handle(req, res));
      await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
      urls[kind] = `http://127.0.0.1:${(app.address() as { port: number }).port}/mcp`;
      stops.push(async () => {
        app.closeAllConnections();
        await new Promise<void>((resolve) => app.close(() => resolve()));
        await gateway.close();
      });
    }
  });

  afterAll(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  /** One raw tools/call to a gateway: what came back on the wire. */
  async function raw(
    kind: "fast" | "sdk",
    path: string,
    caller: string,
    name: string,
    args: unknown,
    id: string | number = 1,
  ): Promise<string> {
    const token = [...TOKENS].find(([, c]) => c.name === caller)![0];
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const response = await fetch(`${urls[kind]}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: meta },
      }),
    });
    return `${response.status} ${response.headers.get("content-type")} retry-after=${response.headers.get("retry-after")}\n${await response.text()}`;
  }

  const cases: [string, string, string, string, unknown, (string | number)?][] = [
    ["a 2025 upstream's result", "", "alice", "p1h__flood", { count: 1 }],
    ["a 2026-07-28 upstream's result (its serverInfo not passed on)", "", "alice", "v2__add", { a: 2, b: 40 }],
    ["a tool error", "", "alice", "v2__add", { a: "x" }],
    ["no arguments", "", "alice", "odd__echo", undefined],
    ["a result with _meta of its own", "", "alice", "odd__echo", { text: "hi" }, "string-id"],
    ["structured content that is no object", "", "alice", "odd__listy", {}],
    ["structured content and text", "", "alice", "odd__texty", {}],
    ["a tool that throws upstream", "", "alice", "odd__failing", {}],
    ["an unknown tool", "", "alice", "p1h__nope", {}],
    ["a tool the caller may not call", "", "bob", "v2__add", { a: 1, b: 1 }],
    ["search_tools", "", "alice", "search_tools", { query: "add numbers", limit: 2 }],
    ["a view's renamed tool", "/view/ops", "alice", "emit_logs", { count: 2 }],
    ["a view's tool by its real name", "/view/ops", "alice", "p1h__flood", { count: 2 }],
    ["a server's endpoint", "/v2", "alice", "add", { a: 1, b: 2 }],
  ];

  it.each(cases)("%s", async (_label, path, caller, name, args, id) => {
    const [fast, sdk] = [
      await raw("fast", path, caller, name, args, id),
      await raw("sdk", path, caller, name, args, id),
    ];
    expect(fast).toBe(sdk);
  });

  it("a caller's rate: the same answers call by call, 429 with Retry-After past it", async () => {
    for (let i = 0; i < 4; i++) {
      const [fast, sdk] = [
        await raw("fast", "", "bob", "p1h__flood", { count: 1 }),
        await raw("sdk", "", "bob", "p1h__flood", { count: 1 }),
      ];
      expect(
        fast
          .replace(/try again in \d+ s/, "")
          .replace(/retryAfterMs":\d+/, "")
          .replace(/retry-after=\d+/, ""),
      ).toBe(
        sdk
          .replace(/try again in \d+ s/, "")
          .replace(/retryAfterMs":\d+/, "")
          .replace(/retry-after=\d+/, ""),
      );
      if (i === 3) expect(fast).toMatch(/^429 /);
    }
  });

  it("the same audit entries, but for their times", () => {
    const strip = (entries: AuditEntry[]): unknown[] =>
      entries.filter((e) => e.method === "tools/call").map(({ time: _time, durationMs: _durationMs, ...rest }) => rest);
    expect(strip(audits.fast).length).toBeGreaterThan(10);
    expect(strip(audits.fast)).toEqual(strip(audits.sdk));
    // No caller went away: a call that failed is an rpc-error, never "cancelled" (its response closing afterwards aborts its signal too).
    for (const kind of ["fast", "sdk"] as const) {
      expect(
        audits[kind].filter((e) => e.outcome === "cancelled"),
        kind,
      ).toEqual([]);
      expect(
        audits[kind].some((e) => e.outcome === "rpc-error"),
        kind,
      ).toBe(true);
    }
  });
});
