// `connectToServer`: the transport a config names, the handlers, the negotiated session, and the connection object callers hold.
import { ErrorCodes, InvalidConfigError, RpcError, toError, type MCPTransport, type NotificationContext, type RequestContext, type RequestOptions } from "@mcp/jsonrpc";
import { checkTimeout, inspectCustom, redactConfig } from "@mcp/jsonrpc/internal";
import { HttpTransport, type HttpTransportConfig } from "@mcp/transport-http";
import type { StdioTransport, StdioTransportConfig } from "@mcp/transport-stdio";
import { ConnectionTimeoutError, UnknownServerTypeError } from "./errors.js";
import { CLIENT_VERSION } from "./version.js";
import { createSession, LIST_FILTERS, type SubscriptionFilter } from "./session.js";
import { serverConfigProblems } from "./validate.js";
import { recordTransport, type RecordListener } from "./record.js";
import type { TracingApi } from "./tracing.js";
import { tracingFor } from "./tracing-load.js";
import { TaskReceiver, type ServerRequestTaskOptions } from "./task-receiver.js";
import { discover, initialize, type DiscoverResult, type Handshake, type Negotiation, type ProtocolEra } from "./negotiate.js";
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

/**
 * Checks one server config before anything starts; throws {@link InvalidConfigError} (or
 * {@link UnknownServerTypeError}) naming the server, the field and the fix.
 */
function assertValidConfig(name: string, config: unknown): asserts config is MCPServerConfig {
  const [problem] = serverConfigProblems(config);
  if (!problem) return;
  if ("unknownType" in problem) throw new UnknownServerTypeError(problem.unknownType, name);
  throw new InvalidConfigError(problem.message, { serverName: name, field: problem.field || undefined });
}

async function createTransport(name: string, config: MCPServerConfig): Promise<BuiltInTransport> {
  assertValidConfig(name, config);
  if (config.type === "http" || config.type === "sse") return new HttpTransport({ serverName: name, ...config });
  // Loaded for a stdio config only: an HTTP-only program, a browser or a worker never loads it.
  return (await import("#stdio")).createStdioTransport(name, config as StdioServerConfig);
}

/** Copies `default` values of the requested schema into fields an accepted answer left out (SEP-1034). */
export function applyElicitationDefaults(params: ElicitParams, result: ElicitResult): ElicitResult {
  const properties = params.requestedSchema?.properties;
  if (result.action !== "accept" || !properties) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [key, schema] of Object.entries(properties)) {
    if (!(key in content) && schema && typeof schema === "object" && "default" in schema) content[key] = schema.default;
  }
  return { ...result, content };
}

/**
 * The capabilities {@link connectToServer} advertises for these options: `options.capabilities`,
 * `extensions` for `options.extensions`, plus `roots`, `sampling` and `elicitation` for the handlers given. A server's answers (its tool
 * list among them) may depend on them, so a cache of those answers keys on them.
 */
export function capabilitiesFor(options: { capabilities?: ClientCapabilities | undefined; extensions?: Record<string, object> | undefined; roots?: unknown; onSampling?: unknown; onElicitation?: unknown; serverRequestTasks?: unknown }): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...(options.capabilities ?? {}) };
  if (options.extensions) capabilities["extensions"] = { ...(capabilities["extensions"] as object | undefined), ...options.extensions };
  if (options.roots !== undefined) capabilities.roots = { listChanged: true };
  if (options.onSampling) capabilities.sampling = {};
  if (options.onElicitation) capabilities.elicitation = {};
  if (options.serverRequestTasks && (options.onSampling || options.onElicitation)) capabilities["tasks"] = TaskReceiver.capability({ sampling: Boolean(options.onSampling), elicitation: Boolean(options.onElicitation) });
  return capabilities;
}

function methodNotFound(method: string): RpcError {
  return new RpcError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
}

function serverRequestHandler(options: ConnectOptions) {
  return async (method: string, params: unknown, context: RequestContext): Promise<unknown> => {
    switch (method) {
      case "ping":
        return {};
      case "roots/list": {
        if (options.roots === undefined) break;
        const roots = typeof options.roots === "function" ? await options.roots(context) : options.roots;
        return { roots };
      }
      case "sampling/createMessage":
        if (!options.onSampling) break;
        return options.onSampling(params as CreateMessageParams, context);
      case "elicitation/create": {
        if (!options.onElicitation) break;
        const result = await options.onElicitation(params as ElicitParams, context);
        return options.applyElicitationDefaults === false ? result : applyElicitationDefaults(params as ElicitParams, result);
      }
    }
    if (options.onRequest) return options.onRequest(method, params, context);
    throw methodNotFound(method);
  };
}

/**
 * Connects to an MCP server: picks the transport from `config.type` (or takes `options.transport`),
 * then negotiates the protocol era (negotiate.ts): `server/discover` for 2026-07-28, else
 * `initialize` → `notifications/initialized` for the 2025 era; all within `config.timeout`
 * (default 30000 ms; `Infinity` for none). A failure rejects at once; the transport is closed after it
 * (a stdio server's process tree is ended in the background), so nothing is left running.
 */
export function connectToServer<T extends MCPTransport>(name: string, config: MCPServerConfig, options: ConnectOptions & { transport: T }): Promise<MCPServerConnection<T>>;
export function connectToServer(name: string, config: StdioServerConfig, options?: ConnectOptions): Promise<MCPServerConnection<StdioTransport>>;
export function connectToServer(name: string, config: HttpServerConfig, options?: ConnectOptions): Promise<MCPServerConnection<HttpTransport>>;
export function connectToServer(name: string, config: MCPServerConfig, options?: ConnectOptions): Promise<MCPServerConnection>;
export async function connectToServer(name: string, config: MCPServerConfig, options: ConnectOptions = {}): Promise<MCPServerConnection<MCPTransport>> {
  checkTimeout(options.timeout, "timeout", name);
  if (options.transport === undefined) assertValidConfig(name, config);
  else checkTimeout((config as { timeout?: unknown } | undefined)?.timeout, "timeout", name);
  const transport: MCPTransport = options.transport ?? (await createTransport(name, config));
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const emit = (method: string, params: unknown): void => {
    for (const key of [method, "*"]) {
      for (const listener of listeners.get(key) ?? []) {
        try {
          listener(key === "*" ? { method, params } : params);
        } catch (error) {
          options.onError?.(toError(error));
        }
      }
    }
  };
  transport.onNotification = (method, params, context) => {
    if (method === "notifications/message") options.onLog?.(params as LogMessage, context);
    emit(method, params);
    options.onNotification?.(method, params, context);
  };
  const answer = serverRequestHandler(options);
  const receiver = options.serverRequestTasks && (options.onSampling || options.onElicitation) ? new TaskReceiver(typeof options.serverRequestTasks === "object" ? options.serverRequestTasks : {}, new Set([...(options.onSampling ? ["sampling/createMessage"] : []), ...(options.onElicitation ? ["elicitation/create"] : [])]), answer) : undefined;
  transport.onRequest = receiver ? (method, params, context) => receiver.handle(method, params, context) ?? answer(method, params, context) : answer;
  transport.onError = (error) => options.onError?.(error);
  if (options.record) recordTransport(transport, name, options.record);
  transport.onClose = () => {
    receiver?.close();
    options.onClose?.();
  };

  const timeout = options.timeout ?? config.timeout ?? DEFAULT_CONNECT_TIMEOUT;
  const handshake = new AbortController();
  const timer = Number.isFinite(timeout) ? setTimeout(() => handshake.abort(new ConnectionTimeoutError(name, timeout)), timeout) : undefined;
  const onCallerAbort = (): void => handshake.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener("abort", onCallerAbort, { once: true });

  const aborted = new Promise<never>((_, reject) => {
    if (handshake.signal.aborted) reject(handshake.signal.reason);
    handshake.signal.addEventListener("abort", () => reject(handshake.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);

  const capabilities = capabilitiesFor(options);
  const clientInfo = options.clientInfo ?? { name: "@mcp/client", version: CLIENT_VERSION };
  // A 2025-era stdio server may ignore an unknown method: its discovery probe has a short bound.
  const negotiation: Negotiation = { name, transport, capabilities, clientInfo, signal: handshake.signal, timeout, boundedProbe: !("url" in config) && options.transport === undefined };

  const steps = (async (): Promise<Handshake> => {
    if (!transport.connected) await transport.connect?.();
    handshake.signal.throwIfAborted();
    const initializeOnly = options.protocol === "2025" || (options.protocol as string | undefined) === "legacy" || config.type === "sse";
    const probe = initializeOnly ? "2025" : await discover(negotiation);
    const result = probe === "2025" ? await initialize(negotiation) : probe;
    transport.setProtocolVersion?.(result.protocolVersion);
    // The transport's own post-handshake work (HTTP opens its GET stream here in the 2025 era,
    // before `initialized`: servers announce things right after it, and a message with no stream is lost).
    await transport.afterHandshake?.({ protocolVersion: result.protocolVersion, listen: options.listen !== false });
    handshake.signal.throwIfAborted();
    if (result.era === "2025") await transport.notify("notifications/initialized");
    return result;
  })();
  steps.catch(() => undefined); // the race below reports it; a late failure after a timeout is moot

  let init: Handshake;
  try {
    init = await Promise.race([steps, aborted]);
  } catch (error) {
    // Reject on time; ending the transport (and a stdio server's process tree) happens after.
    transport.close().catch((closeError: unknown) => options.onError?.(toError(closeError)));
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }

  const session = createSession({
    name,
    transport,
    stateless: init.era === "2026-07-28",
    protocolVersion: init.protocolVersion,
    capabilities,
    serverCapabilities: init.capabilities,
    clientInfo,
    tracing: await tracingFor(options.tracing),
    http: "url" in config || (options.transport !== undefined && "sessionId" in options.transport),
    answer,
    listenerCount: (method) => listeners.get(method)?.size ?? 0,
    onError: options.onError,
  });

  const connection: MCPServerConnection<MCPTransport> = {
    name,
    config,
    transport,
    serverInfo: init.serverInfo,
    capabilities: init.capabilities,
    protocolVersion: init.protocolVersion,
    instructions: init.instructions,
    era: init.era,
    discoverResult: init.era === "2026-07-28" ? init.discover : undefined,
    request: (method, params, requestOptions) => session.request(method, params, requestOptions),
    setLogLevel: (level) => session.setLogLevel(level),
    get subscriptions() {
      return session.subscriptions;
    },
    subscribeResource: (uri) => session.subscribeResource(uri),
    unsubscribeResource: (uri) => session.unsubscribeResource(uri),
    [Symbol.asyncDispose]: () => transport.close(),
    on(method: string, listener: NotificationListener | AnyNotificationListener) {
      let set = listeners.get(method);
      if (!set) listeners.set(method, (set = new Set()));
      const entry = listener as (value: unknown) => void;
      set.add(entry);
      if (method in LIST_FILTERS) session.listenersChanged();
      return () => {
        set.delete(entry);
        if (method in LIST_FILTERS) session.listenersChanged();
      };
    },
  };
  Object.defineProperty(connection, inspectCustom, {
    enumerable: false,
    value: () => ({ name, era: init.era, serverInfo: init.serverInfo, protocolVersion: init.protocolVersion, capabilities: init.capabilities, config: redactConfig(config), transport }),
  });
  return connection;
}

/** Closes the connection's transport (for stdio: ends the server process tree). */
export async function disconnectServer(connection: MCPServerConnection<MCPTransport>): Promise<void> {
  await connection.transport.close();
}
