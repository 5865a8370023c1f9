// The gateway over Streamable HTTP, as a request handler for a node:http server: `<path>` serves
// every server, `<path>/<name>` one. Every request needs a caller (the `authenticate` given, or a
// bearer token); Host and Origin must name this gateway (DNS rebinding). 2026-07-28 requests are
// stateless (any replica can answer them); 2025-era callers get a session each, so the gateway can
// ask them for sampling and elicitation.

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpHttpHandler } from "@modelcontextprotocol/server";
import { plainCall, serveFast } from "./fast.js";
import type { Gateway } from "./gateway.js";
import { LIMITED } from "./limits.js";
import { createInstance } from "./instance.js";
import { AuthRefusal } from "./refusal.js";
import { traceOf } from "./trace.js";
import type { Caller } from "./policy.js";
import { LegacySessions, refusals, type SessionLimits, type SessionStore, type Target } from "./sessions.js";

/** Who sends a request: its caller, or undefined (answered `401`); an `AuthRefusal` thrown is answered with its status and challenge. */
export type Authenticate = (req: IncomingMessage) => Caller | undefined | Promise<Caller | undefined>;

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /** Where the gateway is mounted: `<path>` serves every server, `<path>/<server>` one. Default `/mcp`. */
  path?: string | undefined;
  /** Who sends each request (your authentication); undefined answers `401`. */
  authenticate: Authenticate;
  /**
   * Names a request's `Host` may give (DNS rebinding): default this machine's loopback names;
   * add the name a load balancer forwards, or `false` when your server checks `Host` itself.
   */
  hosts?: readonly string[] | false | undefined;
  /** Browser origins allowed besides the gateway's own (the host and port a request was sent to). */
  origins?: readonly string[] | undefined;
  /** Where 2025-era sessions are kept for other replicas (none: each replica knows its own). */
  sessions?: SessionStore | undefined;
  /** Bounds on 2025-era sessions (idle time, sessions per caller). */
  sessionLimits?: SessionLimits | undefined;
  /** How long a request's body may take to arrive once its head has (ms); a slower one is cut (`408`). Default 30 s. */
  bodyTimeoutMs?: number | undefined;
  /**
   * How long a caller may read nothing of an answer while {@link MAX_UNREAD_BYTES} of it wait (ms);
   * then it is cut off and the answer's memory freed. Default 30 s.
   */
  unreadTimeoutMs?: number | undefined;
}

/** A node:http request handler serving the gateway; `close()` ends its sessions. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** How many 2025 sessions this replica holds. */
  readonly sessions: number;
  close(): Promise<void>;
}

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

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether a host name (or address) is this machine's loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase());
}

/** The host name of a `Host` header (`[::1]` kept bracketed), its port dropped. */
export function hostnameOf(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
}

/** Whether `origin` is the gateway's own: the scheme aside, the host and port the request was sent to. */
export function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function callerOf(header: string | undefined, callers: ReadonlyMap<string, Caller>): Caller | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!match) return undefined;
  const given = Buffer.from(match[1]!);
  for (const [token, caller] of callers) {
    const want = Buffer.from(token);
    if (want.length === given.length && timingSafeEqual(want, given)) return caller;
  }
  return undefined;
}

/**
 * A request body, read up to {@link MAX_BODY_BYTES} within `ms`: 413 when it is larger, 408 when
 * it is slower (nothing more is read either way).
 */
function readBody(req: IncomingMessage, ms: number): Promise<Buffer[] | 408 | 413> {
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
function pathOf(url: string | undefined): string {
  const at = (url ?? "/").search(/[?#]/);
  return at < 0 ? (url ?? "/") : url!.slice(0, at);
}

/** The JSON-RPC method a parsed body names (the first of a batch), for the audit log. */
function methodOf(parsed: unknown): string | null {
  const method = ((Array.isArray(parsed) ? parsed[0] : parsed) as { method?: unknown } | undefined)?.method;
  return typeof method === "string" ? method : null;
}

/** A request's body, parsed once: undefined when it has none or it is not JSON (the SDK then answers the parse error). */
function parseBody(req: IncomingMessage, chunks: Buffer[]): unknown {
  if (chunks.length === 0 || req.method === "GET" || req.method === "HEAD") return undefined;
  try {
    return JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The web-standard request of a Node one, for the SDK server. */
function toRequest(req: IncomingMessage, chunks: Buffer[], origin: string, signal: AbortSignal): Request {
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
function writeBody(res: ServerResponse, body: Buffer, stallMs: number): void {
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
function sendJson(res: ServerResponse, text: string, stallMs: number): void {
  const body = Buffer.from(text);
  const limited = limitOf(body);
  res.writeHead(limited === undefined ? 200 : 429, {
    "content-type": "application/json",
    "content-length": String(body.length),
    ...(limited === undefined ? {} : { "retry-after": String(limited) }),
  });
  writeBody(res, body, stallMs);
}

async function send(res: ServerResponse, response: Response, stallMs = UNREAD_TIMEOUT_MS): Promise<void> {
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

/** Authenticates by `Authorization: Bearer <token>`, each token checked in constant time. */
export function bearerTokens(tokens: ReadonlyMap<string, Caller>): Authenticate {
  return (req) => callerOf(req.headers.authorization, tokens);
}

function normalPath(path: string | undefined): string {
  const trimmed = (path ?? "/mcp").replace(/\/+$/, "");
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/** Why a request's signal aborts: its response closed. One object for all (a DOMException per request costs a stack). */
const RESPONSE_CLOSED = new DOMException("The response closed", "AbortError");

/** The gateway as a node:http request handler (see {@link HttpHandlerOptions}). */
export function createHttpHandler(gateway: Gateway, options: HttpHandlerOptions): HttpHandler {
  const base = normalPath(options.path);
  const names = () => new Set(gateway.servers({ server: undefined }));
  /**
   * What a path serves to `caller`: every server, one, or a view; undefined when it serves nothing
   * to this caller (a server it may not see, a view not its own, a server endpoint to a caller
   * bound to a view) — answered as a path that does not exist.
   */
  const targetOf = (pathname: string, caller: Caller): Target | undefined => {
    let rest: string | undefined;
    if (pathname === base || pathname === `${base}/`) rest = "";
    else if (pathname.startsWith(`${base}/`)) rest = pathname.slice(base.length + 1).replace(/\/$/, "");
    if (rest === undefined) return undefined;
    let parts: string[];
    try {
      parts = rest === "" ? [] : rest.split("/").map(decodeURIComponent);
    } catch {
      return undefined;
    }
    const bound = caller.view === undefined ? undefined : gateway.views.get(caller.view);
    if (caller.view !== undefined && !bound) return undefined;
    if (parts.length === 0)
      return bound ? { server: undefined, view: bound, endpoint: base } : { server: undefined, endpoint: base };
    if (parts.length === 2 && parts[0] === "view") {
      const view = gateway.views.get(parts[1]!);
      return view && (!bound || bound === view)
        ? { server: undefined, view, endpoint: `${base}/view/${view.name}` }
        : undefined;
    }
    const name = parts[0]!;
    if (parts.length !== 1 || bound || !names().has(name) || !gateway.sees({ server: name, caller }, name))
      return undefined;
    return { server: name, endpoint: `${base}/${name}` };
  };
  const callerOfAuth = (authInfo: AuthInfo | undefined): Caller =>
    (authInfo?.extra?.["caller"] as Caller | undefined) ?? { id: "anonymous", name: "anonymous", allow: [] };

  const modern: McpHttpHandler = createMcpHandler(
    (ctx) => {
      const caller = callerOfAuth(ctx.authInfo);
      // The handler checked the path before the SDK got the request; what it found rides along.
      const target = (ctx.authInfo?.extra?.["target"] as Target | undefined) ?? { server: undefined, endpoint: base };
      return createInstance(gateway, { ...target, caller, era: "modern" }, false);
    },
    { legacy: "reject" },
  );
  const offChanged = gateway.onChanged((kind) =>
    kind === "tools"
      ? modern.notify.toolsChanged()
      : kind === "prompts"
        ? modern.notify.promptsChanged()
        : modern.notify.resourcesChanged(),
  );
  const sessions = new LegacySessions(gateway, options.sessions, options.sessionLimits);
  const allowedHosts =
    options.hosts === false ? undefined : new Set([...LOOPBACK, ...(options.hosts ?? []).map((h) => h.toLowerCase())]);

  const bodyMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const stallMs = options.unreadTimeoutMs ?? UNREAD_TIMEOUT_MS;
  /** A request refused before its body is read: the connection closes after the answer (its body is never read, nor waited for). */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    caller?: Caller,
    headers: Record<string, string> = {},
  ): Promise<void> => {
    gateway.refused(pathOf(req.url), status, caller);
    res.once("finish", () => req.destroy());
    return send(res, plain(status, message, { ...headers, connection: "close" }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? "";
    if (allowedHosts && !allowedHosts.has(hostnameOf(host).toLowerCase()))
      return refuse(req, res, 403, `Host "${host}" is not this gateway's`);
    const from = req.headers.origin;
    // A page may call only from the gateway's own origin (the one the request names) or one given in `origins`.
    if (from !== undefined && !(options.origins?.includes(from) ?? false) && !sameOrigin(from, host))
      return refuse(req, res, 403, `Origin "${from}" is not allowed`);
    // Authentication first: before it, every path answers alike (no server names learnt from a 404).
    let caller: Caller | undefined;
    try {
      caller = await options.authenticate(req);
    } catch (error) {
      if (!AuthRefusal.isInstance(error)) throw error;
      return refuse(
        req,
        res,
        error.status,
        error.message,
        undefined,
        error.challenge === undefined ? {} : { "www-authenticate": error.challenge },
      );
    }
    const url = new URL(req.url ?? "/", "http://gateway");
    if (!caller)
      return refuse(req, res, 401, "A valid bearer token is required", undefined, {
        "www-authenticate": 'Bearer realm="mcp-gateway"',
      });
    const found = targetOf(url.pathname, caller);
    if (!found)
      return refuse(
        req,
        res,
        404,
        `Not found: ${url.pathname} (the gateway serves ${base}, ${base}/<server> and ${base}/view/<name>)`,
        caller,
      );
    const chunks = await readBody(req, bodyMs);
    if (chunks === 413) return refuse(req, res, 413, `Request body larger than ${MAX_BODY_BYTES} bytes`, caller);
    if (chunks === 408) return refuse(req, res, 408, `Request body not received within ${bodyMs} ms`, caller);
    // A caller's trace context goes with this request only (never a 2025 session's, which outlives it).
    const trace = req.headers.traceparent === undefined ? undefined : traceOf(req.headers);
    const target = trace ? { ...found, trace } : found;
    const controller = new AbortController();
    const parsed = parseBody(req, chunks);
    // The plainest tools/call (2026-07-28, nothing asked of the caller) takes a path of our own: the same handler, the SDK's answer.
    const fast = gateway.fastPath ? plainCall(parsed, req.headers) : undefined;
    if (fast) {
      // Its call is cancelled when the caller goes away first; once answered there is nothing to abort.
      res.once("close", () => res.writableFinished || controller.abort(RESPONSE_CLOSED));
      return sendJson(
        res,
        await serveFast(gateway, { ...target, caller, era: "modern" }, fast, controller.signal),
        stallMs,
      );
    }
    // Aborted when the response closes, finished or not (what sessions and the audit count by); the reason made once.
    res.once("close", () => controller.abort(RESPONSE_CLOSED));
    const request = toRequest(req, chunks, "http://gateway", controller.signal);
    const authInfo: AuthInfo = {
      token: "(gateway caller)",
      clientId: caller.name,
      scopes: [],
      extra: { caller, target },
    };
    const given = parsed === undefined ? {} : { parsedBody: parsed };
    const response = (await isLegacyRequest(request, parsed))
      ? await sessions.handle(request, url.pathname, found, caller, authInfo, parsed)
      : await modern.fetch(request, { authInfo, ...given });
    // Refused before any handler took it (no handler audited it): the sessions' own refusals, and what did not parse.
    if (response.status >= 400 && (refusals.has(response) || parsed === undefined))
      gateway.refused(url.pathname, response.status, caller, methodOf(parsed));
    await send(res, response, stallMs);
  };

  const handler = (async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await handle(req, res);
    } catch (error) {
      gateway.warn(`HTTP request failed: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end();
    }
  }) as HttpHandler;
  Object.defineProperty(handler, "sessions", { get: () => sessions.size });
  handler.close = async () => {
    offChanged();
    await sessions.close();
    await modern.close();
  };
  return handler;
}
