// The audit log: one entry per request the gateway handles, given to a sink off the request's
// path. Arguments are never written, only a hash of them (SHA-256 of their canonical JSON).

import { createHash } from "node:crypto";
import type { Writable } from "node:stream";
import { LIMITED } from "./limits.js";
import type { Caller } from "./policy.js";

/** What the gateway decided about a request (`held`: not a request; a tool tool pinning holds, see held.ts). */
export type AuditDecision = "allowed" | "denied" | "rate-limited" | "unauthenticated" | "held";

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
  /** SHA-256 (hex) of the canonical JSON of the arguments (keys sorted); never the arguments. */
  argsHash?: string;
  decision: AuditDecision;
  durationMs: number;
  outcome?: AuditOutcome;
  /** The JSON-RPC error code of an `rpc-error`. */
  code?: number;
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
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** SHA-256 (hex) of `args`' canonical JSON. */
export function argsHash(args: unknown): string {
  return createHash("sha256").update(canonicalJson(args ?? {})).digest("hex");
}

/** Most entries held while the stream is slow; past it the oldest are dropped (and counted). */
const MAX_QUEUED = 10_000;

/**
 * An audit sink writing JSON lines to `stream` (a file opened for appending, or stdout). Entries
 * are queued and written after the request's turn, never blocking it; a stream that fails (a full
 * disk, a closed pipe) is reported once through `onError`, and serving goes on.
 */
export function auditStream(stream: Writable, onError: (error: Error) => void = () => {}): AuditSink & { close(): Promise<void> } {
  let queue: string[] = [];
  let scheduled = false;
  let failed = false;
  let dropped = 0;
  stream.on("error", (error: Error) => {
    if (!failed) onError(error);
    failed = true;
  });
  const flush = (): void => {
    scheduled = false;
    if (queue.length === 0 || stream.destroyed || stream.writableEnded) return void (queue = []);
    const lines = queue.join("");
    queue = [];
    try {
      stream.write(lines);
    } catch (error) {
      if (!failed) onError(error as Error);
      failed = true;
    }
  };
  const sink = ((entry: AuditEntry): void => {
    if (queue.length >= MAX_QUEUED || stream.writableLength > 64 * 1024 * 1024) {
      queue.shift();
      if (dropped++ === 0) onError(new Error("the audit log falls behind: entries are dropped until it catches up"));
    }
    queue.push(`${JSON.stringify(entry)}\n`);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as AuditSink & { close(): Promise<void> };
  sink.close = () =>
    new Promise<void>((resolve) => {
      flush();
      if (stream === process.stdout || stream === process.stderr || stream.destroyed || stream.writableEnded) return resolve();
      stream.end(() => resolve());
    });
  return sink;
}

/** One request's audit entry, from what its handler noted and how it ended. */
export function auditEntry(scope: { caller: Caller; endpoint?: string | undefined }, method: string, note: Note, started: number, ended: { result?: unknown; error?: unknown }, cancelled: boolean): AuditEntry {
  const { error } = ended;
  const code = (error as { code?: unknown } | undefined)?.code;
  const limited = typeof code === "number" && code === LIMITED;
  const decision: AuditDecision = note.decision ?? (limited ? "rate-limited" : "allowed");
  let outcome: AuditOutcome | undefined;
  if (decision === "allowed") {
    if (error === undefined) outcome = (ended.result as { isError?: unknown } | undefined)?.isError === true ? "tool-error" : "ok";
    else if (cancelled) outcome = "cancelled";
    else if ((error as { data?: { code?: unknown } }).data?.code === "request_timeout") outcome = "timeout";
    else outcome = "rpc-error";
  }
  return {
    time: new Date(started).toISOString(),
    caller: scope.caller.name,
    callerId: scope.caller.id,
    endpoint: scope.endpoint ?? "",
    method,
    ...(note.server === undefined ? {} : { server: note.server }),
    ...(note.tool === undefined ? {} : { tool: note.tool }),
    ...(note.viewTool === undefined ? {} : { viewTool: note.viewTool }),
    ...(note.prompt === undefined ? {} : { prompt: note.prompt }),
    ...(note.resource === undefined ? {} : { resource: note.resource }),
    ...(note.args === undefined ? {} : { argsHash: argsHash(note.args) }),
    decision,
    durationMs: Date.now() - started,
    ...(outcome === undefined ? {} : { outcome }),
    ...(outcome === "rpc-error" && typeof code === "number" ? { code } : {}),
  };
}
