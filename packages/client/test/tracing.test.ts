// OpenTelemetry: with @opentelemetry/api installed and an SDK registered (an in-memory exporter
// here), each request is a client span and its trace context reaches the server in `_meta`.
import { context, propagation, trace, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  callTool,
  connectToServer,
  disconnectServer,
  listTools,
  type ConnectOptions,
  type MCPServerConnection,
} from "../src/index.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

let server: V2HttpServer;
const open: MCPServerConnection[] = [];
beforeAll(async () => {
  server = await startV2HttpServer();
});
afterAll(() => server.stop());
afterEach(async () => {
  for (const conn of open.splice(0)) await disconnectServer(conn);
  exporter.reset();
});
async function connect(options: ConnectOptions = {}): Promise<MCPServerConnection> {
  const conn = await connectToServer("v2", { type: "http", url: server.url, timeout: 10_000 }, options);
  open.push(conn);
  return conn;
}
/** The `_meta` of the last request the server received for `method`. */
function metaOf(method: string): Record<string, unknown> {
  const body = server.requests.filter((r) => r.body.includes(`"method":"${method}"`)).at(-1)!.body;
  return (JSON.parse(body) as { params: { _meta?: Record<string, unknown> } }).params._meta ?? {};
}

describe("OpenTelemetry", () => {
  for (const protocol of [undefined, "2025"] as const) {
    it(`each request is a client span under the caller's, and the server gets its traceparent in _meta (${protocol ?? "2026-07-28"})`, async () => {
      const conn = await connect(protocol ? { protocol } : {});
      const tracer = trace.getTracer("test");
      await tracer.startActiveSpan("agent step", async (parent) => {
        await listTools(conn);
        await callTool(conn, "add", { a: 2, b: 3 });
        parent.end();
      });
      const spans = exporter.getFinishedSpans();
      const parent = spans.find((s) => s.name === "agent step")!;
      const call = spans.find((s) => s.name === "tools/call add")!;
      expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(["tools/list", "tools/call add", "agent step"]));
      expect(call.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(call.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(call.kind).toBe(2); // CLIENT
      expect(call.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "add",
        "mcp.server.name": "v2",
        "mcp.protocol.version": conn.protocolVersion,
        "network.transport": "tcp",
      });
      expect(call.status.code).toBe(SpanStatusCode.UNSET);
      expect(metaOf("tools/call")["traceparent"]).toBe(
        `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`,
      );
      // 2026-07-28 over HTTP: the same context in the request's traceparent header too.
      const header = server.requests.filter((r) => r.body.includes('"method":"tools/call"')).at(-1)!.headers
        .traceparent;
      expect(header).toBe(protocol ? undefined : `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
    });
  }

  it("a failed request ends its span with an error and the error's type; a tool's isError is a tool_error", async () => {
    const conn = await connect();
    // Arguments the tool's schema refuses: the SDK answers with an isError result.
    await expect(callTool(conn, "add", { a: "two", b: 3 })).resolves.toMatchObject({ isError: true });
    await expect(callTool(conn, "no-such-tool", {})).rejects.toMatchObject({ code: -32602 });
    const [toolError, rpcError] = ["tools/call add", "tools/call no-such-tool"].map((name) =>
      exporter.getFinishedSpans().find((s) => s.name === name)!,
    );
    expect(toolError!.status.code).toBe(SpanStatusCode.ERROR);
    expect(toolError!.attributes["error.type"]).toBe("tool_error");
    expect(rpcError!.status.code).toBe(SpanStatusCode.ERROR);
    expect(rpcError!.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
    expect(rpcError!.events.map((e) => e.name)).toContain("exception");
  });

  it("tracing: false: no span, no traceparent", async () => {
    const conn = await connect({ tracing: false });
    await trace.getTracer("test").startActiveSpan("outer", async (outer) => {
      await callTool(conn, "add", { a: 1, b: 1 });
      outer.end();
    });
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["outer"]);
    expect(metaOf("tools/call")["traceparent"]).toBeUndefined();
  });

  it("a program where @opentelemetry/api cannot be loaded from the client works untraced, even with a propagator registered", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-otel-"));
    try {
      const client = pathToFileURL(fileURLToPath(new URL("../dist/index.js", import.meta.url))).href;
      // The program itself registers a propagator (it can load the API); only @mcp/client cannot.
      const script = join(fileURLToPath(new URL(".", import.meta.url)), `otel-child-${process.pid}.mjs`);
      const hook = `export async function resolve(specifier, context, next) { if (specifier === "@opentelemetry/api" && String(context.parentURL).includes("/packages/client/dist/")) { const error = new Error("blocked"); error.code = "ERR_MODULE_NOT_FOUND"; throw error; } return next(specifier, context); }`;
      writeFileSync(join(dir, "hook.mjs"), hook);
      writeFileSync(
        script,
        `import { register } from "node:module";
if (process.argv[3] === "block") register(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)});
const { propagation, trace, context } = await import("@opentelemetry/api");
const { W3CTraceContextPropagator } = await import("@opentelemetry/core");
const { BasicTracerProvider } = await import("@opentelemetry/sdk-trace-base");
trace.setGlobalTracerProvider(new BasicTracerProvider());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const { connectToServer, callTool, disconnectServer } = await import(${JSON.stringify(client)});
const conn = await connectToServer("v2", { type: "http", url: process.argv[2] });
const result = await callTool(conn, "add", { a: 20, b: 22 });
await disconnectServer(conn);
console.log(result.content[0].text);
`,
      );
      try {
        for (const mode of ["block", "allow"]) {
          const before = server.requests.length;
          // Not spawnSync: the server answering the child runs in this process.
          const run = await promisify(execFile)(process.execPath, [script, server.url, mode], {
            encoding: "utf8",
            timeout: 30_000,
          });
          expect(run.stderr).toBe("");
          expect(run.stdout.trim()).toBe("42");
          const call = server.requests.slice(before).find((r) => r.body.includes('"method":"tools/call"'))!;
          const meta = (JSON.parse(call.body) as { params: { _meta?: Record<string, unknown> } }).params._meta ?? {};
          // Blocked: no trace context at all; allowed (the control): the client traced the call.
          expect(meta["traceparent"] !== undefined, mode).toBe(mode === "allow");
        }
      } finally {
        rmSync(script, { force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
