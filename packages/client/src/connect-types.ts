// What `connectToServer` takes and gives: server configs, its options (handlers for the server's
// requests, tracing, recording, the protocol), and the connection object callers hold.
import type { MCPTransport, NotificationContext, RequestContext, RequestOptions } from "@mcp/jsonrpc";
import type { HttpTransport, HttpTransportConfig } from "@mcp/transport-http";
import type { StdioTransport, StdioTransportConfig } from "@mcp/transport-stdio";
import type { DiscoverResult, ProtocolEra } from "./negotiate.js";
import type { RecordListener } from "./record.js";
import type { SubscriptionFilter } from "./session.js";
import type { ServerRequestTaskOptions } from "./task-receiver.js";
import type { TracingApi } from "./tracing.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  LoggingLevel,
  LogMessage,
  Root,
  ServerCapabilities,
} from "./types.js";

/** A stdio server: `type` omitted or `"stdio"`. */
export type StdioServerConfig = StdioTransportConfig & { type?: "stdio" | undefined };
/** An HTTP server: `type: "http"` (Streamable HTTP) or `"sse"` (HTTP+SSE, the 2024-11-05 transport). */
export type HttpServerConfig = HttpTransportConfig;
/** How to reach one MCP server. `timeout` bounds the handshake and is every request's default. */
export type MCPServerConfig = StdioServerConfig | HttpServerConfig;

/** Default handshake timeout when the config sets none. */
export const DEFAULT_CONNECT_TIMEOUT = 30_000;

/** The transports {@link connectToServer} builds from a config. */
export type BuiltInTransport = StdioTransport | HttpTransport;

/** Options of {@link connectToServer}. */
export interface ConnectOptions {
  /** Aborts the handshake (the transport is closed, the promise rejects with the signal's reason). */
  signal?: AbortSignal | undefined;
  /** Sent as `clientInfo`. Default `{ name: "@mcp/client", version }`. */
  clientInfo?: Implementation | undefined;
  /**
   * Bounds the handshake, in ms (a positive number, or `Infinity` for none), in place of the
   * config's `timeout`. Requests keep the config's `timeout` as their default.
   */
  timeout?: number | undefined;
  /** Extra capabilities to advertise (e.g. `experimental`); handler-backed ones are added for you. */
  capabilities?: ClientCapabilities | undefined;
  /** Extensions to declare (`capabilities.extensions`), e.g. `mcpAppsExtension()` for MCP Apps. */
  extensions?: Record<string, object> | undefined;
  /** Every server notification (after typed listeners); `context` when it arrived tied to one of your requests. */
  onNotification?: ((method: string, params: unknown, context?: NotificationContext) => void) | undefined;
  /** Server→client requests not handled below; without it they get `-32601`. */
  onRequest?: ((method: string, params: unknown, context: RequestContext) => Promise<unknown>) | undefined;
  /** Answers `roots/list` and advertises `roots: { listChanged: true }`; a function is told the request's context (and which of your requests it is about, when known). */
  roots?: Root[] | ((context: RequestContext) => Root[] | Promise<Root[]>) | undefined;
  /** Answers `sampling/createMessage` and advertises `sampling`. */
  onSampling?: ((params: CreateMessageParams, context: RequestContext) => Promise<CreateMessageResult>) | undefined;
  /** Answers `elicitation/create` and advertises `elicitation`. */
  onElicitation?: ((params: ElicitParams, context: RequestContext) => Promise<ElicitResult>) | undefined;
  /** Fill defaults from the requested schema into an accepted elicitation answer. Default true. */
  applyElicitationDefaults?: boolean | undefined;
  /**
   * `notifications/message` from the server. `context` (with your request's `relatedTo`) when it
   * arrived tied to one of your requests: on that request's SSE stream (Streamable HTTP).
   */
  onLog?: ((message: LogMessage, context?: NotificationContext) => void) | undefined;
  /** Non-fatal transport problems (a malformed line, a listener that failed). */
  onError?: ((error: Error) => void) | undefined;
  /**
   * Run the server's sampling and elicitation requests as tasks when it asks (MCP 2025-11-25
   * tasks): the client advertises `tasks.requests.sampling.createMessage` /
   * `elicitation.create` (for the handlers it has), answers such a request at once with a task,
   * runs your handler in the background and answers the server's `tasks/*` requests about it.
   * Off by default.
   */
  serverRequestTasks?: boolean | ServerRequestTaskOptions | undefined;
  /**
   * OpenTelemetry: a client span per request (method, target, server, outcome) and its trace
   * context (`traceparent`, `tracestate`) in the request's `_meta`. By default on when the
   * program has `@opentelemetry/api` installed (Node, Bun, Deno; an optional peer dependency:
   * nothing loads without it); pass the API module to trace in a browser; `false` turns it off.
   */
  tracing?: boolean | TracingApi | undefined;
  /** The connection closed, asked for or not. */
  onClose?: (() => void) | undefined;
  /** Whether to receive server-initiated messages outside a request (HTTP: the GET stream). Default true. */
  listen?: boolean | undefined;
  /**
   * Use this transport instead of building one from `config` (which then only supplies `timeout`).
   * It gets the same treatment as a built-in one: `connect()` when not connected, the handshake,
   * `setProtocolVersion()` and `afterHandshake()` when it has them, `close()` on failure.
   */
  transport?: MCPTransport | undefined;
  /**
   * `"auto"` (default): open with `server/discover` and speak 2026-07-28 when the server does,
   * falling back to `initialize` for 2025-era servers. `"2025"`: go straight to `initialize`
   * (the 2025 era; `"legacy"`, its earlier name, is still accepted).
   */
  protocol?: "auto" | "2025" | undefined;
  /**
   * Records the connection: every JSON-RPC message both ways, from the handshake on, with its time
   * and direction, secrets redacted (a `RecordedMessage` each; `mcp call --record` writes them
   * as NDJSON and `mcp replay` serves them). Needs a transport that reports its messages (the
   * built-in ones do).
   */
  record?: RecordListener | undefined;
}

/** A listener of one notification method: receives its params. */
export type NotificationListener = (params: unknown) => void;
/** A listener of every notification (`"*"`): receives the method and its params. */
export type AnyNotificationListener = (notification: { method: string; params: unknown }) => void;

/** A live connection to one MCP server. `T` is the transport's type (stdio or HTTP when built from a config). */
export interface MCPServerConnection<T extends MCPTransport = BuiltInTransport> {
  readonly name: string;
  readonly config: MCPServerConfig;
  readonly transport: T;
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly protocolVersion: string;
  readonly instructions: string | undefined;
  /** `"2026-07-28"`: the stateless revisions; `"2025"`: a session opened with `initialize` (see {@link ProtocolEra}). */
  readonly era: ProtocolEra;
  /** The `server/discover` result (2026-07-28 era), with its caching hints (`ttlMs`, `cacheScope`). */
  readonly discoverResult: DiscoverResult | undefined;
  /**
   * Sends one request in this connection's era: in 2026-07-28 it adds the `_meta` envelope, the
   * `Mcp-Param-*` headers, and answers `input_required` rounds through your handlers. The method
   * functions (`callTool`, …) use it; use it yourself for methods they do not cover.
   */
  request<T = unknown>(method: string, params?: object, options?: RequestOptions): Promise<T>;
  /** 2026-07-28: the log level sent with every request (`setLoggingLevel` uses it). */
  setLogLevel(level: LoggingLevel | undefined): void;
  /**
   * 2026-07-28: what the server acknowledged on the `subscriptions/listen` stream, once it did.
   * The stream is opened (and re-opened when it ends) for the `*_list_changed` methods you listen
   * to with `on()` and the resources you `subscribe()` to.
   */
  readonly subscriptions: SubscriptionFilter | undefined;
  /** 2026-07-28: adds a resource to the listen stream's `resourceSubscriptions` (`subscribe()` calls it). */
  subscribeResource(uri: string): void;
  /** 2026-07-28: removes a resource from the listen stream (`unsubscribe()` calls it). */
  unsubscribeResource(uri: string): void;
  /**
   * Subscribes to one notification method (e.g. `"notifications/tools/list_changed"`,
   * `"notifications/resources/updated"`, `"notifications/message"`). Returns the unsubscribe function.
   */
  on(method: string, listener: NotificationListener): () => void;
  /** Subscribes to every notification. Returns the unsubscribe function. */
  on(method: "*", listener: AnyNotificationListener): () => void;
  /** Closes the connection (as {@link disconnectServer} does), so `await using conn = await connectToServer(…)` ends it with its scope. */
  [Symbol.asyncDispose](): Promise<void>;
}
