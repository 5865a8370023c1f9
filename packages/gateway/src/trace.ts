// W3C trace context (https://www.w3.org/TR/trace-context/): a caller's `traceparent` and
// `tracestate` headers, checked, for the upstream requests of that caller's call.

import type { IncomingHttpHeaders } from "node:http";

/** A caller's trace context: `traceparent` valid, `tracestate` only with it. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

// version 00's form: version-traceid-parentid-flags, lowercase hex; version ff is invalid.
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
/** The longest `tracestate` passed on (the spec's 32 members of at most 256 characters is far more; 512 is what it asks to propagate at least). */
const MAX_TRACESTATE = 512;

/** The request's trace context, or `undefined` when it has none or a malformed `traceparent` (dropped, as the spec says). */
export function traceOf(headers: IncomingHttpHeaders): TraceContext | undefined {
  const parent = headers.traceparent;
  if (typeof parent !== "string" || !TRACEPARENT.test(parent)) return undefined;
  const state = headers.tracestate;
  const keep = typeof state === "string" && state.length <= MAX_TRACESTATE && /^[\x20-\x7e]+$/.test(state);
  return keep ? { traceparent: parent, tracestate: state } : { traceparent: parent };
}

/** The trace id of a `traceparent` (its second field), for the audit log. */
export function traceIdOf(trace: TraceContext): string {
  return trace.traceparent.slice(3, 35);
}
