// The HTTP gateway's bytes in and out: a request's body read within bounds (size, time) and
// parsed once, a Node request made a web one for the SDK server, and answers written back — a JSON
// answer with its length (a refusal for a caller's limits as HTTP 429), an event stream as it
// comes (or opened at its first event, for the fast path) — with no more than a bound left unread
// by a slow caller.

import type { IncomingMessage, ServerResponse } from "node:http";
import { LIMITED } from "./limits.js";

/** The largest request body read (the SDK's own bound): reading stops there, and the answer is 413. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Default of {@link HttpHandlerOptions.bodyTimeoutMs}. */
export const BODY_TIMEOUT_MS = 30_000;

/** Default of {@link HttpHandlerOptions.unreadTimeoutMs}. */
export const UNREAD_TIMEOUT_MS = 30_000;

/** How much of a large JSON answer is handed to the socket at a time. */
const SLICE_BYTES = 1024 * 1024;

/**
 * The most a caller may leave unread on its stream: past it the caller is cut off (its requests
 * are cancelled) instead of the gateway holding everything an upstream sends for it.
 */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

/** A refusal of the gateway's own (JSON-RPC error -32600, id null) with its HTTP status. */
export function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * A request body, read up to {@link MAX_BODY_BYTES} within `ms`: 413 when it is larger, 408 when
 * it is slower (nothing more is read either way).
 */
export function readBody(req: IncomingMessage, ms: number): Promise<Buffer[] | 408 | 413> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.resolve(413);
  // A caller gone already (during authentication) sends no more events: nothing to wait for.
  if (req.destroyed) return Promise.reject(new Error("the caller closed the request before its body ended"));
  // Events, not an async iterator: the iterator's machinery costs more than the small body it reads.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer[] | 408 | 413, error?: Error): void => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      // Past the limit: read no more (the caller is held back) and answer 413.
      req.pause();
      done(413);
    };
    const onEnd = (): void => done(chunks);
    const onError = (error: Error): void => done(408, error);
    const onClose = (): void => done(408, new Error("the caller closed the request before its body ended"));
    const timer = setTimeout(() => {
      req.pause();
      done(408);
    }, ms);
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/** The URL's path, for the audit log (what a request that is refused names). */
export function pathOf(url: string | undefined): string {
  const at = (url ?? "/").search(/[?#]/);
  return at < 0 ? (url ?? "/") : url!.slice(0, at);
}

/** The JSON-RPC method a parsed body names (the first of a batch), for the audit log. */
export function methodOf(parsed: unknown): string | null {
  const method = ((Array.isArray(parsed) ? parsed[0] : parsed) as { method?: unknown } | undefined)?.method;
  return typeof method === "string" ? method : null;
}

/** The `initialize` a POST body carries (alone, or in a batch, which 2025-03-26 allowed), with its params. */
export function initializeIn(parsed: unknown): { params: Record<string, unknown> } | undefined {
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: unknown };
    if (method === "initialize")
      return {
        params:
          typeof params === "object" && params !== null && !Array.isArray(params)
            ? (params as Record<string, unknown>)
            : {},
      };
  }
  return undefined;
}

/** A request's body, parsed once: undefined when it has none or it is not JSON (the SDK then answers the parse error). */
export function parseBody(req: IncomingMessage, chunks: Buffer[]): unknown {
  if (chunks.length === 0 || req.method === "GET" || req.method === "HEAD") return undefined;
  try {
    return JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The web-standard request of a Node one, for the SDK server. */
export function toRequest(req: IncomingMessage, chunks: Buffer[], origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(`${origin}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    signal,
    ...(body ? { body } : {}),
  });
}

/**
 * For a JSON answer that is the gateway's own refusal for a caller's limits (JSON-RPC error 429):
 * the seconds to wait, which the HTTP answer then says too (429, `Retry-After`). Small bodies only,
 * and only those holding that code are parsed.
 */
function limitOf(body: Buffer): number | undefined {
  if (body.length > 2048 || !body.includes(`"code":${LIMITED},`)) return undefined;
  try {
    const error = (
      JSON.parse(body.toString("utf8")) as { error?: { code?: unknown; data?: { retryAfterMs?: unknown } } }
    ).error;
    if (error?.code !== LIMITED) return undefined;
    const ms = error.data?.retryAfterMs;
    return typeof ms === "number" ? Math.max(1, Math.ceil(ms / 1000)) : 1;
  } catch {
    return undefined;
  }
}

/**
 * Writes a whole answer's body: at once when it is at most {@link MAX_UNREAD_BYTES}; else a slice
 * at a time, no more than that waiting unread, and a caller that reads nothing for `stallMs` is
 * cut off (the answer is dropped with it).
 */
export function writeBody(res: ServerResponse, body: Buffer, stallMs: number): void {
  if (body.length <= MAX_UNREAD_BYTES) return void res.end(body);
  let at = 0;
  let timer: NodeJS.Timeout | undefined;
  const pump = (): void => {
    clearTimeout(timer);
    while (at < body.length && !res.destroyed) {
      const end = Math.min(body.length, at + SLICE_BYTES);
      const last = end === body.length;
      if (last) res.end(body.subarray(at, end));
      else res.write(body.subarray(at, end));
      at = end;
      if (!last && res.writableLength >= MAX_UNREAD_BYTES) {
        res.once("drain", pump);
        timer = setTimeout(() => res.destroy(), stallMs);
        return;
      }
    }
  };
  res.once("close", () => {
    clearTimeout(timer);
    res.off("drain", pump);
  });
  pump();
}

/** A JSON answer (as `send` writes the SDK server's): a refusal for the caller's limits is also HTTP 429. */
export function sendJson(res: ServerResponse, text: string, stallMs: number, status = 200): void {
  const body = Buffer.from(text);
  const limited = limitOf(body);
  res.writeHead(limited === undefined ? status : 429, {
    "content-type": "application/json",
    "content-length": String(body.length),
    ...(limited === undefined ? {} : { "retry-after": String(limited) }),
  });
  writeBody(res, body, stallMs);
}

export async function send(res: ServerResponse, response: Response, stallMs = UNREAD_TIMEOUT_MS): Promise<void> {
  const headers = Object.fromEntries(response.headers.entries());
  if (!response.body) return void res.writeHead(response.status, headers).end();
  // A JSON answer goes out with its length, as the caller reads it; an event stream as it comes.
  if (!(headers["content-type"] ?? "").includes("text/event-stream")) {
    const body = Buffer.from(await response.arrayBuffer());
    const limited = limitOf(body);
    const status = limited === undefined ? response.status : 429;
    res.writeHead(status, {
      ...headers,
      "content-length": String(body.length),
      ...(limited === undefined ? {} : { "retry-after": String(limited) }),
    });
    return writeBody(res, body, stallMs);
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (next.done) break;
    // Read on, so nothing piles up unseen; a caller that leaves this much unread is cut off.
    if (res.writableLength > MAX_UNREAD_BYTES) {
      res.destroy();
      void reader.cancel().catch(() => {});
      return;
    }
    res.write(next.value);
  }
  res.end();
}

/** How often the SDK's transports write a keep-alive comment on a waiting event stream (ms). */
const KEEP_ALIVE_MS = 15_000;

/** An event stream opened at its first event, as the SDK's per-request transport opens one. */
export interface LazyStream {
  /** Writes `message` as an `event: message` (the head first, when this is the first). */
  event: (message: unknown) => void;
  /** Whether the stream is open (an event was written). */
  readonly open: boolean;
  /** Writes `text` (a JSON-RPC message) as the last event and ends the stream. */
  end(text: string): void;
}

/**
 * The answer of a 2026-07-28 request as an event stream, opened when its first event comes: the SDK
 * per-request transport's headers (in the order a web Response's are written), each message an
 * `event: message`, keep-alive comments while it waits; a caller that leaves more than
 * {@link MAX_UNREAD_BYTES} unread is cut off.
 */
export function lazyStream(res: ServerResponse): LazyStream {
  let timer: NodeJS.Timeout | undefined;
  const write = (text: string): void => {
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > MAX_UNREAD_BYTES) return void res.destroy();
    res.write(text);
  };
  const frame = (text: string): void => write(`event: message\ndata: ${text}\n\n`);
  const stream: LazyStream = {
    open: false,
    event: (message) => {
      if (!stream.open) {
        (stream as { open: boolean }).open = true;
        res.writeHead(200, {
          "cache-control": "no-cache, no-transform",
          connection: "keep-alive",
          "content-type": "text/event-stream",
          "x-accel-buffering": "no",
        });
        res.flushHeaders();
        timer = setInterval(() => write(": keepalive\n\n"), KEEP_ALIVE_MS);
        timer.unref();
        res.once("close", () => clearInterval(timer));
      }
      frame(JSON.stringify(message));
    },
    end: (text) => {
      clearInterval(timer);
      frame(text);
      if (!res.destroyed) res.end();
    },
  };
  return stream;
}
