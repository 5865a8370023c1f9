// `connectToServer`: the transport a config names, the handlers, the negotiated session, and the connection object callers hold.
import {
  ErrorCodes,
  InvalidConfigError,
  RpcError,
  toError,
  type MCPTransport,
  type RequestContext,
} from "@mcp/jsonrpc";
import { checkTimeout, inspectCustom, redactConfig } from "@mcp/jsonrpc/internal";
import { HttpTransport } from "@mcp/transport-http";
import type { StdioTransport } from "@mcp/transport-stdio";
import {
  DEFAULT_CONNECT_TIMEOUT,
  type AnyNotificationListener,
  type BuiltInTransport,
  type ConnectOptions,
  type HttpServerConfig,
  type MCPServerConfig,
  type MCPServerConnection,
  type NotificationListener,
  type StdioServerConfig,
} from "./connect-types.js";
import { ConnectionTimeoutError, UnknownServerTypeError } from "./errors.js";
import { CLIENT_VERSION } from "./version.js";
import { createSession, LIST_FILTERS } from "./session.js";
import { serverConfigProblems } from "./validate.js";
import { recordTransport } from "./record.js";
import { tracingFor } from "./tracing-load.js";
import { TaskReceiver } from "./task-receiver.js";
import { discover, initialize, type Handshake, type Negotiation } from "./negotiate.js";
import type { ClientCapabilities, CreateMessageParams, ElicitParams, ElicitResult, LogMessage } from "./types.js";

export {
  DEFAULT_CONNECT_TIMEOUT,
  type AnyNotificationListener,
  type BuiltInTransport,
  type ConnectOptions,
  type HttpServerConfig,
  type MCPServerConfig,
  type MCPServerConnection,
  type NotificationListener,
  type StdioServerConfig,
} from "./connect-types.js";

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
export function capabilitiesFor(options: {
  capabilities?: ClientCapabilities | undefined;
  extensions?: Record<string, object> | undefined;
  roots?: unknown;
  onSampling?: unknown;
  onElicitation?: unknown;
  serverRequestTasks?: unknown;
}): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...(options.capabilities ?? {}) };
  if (options.extensions)
    capabilities["extensions"] = { ...(capabilities["extensions"] as object | undefined), ...options.extensions };
  if (options.roots !== undefined) capabilities.roots = { listChanged: true };
  if (options.onSampling) capabilities.sampling = {};
  // Modes declared in `capabilities.elicitation` (`{ form: {}, url: {} }`) are kept; `{}` means form only.
  if (options.onElicitation) capabilities.elicitation = capabilities.elicitation ?? {};
  if (options.serverRequestTasks && (options.onSampling || options.onElicitation))
    capabilities["tasks"] = TaskReceiver.capability({
      sampling: Boolean(options.onSampling),
      elicitation: Boolean(options.onElicitation),
    });
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
        return options.applyElicitationDefaults === false
          ? result
          : applyElicitationDefaults(params as ElicitParams, result);
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
export function connectToServer<T extends MCPTransport>(
  name: string,
  config: MCPServerConfig,
  options: ConnectOptions & { transport: T },
): Promise<MCPServerConnection<T>>;
export function connectToServer(
  name: string,
  config: StdioServerConfig,
  options?: ConnectOptions,
): Promise<MCPServerConnection<StdioTransport>>;
export function connectToServer(
  name: string,
  config: HttpServerConfig,
  options?: ConnectOptions,
): Promise<MCPServerConnection<HttpTransport>>;
export function connectToServer(
  name: string,
  config: MCPServerConfig,
  options?: ConnectOptions,
): Promise<MCPServerConnection>;
export async function connectToServer(
  name: string,
  config: MCPServerConfig,
  options: ConnectOptions = {},
): Promise<MCPServerConnection<MCPTransport>> {
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
  const receiver =
    options.serverRequestTasks && (options.onSampling || options.onElicitation)
      ? new TaskReceiver(
          typeof options.serverRequestTasks === "object" ? options.serverRequestTasks : {},
          new Set([
            ...(options.onSampling ? ["sampling/createMessage"] : []),
            ...(options.onElicitation ? ["elicitation/create"] : []),
          ]),
          answer,
        )
      : undefined;
  transport.onRequest = receiver
    ? (method, params, context) => receiver.handle(method, params, context) ?? answer(method, params, context)
    : answer;
  transport.onError = (error) => options.onError?.(error);
  if (options.record) recordTransport(transport, name, options.record);
  transport.onClose = () => {
    receiver?.close();
    options.onClose?.();
  };

  const timeout = options.timeout ?? config.timeout ?? DEFAULT_CONNECT_TIMEOUT;
  const handshake = new AbortController();
  const timer = Number.isFinite(timeout)
    ? setTimeout(() => handshake.abort(new ConnectionTimeoutError(name, timeout)), timeout)
    : undefined;
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
  // A 2025-era stdio server may ignore an unknown method: its discovery probe has a short bound,
  // counted from the server's first output (a slow, silent start is not taken for a 2025 server).
  const negotiation: Negotiation = {
    name,
    transport,
    capabilities,
    clientInfo,
    signal: handshake.signal,
    timeout,
    boundedProbe: !("url" in config) && options.transport === undefined,
    serverOutput: (transport as Partial<Pick<StdioTransport, "firstOutput">>).firstOutput,
  };

  const steps = (async (): Promise<Handshake> => {
    if (!transport.connected) await transport.connect?.();
    handshake.signal.throwIfAborted();
    const initializeOnly =
      options.protocol === "2025" || (options.protocol as string | undefined) === "legacy" || config.type === "sse";
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
    value: () => ({
      name,
      era: init.era,
      serverInfo: init.serverInfo,
      protocolVersion: init.protocolVersion,
      capabilities: init.capabilities,
      config: redactConfig(config),
      transport,
    }),
  });
  return connection;
}

/** Closes the connection's transport (for stdio: ends the server process tree). */
export async function disconnectServer(connection: MCPServerConnection<MCPTransport>): Promise<void> {
  await connection.transport.close();
}
