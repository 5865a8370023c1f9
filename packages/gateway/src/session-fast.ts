// A path of our own for the hot requests of a 2025-era session (Streamable HTTP with an
// `Mcp-Session-Id`, revisions 2025-03-26, 2025-06-18 and 2025-11-25: what most clients speak
// today): a plain `tools/list`, `ping` or `tools/call` of a session this replica holds, whatever its
// caller declared (Claude Code, VS Code and Cursor declare roots; many sampling or elicitation).
// The SDK's session transport and protocol layer (a web Request and Response per request, the
// JSON-RPC schema parse, a stream per request read back into Node) cost more than the call; this
// path runs its SDK server's own handler — as the SDK stores it, its checks of params and result
// included — with the context the SDK would give it, and writes the answer on an event stream
// exactly as the session transport would: the same headers, each message an `event: message`, logs
// (at the session's level) and progress (for a progress token) on the way, the stream ended after
// the answer, no answer for a cancelled request, keep-alive comments while it waits. A question a server asks about the call (sampling,
// elicitation, roots) is sent by the session's own SDK server (`request`, as its `ctx.mcpReq.send`
// does: the same ids, timeouts, cancellation and checks of the answer) and its transport
// (SessionTransport) puts it on this request's stream, as it puts one about its own requests on
// theirs; the caller's answer comes back on the SDK's path, to that server. Anything else takes the
// SDK's path (sessions.ts), which also answers every refusal. `gateway/test/session-fast.test.ts`
// and `session-fast-asking.test.ts` compare both paths byte for byte.

import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import {
  SdkError,
  SdkErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type RequestOptions,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { MAX_UNREAD_BYTES } from "./http-wire.js";
import type { GatewayServer } from "./instance.js";

type Params = Record<string, unknown>;
type RequestId = string | number;

/** The requests this path serves: the hot ones of a session. */
const HOT = new Set(["tools/call", "tools/list", "ping"]);
/** The 2025 revisions a session request may name (or none: the session's own). */
const REVISIONS = new Set(["2025-03-26", "2025-06-18", "2025-11-25"]);
/** Keys a 2026-07-28 request carries (envelope `_meta`, retries, tasks): such a request takes the SDK's path. */
const ENVELOPE = "io.modelcontextprotocol/";
const FOREIGN_PARAMS = ["inputResponses", "requestState", "task"];
/** How often the SDK session transport writes a keep-alive comment on a waiting stream (ms). */
const KEEP_ALIVE_MS = 15_000;

/** A request of a session this path serves. */
export interface SessionRequest {
  session: string;
  id: RequestId;
  method: string;
  message: Params;
}

/** A request served here, until its stream ends: what a cancellation, or the session closing, does to it. */
export interface FastCall {
  abort(reason: unknown): void;
  /** A message of the session's server about this request (a question to the caller, a cancellation of one): written on its stream while that is open. */
  relay(message: JSONRPCMessage): void;
  /** The session closed: the request is aborted and its stream ended (as the SDK transport's close does). */
  close(): void;
}

/**
 * The SDK's session transport, knowing the requests the fast path serves: what the session's server
 * sends about one of them (a question to the caller, the cancellation of one) goes on that request's
 * stream, as the transport puts what is sent about its own requests on theirs. The rest is the
 * SDK's (`super.send`), unchanged.
 */
export class SessionTransport extends WebStandardStreamableHTTPServerTransport {
  /** Requests of the session served by the fast path, by JSON-RPC id, until their streams end. */
  readonly calls = new Map<RequestId, FastCall>();

  /** Whether the SDK's transport serves a request of this id now: the fast path leaves it alone. */
  serves(id: RequestId): boolean {
    // The transport's own map of its requests' streams (private in its types).
    const own = (this as unknown as { _requestToStreamMapping?: Map<RequestId, unknown> })._requestToStreamMapping;
    return own?.has(id) === true;
  }

  override send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const related = options?.relatedRequestId;
    const call =
      related === undefined || "result" in message || "error" in message ? undefined : this.calls.get(related);
    if (!call) return super.send(message, options);
    call.relay(message);
    return Promise.resolve();
  }
}

/** What this path needs of a session (sessions.ts holds it). */
export interface FastSession {
  sessionId: string;
  instance: GatewayServer;
  transport: SessionTransport;
  /** Requests of the session served here, by JSON-RPC id (the transport's). */
  calls: Map<RequestId, FastCall>;
}

const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The request, when it is one this path serves exactly as the SDK would: a single JSON-RPC
 * `tools/call`, `tools/list` or `ping` with a session id, of a 2025 revision (or naming none), whose
 * headers the session transport accepts, with nothing of 2026-07-28 in it (a progress token is
 * fine: the call's progress goes on its stream, as its logs do).
 * Otherwise undefined (the SDK's path serves it).
 */
export function sessionRequest(parsed: unknown, headers: IncomingHttpHeaders): SessionRequest | undefined {
  const session = headers["mcp-session-id"];
  if (typeof session !== "string" || session === "") return undefined;
  if (!isObject(parsed) || parsed["jsonrpc"] !== "2.0" || typeof parsed["method"] !== "string") return undefined;
  const { id, method, params } = parsed;
  if (!HOT.has(method)) return undefined;
  if (typeof id !== "string" && (typeof id !== "number" || !Number.isSafeInteger(id))) return undefined;
  if (params !== undefined) {
    if (!isObject(params) || FOREIGN_PARAMS.some((key) => key in params)) return undefined;
    const meta = params["_meta"];
    if (meta !== undefined) {
      if (!isObject(meta)) return undefined;
      for (const key of Object.keys(meta)) if (key.startsWith(ENVELOPE)) return undefined;
    }
  }
  const version = headers["mcp-protocol-version"];
  if (version !== undefined && (typeof version !== "string" || !REVISIONS.has(version))) return undefined;
  if (!/^application\/json\s*(;|$)/i.test(headers["content-type"] ?? "")) return undefined;
  const accept = headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  return { session, id, method, message: parsed };
}

/** A cancellation (alone or in a batch) of a request served here: that request is aborted. The SDK's path still gets the message. */
export function cancelFast(calls: Map<RequestId, FastCall>, parsed: unknown): void {
  if (calls.size === 0) return;
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (!isObject(message) || message["method"] !== "notifications/cancelled" || !isObject(message["params"])) continue;
    const { requestId, reason } = message["params"];
    if (typeof requestId === "string" || typeof requestId === "number") calls.get(requestId)?.abort(reason);
  }
}

/** The SDK session transport's headers of a request's event stream (as `send` writes a web Response's: names in order). */
function streamHeaders(sessionId: string): Record<string, string> {
  return {
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "content-type": "text/event-stream",
    "mcp-session-id": sessionId,
    "x-accel-buffering": "no",
  };
}

/**
 * Serves a session request on `res`. False (nothing written) when the SDK's path must take it: no
 * handler for the method, or a request of the same id still served here or by the SDK's transport.
 */
export function serveInSession(
  session: FastSession,
  request: SessionRequest,
  authInfo: AuthInfo,
  res: ServerResponse,
): boolean {
  const { instance, calls, sessionId, transport } = session;
  const handler = instance.handlerOf(request.method);
  if (!handler || calls.has(request.id) || transport.serves(request.id)) return false;
  const { id, method } = request;
  const controller = new AbortController();
  let open = true;
  let settled = false;
  const write = (text: string): void => {
    if (!open || res.destroyed) return;
    // The caller leaves this much unread: it is cut off, as on the SDK's path.
    if (res.writableLength > MAX_UNREAD_BYTES) return void res.destroy();
    res.write(text);
  };
  const event = (message: unknown): void => write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  const keepAlive = setInterval(() => write(": keepalive\n\n"), KEEP_ALIVE_MS);
  keepAlive.unref();
  const end = (): void => {
    clearInterval(keepAlive);
    if (open && !res.destroyed) res.end();
    open = false;
    if (settled && calls.get(id) === call) calls.delete(id);
  };
  const call: FastCall = {
    abort: (reason) => controller.abort(reason),
    relay: event,
    close: () => {
      controller.abort(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"));
      end();
    },
  };
  calls.set(id, call);
  res.once("close", () => {
    open = false;
    clearInterval(keepAlive);
    if (settled && calls.get(id) === call) calls.delete(id);
  });
  res.writeHead(200, streamHeaders(sessionId));
  res.flushHeaders();

  const notify = (notification: { method: string; params?: unknown }): Promise<void> => {
    event({ jsonrpc: "2.0", ...notification });
    return Promise.resolve();
  };
  const params = request.message["params"] as Params | undefined;
  const ctx = {
    sessionId,
    mcpReq: {
      id,
      method,
      _meta: params?.["_meta"],
      requestState: () => undefined,
      signal: controller.signal,
      // A question about this request: asked by the session's server, put on this stream by its transport.
      send: (question: { method: string; params?: Params }, options?: RequestOptions) =>
        instance.askAbout(id, question, options),
      notify,
      log: (level: string, data: unknown, logger?: string) =>
        instance.logIgnored(level, sessionId)
          ? Promise.resolve()
          : notify({ method: "notifications/message", params: { level, data, logger } }),
    },
    http: { authInfo },
  } as unknown as ServerContext;
  const codec = instance.codec();
  void Promise.resolve()
    .then(() => handler(request.message, ctx))
    .then(
      (result) => {
        if (controller.signal.aborted) return undefined;
        try {
          return { result: codec.encodeResult(method, result as never), jsonrpc: "2.0", id };
        } catch {
          return { jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } };
        }
      },
      (error: unknown) => {
        if (controller.signal.aborted) return undefined;
        const { code: thrown, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
        const code = Number.isSafeInteger(thrown) ? (thrown as number) : -32603;
        return {
          jsonrpc: "2.0",
          id,
          error: {
            code: codec.encodeErrorCode(code),
            message: message ?? "Internal error",
            ...(data === undefined ? {} : { data }),
          },
        };
      },
    )
    .then((answer) => {
      settled = true;
      // A cancelled request gets no answer; its stream stays open (as on the SDK's path) until the caller or the session ends it.
      if (answer === undefined) return void (open || (calls.get(id) === call && calls.delete(id)));
      event(answer);
      end();
    });
  return true;
}
