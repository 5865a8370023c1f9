/**
 * JSON-RPC 2.0 message shapes as MCP uses them, and the transport contract.
 * @see https://www.jsonrpc.org/specification
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */

/** A request id. MCP forbids `null` ids on requests. */
export type RequestId = string | number;

/** A request: expects a response with the same `id`. */
export interface JsonRpcRequest<P = unknown> {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: P | undefined;
}

/** A notification: no `id` (or, leniently, `id: null`), no response. */
export interface JsonRpcNotification<P = unknown> {
  jsonrpc: "2.0";
  method: string;
  params?: P | undefined;
}

/** The error object carried by an error response. */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful response. */
export interface JsonRpcSuccessResponse<T = unknown> {
  jsonrpc: "2.0";
  id: RequestId;
  result: T;
}

/** An error response. `id` is `null` when the request could not be identified. */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JsonRpcError;
}

/** Any response. */
export type JsonRpcResponse<T = unknown> = JsonRpcSuccessResponse<T> | JsonRpcErrorResponse;

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Progress reported by the server for one request (`notifications/progress`). */
export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Per-request options understood by every transport. */
export interface RequestOptions {
  /** Aborting rejects the request with the signal's own reason and tells the server (`notifications/cancelled`). */
  signal?: AbortSignal | undefined;
  /** Milliseconds before the request fails with `Request timeout after <n>ms`. Default: the transport's `timeout`, else 30000. */
  timeout?: number | undefined;
  /** Receives `notifications/progress` for this request; setting it adds `_meta.progressToken` to the params. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Restart the timeout clock whenever progress arrives. */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard limit in milliseconds that progress cannot extend. */
  maxTotalTimeout?: number | undefined;
  /** Extra transport headers for this request (HTTP sends them; stdio has none), e.g. MCP 2026-07-28's `Mcp-Param-*`. */
  headers?: Record<string, string> | undefined;
  /**
   * Yours, untouched: a server→client request or notification that arrives tied to this request
   * carries it back as `context.relatedTo` (see {@link RequestContext}), so a program serving many
   * callers can give a server's question to the caller whose request caused it. What ties a
   * message to a request depends on the transport: the request's own SSE stream (Streamable HTTP)
   * or its `input_required` rounds (2026-07-28); stdio and HTTP+SSE tie nothing.
   */
  relatedTo?: unknown;
}

/** Which way a message went: `"out"` from this side, `"in"` from the peer. */
export type MessageDirection = "in" | "out";

/** Context passed to a server→client request handler. */
export interface RequestContext {
  /** Aborted when the server cancels the request or the transport closes. */
  signal: AbortSignal;
  /** The id the server gave the request. */
  requestId: RequestId;
  /** The id of our request the server sent this one about, when the transport knows (Streamable HTTP: the POST whose stream carried it). */
  relatedRequestId?: RequestId | undefined;
  /** That request's {@link RequestOptions.relatedTo}. */
  relatedTo?: unknown;
  /** The task the client runs this request as, when it answered it with one (a task-augmented request, MCP 2025-11-25 tasks; `@mcp/client`'s `serverRequestTasks`). */
  taskId?: string | undefined;
}

/** What a transport knows about a server notification: the request it came about, if any. */
export interface NotificationContext {
  /** The id of our request whose stream carried it (Streamable HTTP), when there is one. */
  relatedRequestId?: RequestId | undefined;
  /** That request's {@link RequestOptions.relatedTo}. */
  relatedTo?: unknown;
}

/**
 * What every MCP transport offers: framing and delivery, no MCP method order.
 * Callbacks are plain properties so a layer above can set them after creation.
 */
export interface MCPTransport {
  request<T = unknown>(method: string, params?: object, options?: RequestOptions): Promise<T>;
  notify(method: string, params?: object): Promise<void>;
  close(): Promise<void>;
  readonly connected: boolean;
  /** How many requests await an answer, for diagnostics and leak checks (both transports have it). */
  readonly pendingRequests?: number | undefined;
  /** Called once when the transport closes, asked for or not. */
  onClose?: (() => void) | undefined;
  /** Non-fatal problems: a malformed line, a listener that failed, a handler that threw. */
  onError?: ((error: Error) => void) | undefined;
  /**
   * Server notifications other than progress for a live request. `context` is given when the
   * notification arrived tied to one of our requests (its SSE stream), and only then.
   */
  onNotification?: ((method: string, params: unknown, context?: NotificationContext) => void) | undefined;
  /** Server→client requests; without it the transport answers `-32601 Method not found`. */
  onRequest?: ((method: string, params: unknown, context: RequestContext) => Promise<unknown>) | undefined;
  /**
   * Every JSON-RPC message, as it goes: `"out"` (ours, just before it is handed to the wire:
   * requests, notifications, our answers, cancellations) and `"in"` (the peer's, as parsed: a
   * batch once, as the array). For recording and debugging; the message is the one on the wire,
   * so copy before keeping or changing it. A listener that throws is reported through `onError`.
   * The built-in transports (and any built on {@link JsonRpcEndpoint}) call it.
   */
  onMessage?: ((message: unknown, direction: MessageDirection) => void) | undefined;
  /**
   * Tells the transport the protocol version in use (HTTP sends it as a header; from 2026-07-28 on
   * it also sends `Mcp-Method`/`Mcp-Name` and keeps no session). `undefined` clears it.
   */
  setProtocolVersion?: ((version: string | undefined) => void) | undefined;
  /**
   * Makes the transport usable (spawns the child, opens the HTTP+SSE event stream, …). A client
   * calls it before the handshake when the transport is not `connected` yet.
   */
  connect?: (() => Promise<void>) | undefined;
  /**
   * Called by the client once the server answered the handshake, before it says `initialized`:
   * the place for work that needs the negotiated version (the HTTP transport opens its GET stream
   * for server-initiated messages here, unless `listen` is false). Must not throw for an optional
   * feature the server lacks; report it through `onError` instead.
   */
  afterHandshake?: ((context: HandshakeContext) => Promise<void>) | undefined;
}

/** What {@link MCPTransport.afterHandshake} learns. */
export interface HandshakeContext {
  /** The protocol version both sides agreed on. */
  protocolVersion: string;
  /** Whether the caller wants server-initiated messages (notifications, server requests). */
  listen: boolean;
}
