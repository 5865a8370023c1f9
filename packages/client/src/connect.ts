import { createRequire } from "node:module";
import {
  ErrorCodes,
  InvalidConfigError,
  NetworkError,
  RpcError,
  UnsupportedVersionError,
  checkTimeout,
  inspectCustom,
  redactConfig,
  toError,
  type MCPTransport,
  type RequestContext,
  type RequestOptions,
} from "@mcp/jsonrpc";
import { HttpTransport, type HttpTransportConfig } from "@mcp/transport-http";
import { StdioTransport, type StdioTransportConfig } from "@mcp/transport-stdio";
import { ConnectionTimeoutError, InvalidInitializeResultError, UnknownServerTypeError, UnsupportedProtocolVersionError } from "./errors.js";
import { createSession, LIST_FILTERS, type SubscriptionFilter } from "./session.js";
import { serverConfigProblems } from "./validate.js";
import { choiceAfterRejection, isModernError, META, MODERN_PROTOCOL_VERSIONS, withModernMeta } from "./modern.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  InitializeResult,
  LoggingLevel,
  LogMessage,
  Root,
  ServerCapabilities,
} from "./types.js";

/** What `server/discover` returns (MCP 2026-07-28); unknown fields kept, caching hints included. */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities?: ServerCapabilities | undefined;
  instructions?: string | undefined;
  ttlMs?: number | undefined;
  cacheScope?: "public" | "private" | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/** The protocol version this client offers. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Every 2025-era protocol version this client accepts from a server (through `initialize`), newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/** Every version this client offers, in order: the stateless revision first, then the 2025 era. */
export const OFFERED_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28", ...SUPPORTED_PROTOCOL_VERSIONS];

/** A stdio server: `type` omitted or `"stdio"`. */
export type StdioServerConfig = StdioTransportConfig & { type?: "stdio" | undefined };
/** An HTTP server: `type: "http"` (Streamable HTTP) or `"sse"` (legacy HTTP+SSE). */
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
  /** Extra capabilities to advertise (e.g. `experimental`); handler-backed ones are added for you. */
  capabilities?: ClientCapabilities | undefined;
  /** Every server notification (after typed listeners). */
  onNotification?: ((method: string, params: unknown) => void) | undefined;
  /** Server→client requests not handled below; without it they get `-32601`. */
  onRequest?: ((method: string, params: unknown, context: RequestContext) => Promise<unknown>) | undefined;
  /** Answers `roots/list` and advertises `roots: { listChanged: true }`. */
  roots?: Root[] | (() => Root[] | Promise<Root[]>) | undefined;
  /** Answers `sampling/createMessage` and advertises `sampling`. */
  onSampling?: ((params: CreateMessageParams, context: RequestContext) => Promise<CreateMessageResult>) | undefined;
  /** Answers `elicitation/create` and advertises `elicitation`. */
  onElicitation?: ((params: ElicitParams, context: RequestContext) => Promise<ElicitResult>) | undefined;
  /** Fill defaults from the requested schema into an accepted elicitation answer. Default true. */
  applyElicitationDefaults?: boolean | undefined;
  /** `notifications/message` from the server. */
  onLog?: ((message: LogMessage) => void) | undefined;
  /** Non-fatal transport problems (a malformed line, a listener that failed). */
  onError?: ((error: Error) => void) | undefined;
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
   * falling back to `initialize` for 2025-era servers. `"legacy"`: go straight to `initialize`.
   */
  protocol?: "auto" | "legacy" | undefined;
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
  /** `"modern"`: the stateless 2026-07-28 revision; `"legacy"`: a 2025-era session opened with `initialize`. */
  readonly era: "modern" | "legacy";
  /** The `server/discover` result (modern era), with its caching hints (`ttlMs`, `cacheScope`). */
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
}

/** This package's version, sent in `clientInfo` by default. */
export const CLIENT_VERSION: string = (() => {
  try {
    return (createRequire(import.meta.url)("../package.json") as { version: string }).version;
  } catch {
    return "0.0.0";
  }
})();

/**
 * Checks one server config before anything starts; throws {@link InvalidConfigError} (or
 * {@link UnknownServerTypeError}) naming the server, the field and the fix.
 */
export function assertValidConfig(name: string, config: unknown): asserts config is MCPServerConfig {
  const [problem] = serverConfigProblems(config);
  if (!problem) return;
  if ("unknownType" in problem) throw new UnknownServerTypeError(problem.unknownType, name);
  throw new InvalidConfigError(problem.message, { serverName: name, field: problem.field || undefined });
}

function createTransport(name: string, config: MCPServerConfig): BuiltInTransport {
  assertValidConfig(name, config);
  if (config.type === "http" || config.type === "sse") return new HttpTransport({ serverName: name, ...config });
  return new StdioTransport({ serverName: name, ...(config as StdioServerConfig) });
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
 * plus `roots`, `sampling` and `elicitation` for the handlers given. A server's answers (its tool
 * list among them) may depend on them, so a cache of those answers keys on them.
 */
export function capabilitiesFor(options: { capabilities?: ClientCapabilities | undefined; roots?: unknown; onSampling?: unknown; onElicitation?: unknown }): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...(options.capabilities ?? {}) };
  if (options.roots !== undefined) capabilities.roots = { listChanged: true };
  if (options.onSampling) capabilities.sampling = {};
  if (options.onElicitation) capabilities.elicitation = {};
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
        const roots = typeof options.roots === "function" ? await options.roots() : options.roots;
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

function validateInitializeResult(name: string, value: unknown): InitializeResult {
  if (typeof value !== "object" || value === null) throw new InvalidInitializeResultError(name, "not an object");
  const result = value as Record<string, unknown>;
  if (typeof result["protocolVersion"] !== "string") throw new InvalidInitializeResultError(name, "protocolVersion is missing or not a string");
  const serverInfo = result["serverInfo"] as Record<string, unknown> | undefined;
  if (typeof serverInfo !== "object" || serverInfo === null || typeof serverInfo["name"] !== "string") {
    throw new InvalidInitializeResultError(name, "serverInfo.name is missing");
  }
  if (result["capabilities"] !== undefined && (typeof result["capabilities"] !== "object" || result["capabilities"] === null)) {
    throw new InvalidInitializeResultError(name, "capabilities is not an object");
  }
  return { ...(result as unknown as InitializeResult), capabilities: (result["capabilities"] as ServerCapabilities | undefined) ?? {} };
}

/**
 * Connects to an MCP server: picks the transport from `config.type` (or takes `options.transport`),
 * then runs `initialize` → `notifications/initialized`, all within `config.timeout` (default
 * 30000 ms; `Infinity` for none). A failure rejects at once; the transport is closed after it
 * (a stdio server's process tree is ended in the background), so nothing is left running.
 */
export function connectToServer<T extends MCPTransport>(name: string, config: MCPServerConfig, options: ConnectOptions & { transport: T }): Promise<MCPServerConnection<T>>;
export function connectToServer(name: string, config: StdioServerConfig, options?: ConnectOptions): Promise<MCPServerConnection<StdioTransport>>;
export function connectToServer(name: string, config: HttpServerConfig, options?: ConnectOptions): Promise<MCPServerConnection<HttpTransport>>;
export function connectToServer(name: string, config: MCPServerConfig, options?: ConnectOptions): Promise<MCPServerConnection>;
export async function connectToServer(name: string, config: MCPServerConfig, options: ConnectOptions = {}): Promise<MCPServerConnection<MCPTransport>> {
  if (options.transport === undefined) assertValidConfig(name, config);
  else checkTimeout((config as { timeout?: unknown } | undefined)?.timeout, "timeout", name);
  const transport: MCPTransport = options.transport ?? createTransport(name, config);
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
  transport.onNotification = (method, params) => {
    if (method === "notifications/message") options.onLog?.(params as LogMessage);
    emit(method, params);
    options.onNotification?.(method, params);
  };
  transport.onRequest = serverRequestHandler(options);
  transport.onError = (error) => options.onError?.(error);
  transport.onClose = () => options.onClose?.();

  const timeout = config.timeout ?? DEFAULT_CONNECT_TIMEOUT;
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
  const stdio = !("url" in config) && options.transport === undefined;

  /** `server/discover` with a modern version: the server's era, or a clear error. */
  const discover = async (bounded = stdio): Promise<Handshake | "legacy"> => {
    let version = MODERN_PROTOCOL_VERSIONS[0]!;
    let retried = false;
    for (;;) {
      transport.setProtocolVersion?.(version);
      let raw: unknown;
      try {
        raw = await transport.request("server/discover", withModernMeta({}, { version, capabilities, clientInfo, logLevel: undefined }), {
          signal: handshake.signal,
          // A legacy stdio server may ignore an unknown method: the probe has its own short bound.
          timeout: bounded ? Math.min(DISCOVER_PROBE_MS, timeout) : Infinity,
        });
      } catch (error) {
        if (handshake.signal.aborted) throw error;
        if (UnsupportedVersionError.isInstance(error)) {
          const next = choiceAfterRejection(error, retried, SUPPORTED_PROTOCOL_VERSIONS);
          if ("retry" in next) {
            version = next.retry;
            retried = true;
            continue;
          }
          if ("legacy" in next) return "legacy";
          throw new UnsupportedProtocolVersionError(name, OFFERED_PROTOCOL_VERSIONS.join(", "), error.supported, OFFERED_PROTOCOL_VERSIONS);
        }
        if (isModernError(error)) throw error; // a modern server refused us: falling back would hide why
        if (NetworkError.isInstance(error)) throw error;
        return "legacy"; // a 4xx without a modern error body, any other JSON-RPC error, or silence
      }
      // Something that is not a DiscoverResult comes from a server that does not know the method.
      const result = asDiscoverResult(raw);
      if (!result) return "legacy";
      const mutual = MODERN_PROTOCOL_VERSIONS.find((v) => result.supportedVersions.includes(v));
      if (mutual === undefined) {
        if (result.supportedVersions.some((v) => SUPPORTED_PROTOCOL_VERSIONS.includes(v))) return "legacy";
        throw new UnsupportedProtocolVersionError(name, OFFERED_PROTOCOL_VERSIONS.join(", "), result.supportedVersions, OFFERED_PROTOCOL_VERSIONS);
      }
      if (mutual !== version && !retried) {
        version = mutual;
        retried = true;
        continue;
      }
      const serverInfo = (result._meta?.[META.serverInfo] as Implementation | undefined) ?? (result["serverInfo"] as Implementation | undefined) ?? { name, version: "" };
      return { era: "modern", protocolVersion: version, serverInfo, capabilities: result.capabilities ?? {}, instructions: result.instructions, discover: result };
    }
  };

  const initialize = async (): Promise<Handshake> => {
    transport.setProtocolVersion?.(undefined);
    let raw: unknown;
    try {
      raw = await transport.request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo }, { signal: handshake.signal, timeout: Infinity });
    } catch (error) {
      // A modern-only server that was too slow for the probe refuses initialize naming its
      // versions: it is a 2026-07-28 server after all, so ask it properly, with no probe bound.
      if (UnsupportedVersionError.isInstance(error) && MODERN_PROTOCOL_VERSIONS.some((v) => error.supported.includes(v))) {
        const modern = await discover(false);
        if (modern !== "legacy") return modern;
      }
      throw error;
    }
    const result = validateInitializeResult(name, raw);
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new UnsupportedProtocolVersionError(name, LATEST_PROTOCOL_VERSION, result.protocolVersion, SUPPORTED_PROTOCOL_VERSIONS);
    }
    return { era: "legacy", protocolVersion: result.protocolVersion, serverInfo: result.serverInfo, capabilities: result.capabilities, instructions: result.instructions };
  };

  const steps = (async (): Promise<Handshake> => {
    if (!transport.connected) await transport.connect?.();
    handshake.signal.throwIfAborted();
    const probe = options.protocol === "legacy" || config.type === "sse" ? "legacy" : await discover();
    const result = probe === "legacy" ? await initialize() : probe;
    transport.setProtocolVersion?.(result.protocolVersion);
    // The transport's own post-handshake work (HTTP opens its GET stream here in the 2025 era,
    // before `initialized`: servers announce things right after it, and a message with no stream is lost).
    await transport.afterHandshake?.({ protocolVersion: result.protocolVersion, listen: options.listen !== false });
    handshake.signal.throwIfAborted();
    if (result.era === "legacy") await transport.notify("notifications/initialized");
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
    modern: init.era === "modern",
    protocolVersion: init.protocolVersion,
    capabilities,
    clientInfo,
    http: "url" in config || (options.transport !== undefined && "sessionId" in options.transport),
    answer: serverRequestHandler(options),
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
    discoverResult: init.era === "modern" ? init.discover : undefined,
    request: (method, params, requestOptions) => session.request(method, params, requestOptions),
    setLogLevel: (level) => session.setLogLevel(level),
    get subscriptions() {
      return session.subscriptions;
    },
    subscribeResource: (uri) => session.subscribeResource(uri),
    unsubscribeResource: (uri) => session.unsubscribeResource(uri),
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

/** What the handshake learned, in either era. */
type Handshake =
  | { era: "legacy"; protocolVersion: string; serverInfo: Implementation; capabilities: ServerCapabilities; instructions: string | undefined }
  | { era: "modern"; protocolVersion: string; serverInfo: Implementation; capabilities: ServerCapabilities; instructions: string | undefined; discover: DiscoverResult };

/** How long a stdio probe (`server/discover`) waits before taking the server for a 2025-era one. */
export const DISCOVER_PROBE_MS = 2000;

function asDiscoverResult(value: unknown): DiscoverResult | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const result = value as Record<string, unknown>;
  if (!Array.isArray(result["supportedVersions"]) || !result["supportedVersions"].every((v) => typeof v === "string")) return undefined;
  if (result["capabilities"] !== undefined && (typeof result["capabilities"] !== "object" || result["capabilities"] === null)) return undefined;
  return result as unknown as DiscoverResult;
}

/** Closes the connection's transport (for stdio: ends the server process tree). */
export async function disconnectServer(connection: MCPServerConnection<MCPTransport>): Promise<void> {
  await connection.transport.close();
}
