// What the two parity suites share (fast.test.ts: the 2026-07-28 fast path; session-fast.test.ts:
// the 2025 session one): the callers, the view, a 1.x server with odd answers, and two gateways
// over one manager — one with the fast path, one without — behind their own loopback listeners.
import { createServer, type Server } from "node:http";
import { McpServer as McpServer1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { MCPServerConfig } from "@mcp/client";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { buildProbe1x, startSdkServer, startV2HttpServer } from "mcp-test-utils";
import { z } from "zod";
import { createGateway, gatewayHandlers, parseCallers, parseViews, type AuditEntry } from "../src/index.js";

/** The gateway with its fast path, and the one without (every request through the SDK server). */
export type Kind = "fast" | "sdk";

export const TOKENS = parseCallers(
  JSON.stringify({
    alice: { token: "alice-token-0123456789" },
    bob: { token: "bob-token-0123456789ab", allow: ["p1h__*", "odd__*"], rate: "3/min" },
  }),
  "callers.json",
);

export const VIEWS = parseViews(
  {
    ops: {
      tools: ["p1h__flood", "odd__*"],
      rename: { p1h__flood: "emit_logs" },
      describe: { emit_logs: "Emits logs" },
    },
  },
  "config",
);

/** The token of the caller named `name` in {@link TOKENS}. */
export function tokenOf(name: string): string {
  return [...TOKENS].find(([, caller]) => caller.name === name)![0];
}

/** A gateway's audit entries of `tools/call`, but for their times: what both gateways of a pair must have alike. */
export function auditedCalls(entries: readonly AuditEntry[]): unknown[] {
  return entries
    .filter((e) => e.method === "tools/call")
    .map(({ time: _time, durationMs: _durationMs, ...rest }) => rest);
}

/** A 1.x server whose tools answer with what the SDK server must put on the wire as it is, or mend. */
export function oddServer(): McpServer1 {
  const server = new McpServer1({ name: "odd", version: "1" });
  server.registerTool("listy", { description: "structured content that is no object", inputSchema: {} }, () => ({
    content: [],
    structuredContent: [1, 2, 3] as never,
  }));
  server.registerTool("texty", { description: "structured content and text", inputSchema: {} }, () => ({
    content: [{ type: "text", text: "t" }],
    structuredContent: { a: 1 },
  }));
  server.registerTool("contentless", { description: "no content", inputSchema: {} }, () => ({}) as never);
  server.registerTool("failing", { description: "throws", inputSchema: {} }, () => {
    throw new Error("the backend said no");
  });
  server.registerTool("echo", { description: "echo", inputSchema: { text: z.string().optional() } }, ({ text }) => ({
    content: [{ type: "text", text: text ?? "(none)" }],
    _meta: { "com.example/trace": "t1" },
  }));
  return server;
}

/** The two gateways of a parity suite: each one's `/mcp` URL and audit entries, and `stop()` for both and their upstreams. */
export interface ParityPair {
  urls: Record<Kind, string>;
  audits: Record<Kind, AuditEntry[]>;
  /** The manager both gateways share. */
  manager: MCPManager;
  stop(): Promise<void>;
}

/**
 * Starts the upstreams (the probe 1.x server `p1h`, {@link oddServer} as `odd`, a v2 server `v2`
 * refusing 2025 sessions, and `extra` servers already running), one manager over them, and the two gateways.
 */
export async function startParityPair(extra: Record<string, MCPServerConfig> = {}): Promise<ParityPair> {
  const stops: (() => Promise<void>)[] = [];
  const pair: ParityPair = {
    urls: { fast: "", sdk: "" },
    audits: { fast: [], sdk: [] },
    manager: undefined as never,
    stop: async () => {
      for (const stop of stops.splice(0).reverse()) await stop();
    },
  };
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
    ...extra,
  });
  pair.manager = manager;
  stops.push(() => manager.disconnectAll());
  for (const kind of ["fast", "sdk"] as const) {
    const gateway = createGateway(manager, {
      ...(kind === "fast" ? { handlers } : {}),
      tokens: TOKENS,
      views: VIEWS,
      toolSearch: true,
      fastPath: kind === "fast",
      audit: (entry) => void pair.audits[kind].push(entry),
      auditKey: "one-key",
    });
    const app: Server = createServer((req, res) => void gateway.handle(req, res));
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    pair.urls[kind] = `http://127.0.0.1:${(app.address() as { port: number }).port}/mcp`;
    stops.push(async () => {
      app.closeAllConnections();
      await new Promise<void>((resolve) => app.close(() => resolve()));
      await gateway.close();
    });
  }
  return pair;
}
