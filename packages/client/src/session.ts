// A connection's request path in each protocol era: 2025 sessions as they are, 2026-07-28 requests with their `_meta` envelope and `input_required` rounds.
import { toError } from "@mcp/jsonrpc";
import type { MCPTransport, RequestContext, RequestOptions } from "@mcp/jsonrpc";
import {
  headerParamsOf,
  headersFor,
  InvalidResultError,
  MAX_INPUT_ROUNDS,
  MRTR_METHODS,
  NotInProtocolRevisionError,
  REMOVED_IN_STATELESS,
  withStatelessMeta,
  type HeaderParam,
} from "./stateless.js";
import { dropMalformedItems, LIST_ITEM_KEYS } from "./list-items.js";
import { callCapabilities, followTask, serverOffersTasks } from "./tasks-extension.js";
import type { CallToolOptions } from "./task-status.js";
import { traceRequests, type TracingApi } from "./tracing.js";
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities, Tool } from "./types.js";

/** What a `subscriptions/listen` stream asks for (and what the server acknowledged). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean | undefined;
  promptsListChanged?: boolean | undefined;
  resourcesListChanged?: boolean | undefined;
  resourceSubscriptions?: string[] | undefined;
}

/** Pause before reopening a `subscriptions/listen` stream that ended on its own. */
const LISTEN_REOPEN_MS = 1000;

/** The notification methods a `subscriptions/listen` filter field stands for. */
export const LIST_FILTERS: Readonly<
  Record<string, "toolsListChanged" | "promptsListChanged" | "resourcesListChanged">
> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** What a session needs from the connection it serves. */
export interface SessionContext {
  name: string;
  transport: MCPTransport;
  stateless: boolean;
  protocolVersion: string;
  capabilities: ClientCapabilities;
  /** What the server declared (2026-07-28: its `server/discover` answer). */
  serverCapabilities: ServerCapabilities;
  clientInfo: Implementation;
  /** Whether the transport is HTTP (`x-mcp-header` applies there only). */
  http: boolean;
  /** OpenTelemetry, when a program traces: a span per request, its context in `_meta`. */
  tracing?: TracingApi | undefined;
  /** The connection's handlers for server→client requests, also used for MRTR input requests. */
  answer: (method: string, params: unknown, context: RequestContext) => Promise<unknown>;
  /** How many listeners the connection has for a notification method. */
  listenerCount: (method: string) => number;
  onError: ((error: Error) => void) | undefined;
}

/** The per-era request path of one connection, and its 2026-07-28 subscriptions. */
export interface Session {
  request<T = unknown>(method: string, params?: object, options?: RequestOptions): Promise<T>;
  setLogLevel(level: LoggingLevel | undefined): void;
  readonly subscriptions: SubscriptionFilter | undefined;
  subscribeResource(uri: string): void;
  unsubscribeResource(uri: string): void;
  /** Re-reads what is listened to (after `on()` or an unsubscribe) and adjusts the listen stream. */
  listenersChanged(): void;
}

/**
 * The request path of one connection: straight to the transport in the 2025 era; in 2026-07-28
 * the `_meta` envelope, `Mcp-Param-*` headers, multi round-trip input, removed methods refused, and
 * one `subscriptions/listen` stream for what is listened to.
 */
export function createSession(context: SessionContext): Session {
  const { name, transport, stateless, protocolVersion, capabilities, clientInfo, http, answer, listenerCount } =
    context;
  const tasks = serverOffersTasks(context.serverCapabilities);
  const options = { onError: context.onError };
  let logLevel: LoggingLevel | undefined;
  const toolHeaders = new Map<string, HeaderParam[]>();

  /**
   * The server's answers to a round of input requests (elicitation, sampling, roots), through the
   * same handlers; they arrived in the answer to the caller's request, so they carry its `relatedTo`.
   */
  const answerInputs = async (
    requests: Record<string, { method?: string; params?: unknown }>,
    requestOptions: RequestOptions | undefined,
  ): Promise<Record<string, unknown>> => {
    const context: RequestContext = {
      signal: requestOptions?.signal ?? new AbortController().signal,
      requestId: "input",
      relatedTo: requestOptions?.relatedTo,
    };
    const answers: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests))
      answers[key] = await answer(String(request.method), request.params, context);
    return answers;
  };

  const statelessRequest = async <T>(method: string, params?: object, requestOptions?: RequestOptions): Promise<T> => {
    if (REMOVED_IN_STATELESS.has(method)) throw new NotInProtocolRevisionError(name, method, protocolVersion);
    const extra =
      method === "tools/call"
        ? headersFor(
            toolHeaders.get(String((params as { name?: unknown } | undefined)?.name)) ?? [],
            (params as { arguments?: Record<string, unknown> } | undefined)?.arguments ?? {},
          )
        : undefined;
    const callOptions = extra
      ? { ...requestOptions, headers: { ...requestOptions?.headers, ...extra } }
      : requestOptions;
    // A tools/call to a server with the tasks extension declares it too: the server may answer with a task.
    const taskable = method === "tools/call" && tasks;
    const requestCapabilities = taskable ? callCapabilities(capabilities, requestOptions) : capabilities;
    let current: object | undefined = params;
    for (let round = 0; ; round++) {
      const result = await transport.request<Record<string, unknown>>(
        method,
        withStatelessMeta(current, {
          version: protocolVersion,
          capabilities: requestCapabilities,
          clientInfo,
          // A call's own level (CallToolOptions.logLevel) before the connection's.
          logLevel: (requestOptions as CallToolOptions | undefined)?.logLevel ?? logLevel,
        }),
        callOptions,
      );
      const type = result?.["resultType"];
      if (type === undefined || type === "complete") {
        const checked = LIST_ITEM_KEYS.has(method)
          ? (dropMalformedItems(name, method, result, options.onError) as Record<string, unknown>)
          : result;
        return (method === "tools/list" ? filterTools(checked) : checked) as T;
      }
      if (type === "task") {
        if (!taskable || requestCapabilities === capabilities)
          throw new InvalidResultError(
            `MCP server "${name}" answered ${method} with a task, which this request did not allow`,
          );
        const tool = String((params as { name?: unknown } | undefined)?.name);
        return (await followTask(
          { name, request: (m, p, o) => statelessRequest<Record<string, unknown>>(m, p, o), answerInputs },
          result,
          tool,
          requestOptions,
        )) as T;
      }
      if (type !== "input_required")
        throw new InvalidResultError(
          `MCP server "${name}" answered ${method} with an unknown resultType ${JSON.stringify(type)}`,
        );
      if (!MRTR_METHODS.has(method))
        throw new InvalidResultError(`MCP server "${name}" asked for input on ${method}, which cannot take any`);
      if (round + 1 >= MAX_INPUT_ROUNDS)
        throw new InvalidResultError(
          `MCP server "${name}" still asked for input after ${MAX_INPUT_ROUNDS} rounds of ${method}; giving up`,
        );
      const inputRequests = result["inputRequests"] as
        Record<string, { method?: string; params?: unknown }> | undefined;
      const retry: Record<string, unknown> = { ...(params ?? {}) };
      if (inputRequests && Object.keys(inputRequests).length > 0)
        retry["inputResponses"] = await answerInputs(inputRequests, requestOptions);
      if (result["requestState"] !== undefined) retry["requestState"] = result["requestState"];
      current = retry;
    }
  };

  // The 2025 era adds nothing: requests go straight to the transport, with no extra promise per call.
  // List results are checked item by item (see list-items.ts).
  const plain: Session["request"] = stateless
    ? statelessRequest
    : (method, params, requestOptions) =>
        LIST_ITEM_KEYS.has(method)
          ? transport
              .request(method, params, requestOptions)
              .then((result) => dropMalformedItems(name, method, result, options.onError) as never)
          : transport.request(method, params, requestOptions);
  const request = context.tracing
    ? traceRequests(context.tracing, { server: name, protocolVersion, transport: http ? "http" : "stdio" }, plain)
    : plain;

  /** Drops tools whose x-mcp-header annotations are invalid (reported, not fatal) and remembers the rest's. */
  const filterTools = (result: Record<string, unknown>): Record<string, unknown> => {
    if (!http || !Array.isArray(result["tools"])) return result;
    const kept: Tool[] = [];
    for (const tool of result["tools"] as Tool[]) {
      const checked = headerParamsOf(tool);
      if ("invalid" in checked) {
        options.onError?.(
          new InvalidResultError(`MCP server "${name}": tool "${tool.name}" is not offered: ${checked.invalid}`),
        );
        continue;
      }
      toolHeaders.set(tool.name, checked.params);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  };

  // ─── subscriptions/listen (2026-07-28): one stream for the change notifications asked for ───
  const resourceSubscriptions = new Set<string>();
  let acknowledged: SubscriptionFilter | undefined;
  let listen: { controller: AbortController; key: string } | undefined;
  const wantedFilter = (): SubscriptionFilter => {
    const filter: SubscriptionFilter = {};
    for (const [method, field] of Object.entries(LIST_FILTERS)) if (listenerCount(method) > 0) filter[field] = true;
    if (resourceSubscriptions.size > 0) filter.resourceSubscriptions = [...resourceSubscriptions].sort();
    return filter;
  };
  const syncListen = (): void => {
    if (!stateless || !transport.connected) return;
    const filter = wantedFilter();
    const key = JSON.stringify(filter);
    if (listen?.key === key) return;
    listen?.controller.abort(new Error("subscriptions changed"));
    listen = undefined;
    acknowledged = undefined;
    if (Object.keys(filter).length === 0) return;
    const controller = new AbortController();
    listen = { controller, key };
    const open = (): void => {
      transport
        .request(
          "subscriptions/listen",
          withStatelessMeta(
            { notifications: filter },
            { version: protocolVersion, capabilities, clientInfo, logLevel },
          ),
          { signal: controller.signal, timeout: Infinity },
        )
        .then(
          () => undefined,
          (error: unknown) => {
            if (controller.signal.aborted || !transport.connected || listen?.controller !== controller) return;
            options.onError?.(
              new Error(
                `the subscriptions/listen stream of MCP server "${name}" ended (${toError(error).message}); reopening it`,
                { cause: error },
              ),
            );
          },
        )
        .finally(() => {
          // A stream that ends unexpectedly is reopened, after a pause so a refusing server is not hammered.
          if (controller.signal.aborted || !transport.connected || listen?.controller !== controller) return;
          const timer = setTimeout(open, LISTEN_REOPEN_MS);
          controller.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
        });
    };
    open();
  };
  const onAcknowledged = (params: unknown): void => {
    acknowledged = (params as { notifications?: SubscriptionFilter } | undefined)?.notifications ?? {};
  };
  if (stateless) {
    const previous = transport.onNotification;
    transport.onNotification = (method, params, context) => {
      if (method === "notifications/subscriptions/acknowledged") onAcknowledged(params);
      previous?.(method, params, context);
    };
    const previousClose = transport.onClose;
    transport.onClose = () => {
      listen?.controller.abort(new Error("connection closed"));
      previousClose?.();
    };
  }

  return {
    request,
    setLogLevel(level) {
      logLevel = level;
    },
    get subscriptions() {
      return acknowledged;
    },
    subscribeResource(uri) {
      resourceSubscriptions.add(uri);
      syncListen();
    },
    unsubscribeResource(uri) {
      resourceSubscriptions.delete(uri);
      syncListen();
    },
    listenersChanged: syncListen,
  };
}
