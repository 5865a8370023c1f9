// The gateway's own OpenTelemetry spans: a server span per tool call, continuing the caller's W3C
// trace context, active while the call goes upstream, so that @mcp/client's span of the upstream
// request is its child and that span's context is what the server gets. One trace shows caller →
// gateway → server. Only the API given is used (duck-typed: `@opentelemetry/api` fits); without it,
// nothing is done (one property check per call).

import type { TraceContext } from "./trace.js";

/** A span, as much of it as the gateway uses. */
export interface GatewaySpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(error: { name: string; message: string; code?: number }): unknown;
  end(): void;
}

/** The part of `@opentelemetry/api` the gateway uses; the module itself fits it. */
export interface GatewayTracing {
  trace: {
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(
        name: string,
        options: { kind: number; attributes: Record<string, string | number | boolean> },
        context: unknown,
      ): GatewaySpan;
    };
    setSpan(context: unknown, span: GatewaySpan): unknown;
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  propagation: { extract(context: unknown, carrier: Record<string, string>): unknown };
}

const SPAN_KIND_SERVER = 1;
const STATUS_ERROR = 2;

/**
 * Runs `run` (a tool call going upstream) inside a server span named `tools/call <name>`, whose
 * parent is the caller's trace context (`trace`, its `traceparent`), else the active context.
 */
export async function inSpan<T>(
  api: GatewayTracing,
  trace: TraceContext | undefined,
  name: string,
  attributes: Record<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  const active = api.context.active();
  const parent = trace ? api.propagation.extract(active, { ...trace }) : active;
  const span = api.trace.getTracer("@mcp/gateway").startSpan(
    `tools/call ${name}`,
    {
      kind: SPAN_KIND_SERVER,
      attributes: { "mcp.method.name": "tools/call", "gen_ai.tool.name": name, ...attributes },
    },
    parent,
  );
  try {
    return await api.context.with(api.trace.setSpan(parent, span), run);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const code = (failure as { code?: unknown }).code;
    span.setAttribute("error.type", typeof code === "number" ? String(code) : failure.name);
    // URLs' queries are left out: a consent link's id, a code or a state is nobody's to read in traces.
    const message = failure.message.replace(/\?\S*/g, "?…");
    span.recordException({ name: failure.name, message, ...(typeof code === "number" ? { code } : {}) });
    span.setStatus({ code: STATUS_ERROR, message });
    throw error;
  } finally {
    span.end();
  }
}
