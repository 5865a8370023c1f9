import type { RequestOptions } from "@mcp/jsonrpc";
import { withMeta } from "@mcp/jsonrpc/internal";
import { CLIENT_VERSION } from "./version.js";

// OpenTelemetry for MCP requests: a client span per request (method, target, server, outcome),
// and its W3C trace context (`traceparent`, `tracestate`) in the request's `_meta`, where MCP
// servers look for it. Only `@opentelemetry/api` is used, and only when the program has it.

/**
 * The part of `@opentelemetry/api` used here; the real module fits it. `getTracerProvider`,
 * `getSpan` and `fields` say whether a request has anything to trace (see {@link traceRequests});
 * an API without them has every request traced.
 */
export interface TracingApi {
  trace: {
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(
        name: string,
        options: { kind: number; attributes: Record<string, string | number | boolean> },
        context: unknown,
      ): TracingSpan;
    };
    setSpan(context: unknown, span: TracingSpan): unknown;
    /** The API's global provider: a proxy whose `getDelegateTracer` is undefined until a provider is registered. */
    getTracerProvider?(): unknown;
    getSpan?(context: unknown): unknown;
  };
  context: { active(): unknown };
  propagation: { inject(context: unknown, carrier: Record<string, string>): void; fields?(): string[] };
}

interface TracingSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(error: Error): unknown;
  end(): void;
}

const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

type Request = <T>(method: string, params?: object, options?: RequestOptions) => Promise<T>;

/** What every span of one connection says about it. */
export interface TracedConnection {
  server: string;
  protocolVersion: string;
  transport: "stdio" | "http";
}

const TRACER_NAME = "@mcp/client";

/**
 * Whether a request now has anything to trace. With the API installed but no tracer provider
 * registered a span records nothing, and all it could still do is pass on a trace context the
 * program made active itself (say, one extracted from an incoming request), which needs a
 * propagator. With neither a provider nor a propagator, nothing is traced, and that is looked up
 * once per turn of the event loop (a pipelined burst pays it once); a provider or propagator
 * registered later counts from the next turn.
 */
function tracingCheck(api: TracingApi): () => boolean {
  const { trace, propagation } = api;
  if (trace.getTracerProvider === undefined || trace.getSpan === undefined || propagation.fields === undefined)
    return () => true;
  /** Nothing registered that a request could use, as of this turn; undefined until looked up. */
  let quiet: boolean | undefined;
  const forget = (): void => {
    quiet = undefined;
  };
  return () => {
    if (quiet === undefined) {
      const provider = trace.getTracerProvider!() as
        { getDelegateTracer?(name: string, version?: string): unknown } | undefined;
      if (
        provider?.getDelegateTracer === undefined ||
        provider.getDelegateTracer(TRACER_NAME, CLIENT_VERSION) !== undefined
      )
        return true;
      quiet = propagation.fields!().length === 0;
      queueMicrotask(forget);
    }
    return !quiet && trace.getSpan!(api.context.active()) !== undefined;
  };
}

/**
 * `request` with a span around each call and its trace context in `_meta`, for each call made
 * while there is something to trace (a tracer provider registered, or an active span and a
 * propagator to pass it on); the others go to `request` as they are.
 */
export function traceRequests(api: TracingApi, connection: TracedConnection, request: Request): Request {
  const tracer = api.trace.getTracer(TRACER_NAME, CLIENT_VERSION);
  const traced = async <T>(method: string, params?: object, options?: RequestOptions): Promise<T> => {
    const p = (params ?? {}) as { name?: unknown; uri?: unknown };
    const target =
      method === "tools/call" || method === "prompts/get" ? p.name : method === "resources/read" ? p.uri : undefined;
    const attributes: Record<string, string | number | boolean> = {
      "mcp.method.name": method,
      "mcp.protocol.version": connection.protocolVersion,
      "mcp.server.name": connection.server,
      "network.transport": connection.transport === "stdio" ? "pipe" : "tcp",
    };
    if (typeof target === "string")
      attributes[
        method === "tools/call"
          ? "gen_ai.tool.name"
          : method === "prompts/get"
            ? "gen_ai.prompt.name"
            : "mcp.resource.uri"
      ] = target;
    const span = tracer.startSpan(
      typeof target === "string" ? `${method} ${target}` : method,
      { kind: SPAN_KIND_CLIENT, attributes },
      api.context.active(),
    );
    const carrier: Record<string, string> = {};
    api.propagation.inject(api.trace.setSpan(api.context.active(), span), carrier);
    const context = carrier["traceparent"] === undefined ? undefined : pick(carrier, ["traceparent", "tracestate"]);
    const traced =
      context === undefined ? params : withMeta(params, pick(carrier, ["traceparent", "tracestate", "baggage"]));
    // Over HTTP (2026-07-28) the same context goes in the request's headers, unless the request gives its own.
    const sent = context === undefined ? options : { ...options, headers: { ...context, ...options?.headers } };
    try {
      const result = await request<T>(method, traced, sent);
      if (method === "tools/call" && (result as { isError?: unknown } | undefined)?.isError === true) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: STATUS_ERROR, message: "the tool reported an error (isError)" });
      }
      return result;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      const code = (failure as { code?: unknown }).code;
      span.setAttribute("error.type", typeof code === "number" ? String(code) : failure.name);
      if (typeof code === "number") span.setAttribute("rpc.response.status_code", String(code));
      span.recordException(failure);
      span.setStatus({ code: STATUS_ERROR, message: failure.message });
      throw error;
    } finally {
      span.end();
    }
  };
  const hasTracing = tracingCheck(api);
  return <T>(method: string, params?: object, options?: RequestOptions): Promise<T> =>
    hasTracing() ? traced<T>(method, params, options) : request<T>(method, params, options);
}

function pick(carrier: Record<string, string>, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (carrier[key] !== undefined) out[key] = carrier[key];
  return out;
}
