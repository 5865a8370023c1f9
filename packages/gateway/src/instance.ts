// One server instance of the gateway: the SDK calls the factory per HTTP request (2026-07-28) or
// per connection (2025 sessions, stdio), and each gets the gateway's handlers for its scope.

import { Server, type RequestId, type RequestOptions, type ServerContext } from "@modelcontextprotocol/server";
import type { Gateway } from "./gateway.js";
import type { Scope } from "./gateway-options.js";
import { registerRoutes } from "./routes.js";

/** A request handler as the SDK server stores it: its validation of params and (for `tools/call`) of the result included. */
export type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<Record<string, unknown>>;

/**
 * The SDK server, with what the 2025 session fast path (session-fast.ts) reads of it: a method's
 * stored handler, the negotiated era's wire codec and the session's log level. The first two are
 * the SDK's protected accessors for subclasses; the level check is its own (`isMessageIgnored`).
 * And how it asks its caller something about a request the fast path serves.
 */
export class GatewayServer extends Server {
  /** The handler the SDK server runs for `method` (undefined: none registered). */
  handlerOf(method: string): StoredHandler | undefined {
    return this._getRequestHandler(method) as StoredHandler | undefined;
  }

  /** How results and error codes go on the wire in the negotiated era. */
  codec(): { encodeResult(method: string, result: never): unknown; encodeErrorCode(code: number): number } {
    return this._wireCodec();
  }

  /**
   * Asks the caller `question` about its request `relatedRequestId`, as the SDK's
   * `ctx.mcpReq.send` of that request does (the server's next id, its timeout and cancellation, the
   * answer checked by the method's result schema); the transport writes it on that request's stream.
   */
  askAbout(
    relatedRequestId: RequestId,
    question: { method: string; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<unknown> {
    return this.request(question as never, { ...options, relatedRequestId });
  }

  /** Whether a log message of `level` is below what the session asked for (`logging/setLevel`): then it is not sent. */
  logIgnored(level: string, sessionId: string): boolean {
    return (this as unknown as { isMessageIgnored(level: string, id: string): boolean }).isMessageIgnored(
      level,
      sessionId,
    );
  }
}

/**
 * A new server instance serving `scope` through `gateway`. `connection`: the instance has a
 * connection of its own (stdio, a 2025 HTTP session), so list changes are sent on it (on a
 * 2026-07-28 stdio connection the SDK routes them to the caller's `subscriptions/listen`).
 */
export function createInstance(gateway: Gateway, scope: Scope, connection: boolean): GatewayServer {
  const server = new GatewayServer(gateway.info, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
      completions: {},
      logging: {},
    },
    // A tool may ask its caller many times; each question is a round.
    inputRequired: { maxRounds: 64 },
  });
  registerRoutes(gateway, server, scope);
  if (connection) gateway.track(server, scope);
  return server;
}
