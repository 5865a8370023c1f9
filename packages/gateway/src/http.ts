// The gateway over Streamable HTTP, as a request handler for a node:http server: `<path>` serves
// every server, `<path>/<name>` one. Every request needs a caller (the `authenticate` given, or a
// bearer token); Host and Origin must name this gateway (DNS rebinding). 2026-07-28 requests are
// stateless (any replica can answer them); 2025-era callers get a session each, so the gateway can
// ask them for sampling and elicitation. The hottest requests take a path of the gateway's own that
// answers as the SDK server would: a 2026-07-28 `tools/call` (fast.ts), a plain `tools/call`,
// `tools/list` or `ping` of a 2025 session (session-fast.ts); everything else the SDK's.

import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpHttpHandler } from "@modelcontextprotocol/server";
import { plainCall, serveFast } from "./fast.js";
import type { Gateway } from "./gateway.js";
import { hostnameOf, LOOPBACK, sameOrigin, type Authenticate } from "./http-guard.js";
import {
  BODY_TIMEOUT_MS,
  lazyStream,
  MAX_BODY_BYTES,
  methodOf,
  parseBody,
  pathOf,
  plain,
  readBody,
  send,
  sendJson,
  toRequest,
  UNREAD_TIMEOUT_MS,
} from "./http-wire.js";
import { createInstance } from "./instance.js";
import { closeWhenAsked, KEEP_ALIVE_GRACE_MS, keepAliveWithGrace } from "./keep-alive.js";
import { closeLingering, droppedWhileLingering, LINGER_MS } from "./linger.js";
import { serveInSession, sessionRequest } from "./session-fast.js";
import { AuthRefusal } from "./refusal.js";
import { traceOf } from "./trace.js";
import type { Caller } from "./policy.js";
import { LegacySessions, refusals, type SessionLimits, type SessionStore, type Target } from "./sessions.js";

export { bearerTokens, hostnameOf, isLoopback, sameOrigin, type Authenticate } from "./http-guard.js";
export { BODY_TIMEOUT_MS, MAX_BODY_BYTES, MAX_UNREAD_BYTES, UNREAD_TIMEOUT_MS } from "./http-wire.js";
export { LINGER_IDLE_MS, LINGER_MS } from "./linger.js";

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
  /**
   * After a refusal (`401`, `403`, `404`, `408`, `413`), how long the gateway may go on reading and
   * dropping what the caller still sends, so that the answer reaches it rather than a reset (ms);
   * a caller that sends nothing for {@link LINGER_IDLE_MS} or closes its side ends it sooner. Default 10 s.
   */
  lingerMs?: number | undefined;
  /**
   * How long past the time its `Keep-Alive: timeout=` header states (the server's `keepAliveTimeout`)
   * the gateway keeps an idle connection open after its answer, so a caller that reuses the
   * connection just inside that time is not reset when the event loop is late (ms). Default 5 s.
   */
  keepAliveGraceMs?: number | undefined;
}

/** A node:http request handler serving the gateway; `close()` ends its sessions. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** How many 2025 sessions this replica holds. */
  readonly sessions: number;
  close(): Promise<void>;
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
  const lingerMs = options.lingerMs ?? LINGER_MS;
  const keepAliveGraceMs = options.keepAliveGraceMs ?? KEEP_ALIVE_GRACE_MS;
  /**
   * A request refused before its body is read: the connection closes after the answer, lingering
   * (what the caller still sends is dropped, never kept, for at most `lingerMs`).
   */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    caller?: Caller,
    headers: Record<string, string> = {},
  ): Promise<void> => {
    gateway.refused(pathOf(req.url), status, caller);
    closeLingering(req, lingerMs);
    return send(res, plain(status, message, { ...headers, connection: "close" }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Pipelined behind a refusal: its connection is closing, so it is neither served nor answered.
    if (droppedWhileLingering(req)) return;
    keepAliveWithGrace(req, res, keepAliveGraceMs);
    closeWhenAsked(req, res);
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
    // A 2026-07-28 tools/call takes a path of our own: the same handler, the SDK's answer (JSON, or a stream once it notifies).
    const fast = gateway.fastPath ? plainCall(parsed, req.headers) : undefined;
    if (fast) {
      // Its call is cancelled when the caller goes away first; once answered there is nothing to abort.
      res.once("close", () => res.writableFinished || controller.abort(RESPONSE_CLOSED));
      const stream = lazyStream(res);
      const scope = { ...target, caller, era: "modern" as const };
      const answer = await serveFast(gateway, scope, fast, controller.signal, stream.event);
      return stream.open ? stream.end(answer.body) : sendJson(res, answer.body, stallMs, answer.status);
    }
    // Aborted when the response closes, finished or not (what sessions and the audit count by); the reason made once.
    res.once("close", () => controller.abort(RESPONSE_CLOSED));
    const authInfo: AuthInfo = {
      token: "(gateway caller)",
      clientId: caller.name,
      scopes: [],
      extra: { caller, target },
    };
    // A hot request of a 2025 session held here: its own handler, the SDK transport's answer (questions about it on its stream).
    const hot = gateway.fastPath ? sessionRequest(parsed, req.headers) : undefined;
    const session = hot && sessions.fastSession(hot.session, caller, url.pathname, controller.signal);
    if (session && serveInSession(session, hot, authInfo, res)) return;
    const request = toRequest(req, chunks, "http://gateway", controller.signal);
    const given = parsed === undefined ? {} : { parsedBody: parsed };
    const response = (await isLegacyRequest(request, parsed))
      ? await sessions.handle(request, url.pathname, found, caller, authInfo, parsed, session !== undefined)
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
