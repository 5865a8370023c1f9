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
import type { Caller } from "./policy.js";
import { LegacySessions, type SessionLimits, type SessionStore, type Target } from "./sessions.js";

/** Who sends a request: its caller, or undefined (answered `401`). */
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
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }), { status, headers: { "content-type": "application/json", ...headers } });
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

/** A request body, read up to {@link MAX_BODY_BYTES}: undefined when it is larger (nothing more is read). */
function readBody(req: IncomingMessage): Promise<Buffer[] | undefined> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.resolve(undefined);
  // A caller gone already (during authentication) sends no more events: nothing to wait for.
  if (req.destroyed) return Promise.reject(new Error("the caller closed the request before its body ended"));
  // Events, not an async iterator: the iterator's machinery costs more than the small body it reads.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer[] | undefined, error?: Error): void => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      // Past the limit: read no more (the caller is held back) and answer 413.
      req.pause();
      done(undefined);
    };
    const onEnd = (): void => done(chunks);
    const onError = (error: Error): void => done(undefined, error);
    const onClose = (): void => done(undefined, new Error("the caller closed the request before its body ended"));
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
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
  return new Request(`${origin}${req.url ?? "/"}`, { method: req.method ?? "GET", headers, signal, ...(body ? { body } : {}) });
}

/**
 * For a JSON answer that is the gateway's own refusal for a caller's limits (JSON-RPC error 429):
 * the seconds to wait, which the HTTP answer then says too (429, `Retry-After`). Small bodies only,
 * and only those holding that code are parsed.
 */
function limitOf(body: Buffer): number | undefined {
  if (body.length > 2048 || !body.includes(`"code":${LIMITED},`)) return undefined;
  try {
    const error = (JSON.parse(body.toString("utf8")) as { error?: { code?: unknown; data?: { retryAfterMs?: unknown } } }).error;
    if (error?.code !== LIMITED) return undefined;
    const ms = error.data?.retryAfterMs;
    return typeof ms === "number" ? Math.max(1, Math.ceil(ms / 1000)) : 1;
  } catch {
    return undefined;
  }
}

/** A JSON answer written at once (as `send` writes the SDK server's): a refusal for the caller's limits is also HTTP 429. */
function sendJson(res: ServerResponse, text: string): void {
  const body = Buffer.from(text);
  const limited = limitOf(body);
  res.writeHead(limited === undefined ? 200 : 429, { "content-type": "application/json", "content-length": String(body.length), ...(limited === undefined ? {} : { "retry-after": String(limited) }) }).end(body);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers = Object.fromEntries(response.headers.entries());
  if (!response.body) return void res.writeHead(response.status, headers).end();
  // A JSON answer goes out in one write with its length; an event stream as it comes.
  if (!(headers["content-type"] ?? "").includes("text/event-stream")) {
    const body = Buffer.from(await response.arrayBuffer());
    const limited = limitOf(body);
    const status = limited === undefined ? response.status : 429;
    return void res.writeHead(status, { ...headers, "content-length": String(body.length), ...(limited === undefined ? {} : { "retry-after": String(limited) }) }).end(body);
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
    if (parts.length === 0) return bound ? { server: undefined, view: bound, endpoint: base } : { server: undefined, endpoint: base };
    if (parts.length === 2 && parts[0] === "view") {
      const view = gateway.views.get(parts[1]!);
      return view && (!bound || bound === view) ? { server: undefined, view, endpoint: `${base}/view/${view.name}` } : undefined;
    }
    const name = parts[0]!;
    if (parts.length !== 1 || bound || !names().has(name) || !gateway.sees({ server: name, caller }, name)) return undefined;
    return { server: name, endpoint: `${base}/${name}` };
  };
  const callerOfAuth = (authInfo: AuthInfo | undefined): Caller => (authInfo?.extra?.["caller"] as Caller | undefined) ?? { id: "anonymous", name: "anonymous", allow: [] };

  const modern: McpHttpHandler = createMcpHandler((ctx) => {
    const caller = callerOfAuth(ctx.authInfo);
    // The handler checked the path before the SDK got the request; what it found rides along.
    const target = (ctx.authInfo?.extra?.["target"] as Target | undefined) ?? { server: undefined, endpoint: base };
    return createInstance(gateway, { ...target, caller, era: "modern" }, false);
  }, { legacy: "reject" });
  const offChanged = gateway.onChanged((kind) => (kind === "tools" ? modern.notify.toolsChanged() : kind === "prompts" ? modern.notify.promptsChanged() : modern.notify.resourcesChanged()));
  const sessions = new LegacySessions(gateway, options.sessions, options.sessionLimits);
  const allowedHosts = options.hosts === false ? undefined : new Set([...LOOPBACK, ...(options.hosts ?? []).map((h) => h.toLowerCase())]);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? "";
    if (allowedHosts && !allowedHosts.has(hostnameOf(host).toLowerCase())) return send(res, plain(403, `Host "${host}" is not this gateway's`));
    const from = req.headers.origin;
    // A page may call only from the gateway's own origin (the one the request names) or one given in `origins`.
    if (from !== undefined && !(options.origins?.includes(from) ?? false) && !sameOrigin(from, host)) return send(res, plain(403, `Origin "${from}" is not allowed`));
    // Authentication first: before it, every path answers alike (no server names learnt from a 404).
    const caller = await options.authenticate(req);
    const url = new URL(req.url ?? "/", "http://gateway");
    if (!caller) {
      gateway.unauthenticated(url.pathname);
      return send(res, plain(401, "A valid bearer token is required", { "www-authenticate": 'Bearer realm="mcp-gateway"' }));
    }
    const target = targetOf(url.pathname, caller);
    if (!target) return send(res, plain(404, `Not found: ${url.pathname} (the gateway serves ${base}, ${base}/<server> and ${base}/view/<name>)`));
    const chunks = await readBody(req);
    if (!chunks) {
      res.once("finish", () => req.destroy());
      return send(res, plain(413, `Request body larger than ${MAX_BODY_BYTES} bytes`, { connection: "close" }));
    }
    const controller = new AbortController();
    const parsed = parseBody(req, chunks);
    // The plainest tools/call (2026-07-28, nothing asked of the caller) takes a path of our own: the same handler, the SDK's answer.
    const fast = gateway.fastPath ? plainCall(parsed, req.headers) : undefined;
    if (fast) {
      // Its call is cancelled when the caller goes away first; once answered there is nothing to abort.
      res.once("close", () => res.writableFinished || controller.abort(RESPONSE_CLOSED));
      return sendJson(res, await serveFast(gateway, { ...target, caller, era: "modern" }, fast, controller.signal));
    }
    // Aborted when the response closes, finished or not (what sessions and the audit count by); the reason made once.
    res.once("close", () => controller.abort(RESPONSE_CLOSED));
    const request = toRequest(req, chunks, "http://gateway", controller.signal);
    const authInfo: AuthInfo = { token: "(gateway caller)", clientId: caller.name, scopes: [], extra: { caller, target } };
    const given = parsed === undefined ? {} : { parsedBody: parsed };
    const response = (await isLegacyRequest(request, parsed)) ? await sessions.handle(request, url.pathname, target, caller, authInfo, parsed) : await modern.fetch(request, { authInfo, ...given });
    await send(res, response);
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
