// The gateway's own spans (OpenTelemetry, an in-memory exporter): a caller's span (made here, its
// context sent as `traceparent`), the gateway's server span continuing it, and @mcp/client's span
// of the upstream request under the gateway's, whose context reaches the SDK v2 upstream in its
// `traceparent` header and `_meta`: one trace, three linked spans. Without `tracing`, the gateway
// makes no span and forwards the caller's header as it came.
import * as otel from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { oidcGateway, type OidcGateway } from "./oidc-helpers.js";

const { context, propagation, trace, SpanKind } = otel;
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const TOKEN = "span-caller-token-0123456789";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** A 2026-07-28 tools/call of `name` with these headers added. */
function call(
  url: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args, _meta: META },
    }),
  });
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

describe("the gateway's spans: caller → gateway → server in one trace", () => {
  let upstream: V2HttpServer;
  let traced: OidcGateway;
  let plain: OidcGateway;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    upstream = await startV2HttpServer({ legacy: "reject" });
    const tokens = new Map([[TOKEN, { id: "caller", name: "caller" }]]);
    [traced, plain] = await Promise.all([
      oidcGateway(upstream.url, () => ({ tokens, tracing: otel })),
      oidcGateway(upstream.url, () => ({ tokens })),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([traced?.stop(), plain?.stop()]);
    await upstream?.stop();
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  afterEach(() => exporter.reset());

  /** Sends a call inside a caller span made here; returns the caller span's context and the upstream's tools/call request. */
  const callerCall = async (
    url: string,
    a: number,
  ): Promise<{ caller: otel.SpanContext; upstream: V2HttpServer["requests"][number] }> => {
    const tracer = trace.getTracer("test-caller");
    const span = tracer.startSpan("caller step", { kind: SpanKind.CLIENT });
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), carrier);
    const response = await call(url, "up__add", { a, b: 1 }, carrier);
    expect(((await response.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe(
      String(a + 1),
    );
    span.end();
    const request = upstream.requests.find(
      (r) => r.headers["mcp-method"] === "tools/call" && r.body.includes(`"a":${a}`),
    )!;
    return { caller: span.spanContext(), upstream: request };
  };

  it("three spans linked: the caller's, the gateway's server span under it, the upstream call's under that; the server gets the last one's context", async () => {
    const { caller, upstream: request } = await callerCall(traced.url, 52);
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === caller.traceId);
    const gateway = spans.find((s) => s.instrumentationScope.name === "@mcp/gateway")!;
    const client = spans.find((s) => s.instrumentationScope.name === "@mcp/client" && s.name === "tools/call add")!;
    expect(spans.map((s) => s.name).sort()).toEqual(["caller step", "tools/call add", "tools/call up__add"]);
    expect(gateway).toMatchObject({
      name: "tools/call up__add",
      kind: SpanKind.SERVER,
      attributes: { "gen_ai.tool.name": "up__add", "mcp.server.name": "up" },
    });
    expect(parentOf(gateway)).toBe(caller.spanId);
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(client)).toBe(gateway.spanContext().spanId);
    const expected = `00-${caller.traceId}-${client.spanContext().spanId}-01`;
    expect(request.headers.traceparent).toBe(expected);
    expect((JSON.parse(request.body) as { params: { _meta: { traceparent?: string } } }).params._meta.traceparent).toBe(
      expected,
    );
  });

  it("without tracing the gateway makes no span, and forwards the caller's traceparent as it came", async () => {
    const { caller, upstream: request } = await callerCall(plain.url, 53);
    expect(request.headers.traceparent).toBe(`00-${caller.traceId}-${caller.spanId}-01`);
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === caller.traceId);
    expect(spans.filter((s) => s.instrumentationScope.name === "@mcp/gateway")).toEqual([]);
    expect(spans.map((s) => s.name)).toEqual(["caller step"]);
  });
});
