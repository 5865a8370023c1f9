// The audit log: one entry per request the gateway handles, given to a sink off the request's
// path. Arguments are never written, only a keyed hash of them (HMAC-SHA-256 of their canonical
// JSON, under a key of the deployment's). What callers choose (names, URIs, paths) is cut to
// MAX_FIELD_CHARS, and the queue behind a slow stream is bounded in bytes.

import { createHmac, randomBytes } from "node:crypto";
import type { Writable } from "node:stream";
import { LIMITED } from "./limits.js";
import type { Caller } from "./policy.js";
import { traceIdOf, type TraceContext } from "./trace.js";

/** What the gateway decided about a request (`held`: not a request; a tool tool pinning holds, see held.ts). */
export type AuditDecision = "allowed" | "denied" | "rate-limited" | "unauthenticated" | "refused" | "held";

/** How an allowed request ended. */
export type AuditOutcome = "ok" | "tool-error" | "rpc-error" | "cancelled" | "timeout";

/**
 * One audit entry (one JSON line). Field names are stable: add, never rename. Fields that do not
 * apply to a request are left out.
 */
export interface AuditEntry {
  /** When the request arrived (ISO 8601). */
  time: string;
  /** The caller's name; `null` before authentication. */
  caller: string | null;
  /** The caller's id (a hash of its token, for `mcp serve`'s callers). */
  callerId?: string;
  /** Where it came: `/mcp`, `/mcp/<server>`, `/mcp/view/<name>`, or `stdio`. */
  endpoint: string;
  /** The JSON-RPC method; `null` when the body was not read (a refused request). */
  method: string | null;
  /** The upstream server it went to. */
  server?: string;
  /** The tool called, as `<server>__<tool>` (its real name, behind a view's). */
  tool?: string;
  /** The tool's name in the view it was called through. */
  viewTool?: string;
  /** The prompt got, as `<server>__<prompt>`. */
  prompt?: string;
  /** The resource URI read (or the reference completed). */
  resource?: string;
  /** HMAC-SHA-256 (hex), under the deployment's audit key, of the canonical JSON of the arguments (keys sorted); never the arguments. */
  argsHash?: string;
  decision: AuditDecision;
  /** The HTTP status of a request refused before any handler took it (`unauthenticated`, `refused`). */
  status?: number;
  durationMs: number;
  outcome?: AuditOutcome;
  /** The JSON-RPC error code of an `rpc-error`. */
  code?: number;
  /** The W3C trace id of the caller's `traceparent`, when it sent a valid one. */
  traceId?: string;
  /** A `held` entry's tool definition hashes: the approved one (absent for a new tool) and the one held. */
  oldHash?: string;
  newHash?: string;
}

/** What a request handler learnt of its request, for the audit log. */
export interface Note {
  server?: string;
  tool?: string;
  viewTool?: string;
  prompt?: string;
  resource?: string;
  args?: unknown;
  /** Set when the policy refused the request. */
  decision?: AuditDecision;
}

/** Where audit entries go. Called off the request's path; must not throw. */
export type AuditSink = (entry: AuditEntry) => void;

/** JSON with every object's keys sorted: the same arguments always give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * HMAC-SHA-256 (hex) of `args`' canonical JSON under `key` (the deployment's audit key): without
 * the key, low-entropy arguments cannot be found by hashing guesses.
 */
export function argsHash(args: unknown, key: string | Uint8Array): string {
  return createHmac("sha256", key)
    .update(canonicalJson(args ?? {}))
    .digest("hex");
}

/** A random audit key: hashes made with it compare only within this process. */
export function randomAuditKey(): Uint8Array {
  return randomBytes(32);
}

/** The longest a string field of an entry is written (names, URIs, paths a caller chose). */
export const MAX_FIELD_CHARS = 256;

/** A caller's string, cut to {@link MAX_FIELD_CHARS} (saying how long it was). */
export function capField(value: string): string;
export function capField(value: string | null): string | null;
export function capField(value: string | null): string | null {
  if (value === null || value.length <= MAX_FIELD_CHARS) return value;
  return `${value.slice(0, MAX_FIELD_CHARS)}…(${value.length} chars)`;
}

/**
 * Most bytes the audit log holds while its stream is slow: what is queued here and what the stream
 * has not written yet. Past it the oldest queued entries are dropped (counted, said once).
 */
export const MAX_AUDIT_BYTES = 8 * 1024 * 1024;

/** One entry as a JSON line; U+2028, U+2029 and U+0085 escaped (JSON leaves them raw, and line readers split on them). */
export function auditLine(entry: AuditEntry): string {
  return `${JSON.stringify(entry).replace(/[\u2028\u2029\u0085]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}

/** An audit sink writing to a stream; `pending` is the bytes it holds now (queued, and not yet written by the stream). */
export type AuditStreamSink = AuditSink & { readonly pending: number; close(): Promise<void> };

/**
 * An audit sink writing JSON lines to `stream` (a file opened for appending, or stdout). Entries
 * are queued and written after the request's turn, never blocking it; at most
 * {@link MAX_AUDIT_BYTES} are held while the stream is slow (the oldest queued are dropped, said
 * once). A stream that fails (a full disk, a closed pipe) is reported once through `onError`, and
 * serving goes on.
 */
export function auditStream(stream: Writable, onError: (error: Error) => void = () => {}): AuditStreamSink {
  let queue: string[] = [];
  /** The UTF-8 bytes of each queued line (what a stream holds of it), and their sum. */
  let sizes: number[] = [];
  let queued = 0;
  let scheduled = false;
  let waiting = false;
  let failed = false;
  let dropped = 0;
  stream.on("error", (error: Error) => {
    if (!failed) onError(error);
    failed = true;
  });
  const flush = (): void => {
    scheduled = false;
    if (queue.length === 0 || stream.destroyed || stream.writableEnded) {
      queue = [];
      sizes = [];
      queued = 0;
      return;
    }
    // The stream holds its own share: more goes in once it drains.
    if (stream.writableLength >= MAX_AUDIT_BYTES / 2) {
      if (!waiting) {
        waiting = true;
        stream.once("drain", () => {
          waiting = false;
          flush();
        });
      }
      return;
    }
    const lines = queue.join("");
    queue = [];
    sizes = [];
    queued = 0;
    try {
      stream.write(lines);
    } catch (error) {
      if (!failed) onError(error as Error);
      failed = true;
    }
  };
  const sink = ((entry: AuditEntry): void => {
    const line = auditLine(entry);
    const size = Buffer.byteLength(line);
    while (queue.length > 0 && queued + stream.writableLength + size > MAX_AUDIT_BYTES) {
      queue.shift();
      queued -= sizes.shift()!;
      if (dropped++ === 0) onError(new Error("the audit log falls behind: entries are dropped until it catches up"));
    }
    if (queued + stream.writableLength + size > MAX_AUDIT_BYTES) {
      if (dropped++ === 0) onError(new Error("the audit log falls behind: entries are dropped until it catches up"));
      return;
    }
    queue.push(line);
    sizes.push(size);
    queued += size;
    if (!scheduled && !waiting) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as AuditStreamSink;
  Object.defineProperty(sink, "pending", { get: () => queued + stream.writableLength });
  sink.close = () =>
    new Promise<void>((resolve) => {
      if (queue.length > 0 && !stream.destroyed && !stream.writableEnded) {
        const lines = queue.join("");
        queue = [];
        sizes = [];
        queued = 0;
        stream.write(lines);
      }
      if (stream === process.stdout || stream === process.stderr || stream.destroyed || stream.writableEnded)
        return resolve();
      stream.end(() => resolve());
    });
  return sink;
}

/**
 * The entry of an HTTP request refused before any handler took it: `unauthenticated` (401) when it
 * had no caller, else `refused` with its status (a foreign Host or Origin, a path that serves
 * nothing, a body too big or too slow, no session, another caller's session, …).
 */
export function refusedEntry(
  endpoint: string,
  status: number,
  caller: Caller | undefined,
  method: string | null,
): AuditEntry {
  const who = caller ? { caller: caller.name, callerId: caller.id } : { caller: null };
  return {
    time: new Date().toISOString(),
    ...who,
    endpoint: capField(endpoint),
    method: capField(method),
    decision: status === 401 ? "unauthenticated" : "refused",
    status,
    durationMs: 0,
  };
}

/** One request's audit entry, from what its handler noted and how it ended. */
export function auditEntry(
  scope: { caller: Caller; endpoint?: string | undefined; trace?: TraceContext | undefined },
  method: string,
  note: Note,
  started: number,
  ended: { result?: unknown; error?: unknown },
  cancelled: boolean,
  key: string | Uint8Array,
): AuditEntry {
  const { error } = ended;
  const code = (error as { code?: unknown } | undefined)?.code;
  const limited = typeof code === "number" && code === LIMITED;
  const decision: AuditDecision = note.decision ?? (limited ? "rate-limited" : "allowed");
  let outcome: AuditOutcome | undefined;
  if (decision === "allowed") {
    if (error === undefined)
      outcome = (ended.result as { isError?: unknown } | undefined)?.isError === true ? "tool-error" : "ok";
    else if (cancelled) outcome = "cancelled";
    else if ((error as { data?: { code?: unknown } }).data?.code === "request_timeout") outcome = "timeout";
    else outcome = "rpc-error";
  }
  return {
    time: new Date(started).toISOString(),
    caller: scope.caller.name,
    callerId: scope.caller.id,
    endpoint: capField(scope.endpoint ?? ""),
    method: capField(method),
    ...(note.server === undefined ? {} : { server: capField(note.server) }),
    ...(note.tool === undefined ? {} : { tool: capField(note.tool) }),
    ...(note.viewTool === undefined ? {} : { viewTool: capField(note.viewTool) }),
    ...(note.prompt === undefined ? {} : { prompt: capField(note.prompt) }),
    ...(note.resource === undefined ? {} : { resource: capField(note.resource) }),
    ...(note.args === undefined ? {} : { argsHash: argsHash(note.args, key) }),
    decision,
    durationMs: Date.now() - started,
    ...(outcome === undefined ? {} : { outcome }),
    ...(outcome === "rpc-error" && typeof code === "number" ? { code } : {}),
    ...(scope.trace ? { traceId: traceIdOf(scope.trace) } : {}),
  };
}

/**
 * A request handler of `scope` for `method`, audited when there is a `sink` (one entry per
 * request, built and written after the request's turn); without one, `run` is all there is.
 */
export function audited<A extends [unknown, { mcpReq: { signal: AbortSignal } }?], R>(
  sink: AuditSink | undefined,
  key: string | Uint8Array,
  scope: Parameters<typeof auditEntry>[0],
  method: string,
  run: (note: Note, ...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  if (!sink) return (...args) => run({}, ...args);
  return async (...args) => {
    const started = Date.now();
    const note: Note = {};
    const emit = (outcome: { result?: unknown; error?: unknown }): void => {
      // Whether the caller had gone when the request ended (not later: its response closing aborts the signal too).
      const cancelled = args[1]?.mcpReq.signal.aborted === true;
      setImmediate(() => {
        try {
          sink(auditEntry(scope, method, note, started, outcome, cancelled, key));
        } catch {
          // A sink that throws loses its entry, not the gateway.
        }
      });
    };
    try {
      const result = await run(note, ...args);
      emit({ result });
      return result;
    } catch (error) {
      emit({ error });
      throw error;
    }
  };
}
