import { RpcError, ErrorCodes, toError, type MCPTransport, type RequestContext } from "@mcp/jsonrpc";
import { HttpTransport, type HttpTransportConfig } from "@mcp/transport-http";
import { StdioTransport, type StdioTransportConfig } from "@mcp/transport-stdio";
import { ConnectionTimeoutError, InvalidInitializeResultError, UnknownServerTypeError, UnsupportedProtocolVersionError } from "./errors.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  InitializeResult,
  LogMessage,
  Root,
  ServerCapabilities,
} from "./types.js";

/** The protocol version this client offers. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Every protocol version this client accepts from a server, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** A stdio server: `type` omitted or `"stdio"`. */
export type StdioServerConfig = StdioTransportConfig & { type?: "stdio" | undefined };
/** An HTTP server: `type: "http"` (Streamable HTTP) or `"sse"` (legacy HTTP+SSE). */
export type HttpServerConfig = HttpTransportConfig;
/** How to reach one MCP server. `timeout` bounds the handshake and is every request's default. */
export type MCPServerConfig = StdioServerConfig | HttpServerConfig;

/** Default handshake timeout when the config sets none. */
export const DEFAULT_CONNECT_TIMEOUT = 30_000;

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
  /** HTTP only: open the GET stream for server-initiated messages after the handshake. Default true. */
  listen?: boolean | undefined;
}

type Listener = (params: unknown) => void;

/** A live connection to one MCP server. */
export interface MCPServerConnection {
  readonly name: string;
  readonly config: MCPServerConfig;
  readonly transport: MCPTransport;
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly protocolVersion: string;
  readonly instructions: string | undefined;
  /**
   * Subscribes to one notification method (e.g. `"notifications/tools/list_changed"`,
   * `"notifications/resources/updated"`, `"notifications/message"`), or `"*"` for all.
   * Returns the unsubscribe function.
   */
  on(method: string, listener: Listener): () => void;
}

const CLIENT_VERSION = "0.1.0";
/** How long the handshake waits for the HTTP GET stream to open before going on without it. */
const LISTENER_OPEN_WAIT_MS = 2000;

function createTransport(config: MCPServerConfig): StdioTransport | HttpTransport {
  const type = (config as { type?: unknown }).type;
  if (type === undefined || type === "stdio") return new StdioTransport(config as StdioServerConfig);
  if (type === "http" || type === "sse") return new HttpTransport(config as HttpServerConfig);
  throw new UnknownServerTypeError(type);
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

function capabilitiesFor(options: ConnectOptions): ClientCapabilities {
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
 * Connects to an MCP server: picks the transport from `config.type`, then runs
 * `initialize` → `notifications/initialized`, all within `config.timeout` (default 30000 ms).
 * On any failure the transport is closed and nothing is left running.
 */
export async function connectToServer(name: string, config: MCPServerConfig, options: ConnectOptions = {}): Promise<MCPServerConnection> {
  const transport = createTransport(config);
  const listeners = new Map<string, Set<Listener>>();
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
  const timer = setTimeout(() => handshake.abort(new ConnectionTimeoutError(name, timeout)), timeout);
  const onCallerAbort = (): void => handshake.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener("abort", onCallerAbort, { once: true });

  const aborted = new Promise<never>((_, reject) => {
    if (handshake.signal.aborted) reject(handshake.signal.reason);
    handshake.signal.addEventListener("abort", () => reject(handshake.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);

  try {
    const init = await Promise.race([
      (async () => {
        await transport.connect();
        const raw = await transport.request(
          "initialize",
          {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: capabilitiesFor(options),
            clientInfo: options.clientInfo ?? { name: "@mcp/client", version: CLIENT_VERSION },
          },
          { signal: handshake.signal, timeout: Infinity },
        );
        const result = validateInitializeResult(name, raw);
        if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
          throw new UnsupportedProtocolVersionError(name, LATEST_PROTOCOL_VERSION, result.protocolVersion, SUPPORTED_PROTOCOL_VERSIONS);
        }
        transport.setProtocolVersion(result.protocolVersion);
        if (transport instanceof HttpTransport && options.listen !== false) {
          // Open the server's GET stream before `initialized`: servers announce things (such as
          // tools/list_changed) right after it, and a message sent with no stream open is lost.
          // Bounded: a server that holds the GET without answering must not stall the handshake.
          const opening = transport.startSSEListener().catch((error: unknown) => options.onError?.(toError(error)));
          let waited: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([opening, new Promise((resolve) => (waited = setTimeout(resolve, LISTENER_OPEN_WAIT_MS)))]);
          clearTimeout(waited);
        }
        await transport.notify("notifications/initialized");
        return result;
      })(),
      aborted,
    ]);

    return {
      name,
      config,
      transport,
      serverInfo: init.serverInfo,
      capabilities: init.capabilities,
      protocolVersion: init.protocolVersion,
      instructions: init.instructions,
      on(method, listener) {
        let set = listeners.get(method);
        if (!set) listeners.set(method, (set = new Set()));
        set.add(listener);
        return () => {
          set.delete(listener);
        };
      },
    };
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
}

/** Closes the connection's transport (for stdio: ends the server process tree). */
export async function disconnectServer(connection: MCPServerConnection): Promise<void> {
  await connection.transport.close();
}
