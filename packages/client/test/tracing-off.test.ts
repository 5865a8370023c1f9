// OpenTelemetry installed, nothing registered: a feature nobody turned on costs nothing. No span is
// started for a request while no tracer provider is registered and no span is active; a provider
// registered later traces the next request, and a trace context the program made active itself is
// still passed on. (Its own file: the registrations here are global to the process.)
import * as api from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectToServer, disconnectServer } from "../src/index.js";
import type { TracingApi } from "../src/tracing.js";

let server: V2HttpServer;
beforeAll(async () => {
  server = await startV2HttpServer();
});
afterAll(async () => {
  api.trace.disable();
  api.propagation.disable();
  api.context.disable();
  await server.stop();
});

/** The `_meta` of the last tools/call the server received. */
function lastCallMeta(): Record<string, unknown> {
  const body = server.requests.filter((r) => r.body.includes('"method":"tools/call"')).at(-1)!.body;
  return (JSON.parse(body) as { params: { _meta?: Record<string, unknown> } }).params._meta ?? {};
}

describe("OpenTelemetry installed, no tracer provider", () => {
  for (const protocol of [undefined, "2025"] as const) {
    it(`starts no span and adds nothing to _meta until a provider is registered; an active trace context is still passed on by a propagator (${protocol ?? "2026-07-28"})`, async () => {
      // The real API, its tracers counted: every span the client starts goes through them.
      let started = 0;
      const counted = Object.create(api.trace, {
        getTracer: {
          value: (name: string, version?: string) => {
            const tracer = api.trace.getTracer(name, version);
            return {
              startSpan: (...args: Parameters<typeof tracer.startSpan>) => (started++, tracer.startSpan(...args)),
            };
          },
        },
      }) as typeof api.trace;
      const tracing: TracingApi = { trace: counted, context: api.context, propagation: api.propagation };
      const conn = await connectToServer(
        "v2",
        { type: "http", url: server.url, timeout: 10_000 },
        { tracing, ...(protocol ? { protocol } : {}) },
      );
      try {
        await expect(callTool(conn, "add", { a: 2, b: 3 })).resolves.toMatchObject({ content: [{ text: "5" }] });
        expect(started).toBe(0);
        expect(lastCallMeta()["traceparent"]).toBeUndefined();
        // A context made active with no propagator registered: nothing could carry it; still no span.
        const incoming = api.trace.setSpanContext(api.ROOT_CONTEXT, {
          traceId: "0af7651916cd43dd8448eb211c80319c",
          spanId: "b7ad6b7169203331",
          traceFlags: 1,
        });
        api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
        await api.context.with(incoming, () => callTool(conn, "add", { a: 1, b: 2 }));
        expect(started).toBe(0);
        expect(lastCallMeta()["traceparent"]).toBeUndefined();

        // A context the program made active (extracted from an incoming request, say), with a
        // propagator and a context manager but still no provider: its trace context goes on.
        api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
        await api.context.with(incoming, () => callTool(conn, "add", { a: 1, b: 1 }));
        expect(lastCallMeta()["traceparent"]).toBe("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

        // A provider registered after the connection was made: the next request is a span.
        const exporter = new InMemorySpanExporter();
        const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
        api.trace.setGlobalTracerProvider(provider);
        await callTool(conn, "add", { a: 4, b: 4 });
        const span = exporter.getFinishedSpans().find((s) => s.name === "tools/call add")!;
        expect(span).toBeDefined();
        expect(lastCallMeta()["traceparent"]).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
        await provider.shutdown();
      } finally {
        await disconnectServer(conn);
        api.trace.disable();
        api.propagation.disable();
        api.context.disable();
      }
    });
  }
});
