// The MCP methods on a connection: `listTools`, `callTool`, resources, prompts and the rest, with pagination, capability checks and caching hints.
import { ResourceNotFoundError, RpcError, type MCPTransport, type RequestOptions } from "@mcp/jsonrpc";
import type { MCPServerConnection } from "./connect.js";

/** Any connection, whatever its transport. */
type Connection = MCPServerConnection<MCPTransport>;
import { CapabilityNotSupportedError, PaginationError } from "./errors.js";
import { NotInProtocolRevisionError } from "./stateless.js";
import type { CallToolOptions } from "./task-status.js";
import { callToolAsTask, forgetTaskSupport, mustListFirst, rememberTaskSupport, runsAsTask } from "./tasks.js";
import type {
  CallToolResult,
  CompleteRef,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "./types.js";

/** Options of the list functions. */
export interface ListOptions extends RequestOptions {
  /** Most pages to follow before failing with {@link PaginationError}. Default 100. */
  maxPages?: number | undefined;
  /** Most items (tools, resources, …) in all pages together before failing with {@link PaginationError}. Default 100,000. */
  maxItems?: number | undefined;
  /**
   * Told the caching hints of 2026-07-28 list results (`ttlMs`, `cacheScope`), once all pages are
   * in: the shortest `ttlMs` of any page, and `"private"` if any page said so. Not called when no
   * page carried a hint (2025-era servers).
   */
  onCacheHints?: ((hints: CacheHints) => void) | undefined;
}

/** How long a result may be reused (`ttlMs`) and by whom (`cacheScope`), as a 2026-07-28 server says. */
export interface CacheHints {
  ttlMs: number | undefined;
  cacheScope: "public" | "private" | undefined;
}

type Capability = "tools" | "resources" | "prompts" | "logging" | "completions";

function has(connection: Connection, capability: Capability): boolean {
  return connection.capabilities[capability] !== undefined && connection.capabilities[capability] !== null;
}

function requireCapability(connection: Connection, capability: Capability, method: string): void {
  if (!has(connection, capability)) throw new CapabilityNotSupportedError(connection.name, capability, method);
}

/**
 * Follows `nextCursor` to the end (the list functions here and `listSkills`). Fails on a
 * repeated cursor (a server looping), past `maxPages` and past `maxItems`, naming the server and
 * the method.
 */
export async function paginate<T>(
  connection: Connection,
  method: string,
  key: string,
  options: ListOptions = {},
): Promise<T[]> {
  const { maxPages = 100, maxItems = 100_000, onCacheHints, ...requestOptions } = options;
  const items: T[] = [];
  let hints: CacheHints | undefined;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await connection.request<Record<string, unknown>>(
      method,
      cursor === undefined ? {} : { cursor },
      requestOptions,
    );
    const list = result[key];
    if (Array.isArray(list)) {
      if (items.length + list.length > maxItems) {
        throw new PaginationError(
          `MCP server "${connection.name}" returned more than ${maxItems} items for ${method}; stopping`,
          method,
          page,
        );
      }
      for (const item of list as T[]) items.push(item);
    }
    const ttl = result["ttlMs"];
    const scope = result["cacheScope"];
    if ((typeof ttl === "number" && Number.isFinite(ttl) && ttl >= 0) || scope === "public" || scope === "private") {
      hints ??= { ttlMs: undefined, cacheScope: undefined };
      if (typeof ttl === "number" && Number.isFinite(ttl) && ttl >= 0) hints.ttlMs = Math.min(hints.ttlMs ?? ttl, ttl);
      if (scope === "private" || (scope === "public" && hints.cacheScope === undefined)) hints.cacheScope = scope;
    }
    const next = result["nextCursor"];
    if (typeof next !== "string" || next === "") {
      if (hints) onCacheHints?.(hints);
      return items;
    }
    if (seen.has(next)) {
      throw new PaginationError(
        `MCP server "${connection.name}" repeated cursor ${JSON.stringify(next)} in ${method} (page ${page}); stopping`,
        method,
        page,
      );
    }
    if (page >= maxPages) {
      throw new PaginationError(
        `MCP server "${connection.name}" returned more than ${maxPages} pages for ${method}; stopping`,
        method,
        page,
      );
    }
    seen.add(next);
    cursor = next;
  }
}

/** Every tool of the server (all pages). Empty, without a request, when the server has no tools. */
export async function listTools(connection: Connection, options?: ListOptions): Promise<Tool[]> {
  if (!has(connection, "tools")) return [];
  const tools = await paginate<Tool>(connection, "tools/list", "tools", options);
  rememberTaskSupport(connection, tools); // callTool runs a tool that requires it as a task
  return tools;
}

/**
 * Calls a tool. `structuredContent` and `isError` come back as the server sent them. A tool that
 * must run as a task (2025-11-25 tasks: its listed `execution.taskSupport` is `"required"`, or
 * `options.task`) is run as one: polled, cancelled on abort, its result returned the same way.
 */
export function callTool(
  connection: Connection,
  name: string,
  args: Record<string, unknown> = {},
  options?: CallToolOptions,
): Promise<CallToolResult> {
  // Not async: the request's own promise is the answer, with no second promise per call to adopt it.
  // A missing capability, or a transport that throws, still fails the call, never the caller.
  try {
    requireCapability(connection, "tools", "tools/call");
    if (options?.task === undefined && mustListFirst(connection)) {
      // A server that runs tool tasks, whose tools this connection never listed: whether this one
      // requires a task is in the listing (once per connection).
      return listTools(connection, { signal: options?.signal }).then(
        () => callTool(connection, name, args, options),
        () => (forgetTaskSupport(connection), callTool(connection, name, args, options)),
      );
    }
    if (runsAsTask(connection, name, options?.task)) return callToolAsTask(connection, name, args, options);
    // `task` and `onTaskStatus` ride along unread: no copy of the options on the hot path.
    return connection.request<CallToolResult>("tools/call", { name, arguments: args }, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Every resource (all pages). Empty, without a request, when the server has no resources. */
export async function listResources(connection: Connection, options?: ListOptions): Promise<Resource[]> {
  if (!has(connection, "resources")) return [];
  return paginate<Resource>(connection, "resources/list", "resources", options);
}

/** Every resource template (all pages). */
export async function listResourceTemplates(
  connection: Connection,
  options?: ListOptions,
): Promise<ResourceTemplate[]> {
  if (!has(connection, "resources")) return [];
  return paginate<ResourceTemplate>(connection, "resources/templates/list", "resourceTemplates", options);
}

/**
 * True when `error` says a resource does not exist: `-32002` (the 2025 era) or `-32602` (what
 * 2026-07-28 uses for it). `readResource` on a 2026-07-28 connection already turns `-32602` into
 * a {@link ResourceNotFoundError}.
 */
export function isResourceNotFound(error: unknown): boolean {
  return RpcError.isInstance(error) && (error.code === -32002 || error.code === -32602);
}

/** Reads one resource. A missing one is a `ResourceNotFoundError` in either era. */
export async function readResource(
  connection: Connection,
  uri: string,
  options?: RequestOptions,
): Promise<ReadResourceResult> {
  requireCapability(connection, "resources", "resources/read");
  try {
    return await connection.request<ReadResourceResult>("resources/read", { uri }, options);
  } catch (error) {
    if (connection.era === "2026-07-28" && RpcError.isInstance(error) && error.code === -32602)
      throw new ResourceNotFoundError(error.rpcMessage, error.data);
    throw error;
  }
}

/**
 * Asks for `notifications/resources/updated` about `uri` (needs `resources.subscribe`). In
 * 2026-07-28 it joins the connection's `subscriptions/listen` stream instead of sending a request.
 */
export async function subscribe(connection: Connection, uri: string, options?: RequestOptions): Promise<void> {
  if (connection.era === "2026-07-28") {
    connection.subscribeResource(uri);
    return;
  }
  if (connection.capabilities.resources?.subscribe !== true)
    throw new CapabilityNotSupportedError(connection.name, "resources.subscribe", "resources/subscribe");
  await connection.request("resources/subscribe", { uri }, options);
}

/** Stops updates about `uri`. */
export async function unsubscribe(connection: Connection, uri: string, options?: RequestOptions): Promise<void> {
  if (connection.era === "2026-07-28") {
    connection.unsubscribeResource(uri);
    return;
  }
  if (connection.capabilities.resources?.subscribe !== true)
    throw new CapabilityNotSupportedError(connection.name, "resources.subscribe", "resources/unsubscribe");
  await connection.request("resources/unsubscribe", { uri }, options);
}

/** Every prompt (all pages). Empty, without a request, when the server has no prompts. */
export async function listPrompts(connection: Connection, options?: ListOptions): Promise<Prompt[]> {
  if (!has(connection, "prompts")) return [];
  return paginate<Prompt>(connection, "prompts/list", "prompts", options);
}

/** Gets one prompt with its arguments filled in. */
export async function getPrompt(
  connection: Connection,
  name: string,
  args?: Record<string, string>,
  options?: RequestOptions,
): Promise<GetPromptResult> {
  requireCapability(connection, "prompts", "prompts/get");
  return connection.request<GetPromptResult>(
    "prompts/get",
    args === undefined ? { name } : { name, arguments: args },
    options,
  );
}

/** What {@link complete} asks: which argument of which prompt or resource template, and what is typed so far. */
export interface CompleteRequest {
  ref: CompleteRef;
  /** The argument being completed and its value so far. */
  argument: { name: string; value: string };
  /** Values of the other arguments, for completions that depend on them. */
  context?: { arguments?: Record<string, string> } | undefined;
}

/** Asks for completions of one argument of a prompt or resource template. */
export async function complete(
  connection: Connection,
  request: CompleteRequest,
  options?: RequestOptions,
): Promise<CompleteResult> {
  requireCapability(connection, "completions", "completion/complete");
  const { ref, argument, context } = request;
  return connection.request<CompleteResult>(
    "completion/complete",
    context === undefined ? { ref, argument } : { ref, argument, context },
    options,
  );
}

/**
 * Sets the lowest level of `notifications/message` the server should send. In 2026-07-28 (which
 * removed `logging/setLevel`) the level travels in every later request's `_meta` instead.
 */
export async function setLoggingLevel(
  connection: Connection,
  level: LoggingLevel,
  options?: RequestOptions,
): Promise<void> {
  if (connection.era === "2026-07-28") {
    connection.setLogLevel(level);
    return;
  }
  requireCapability(connection, "logging", "logging/setLevel");
  await connection.request("logging/setLevel", { level }, options);
}

/** Pings the server; resolves when it answers. (2026-07-28 removed `ping`: a NotInProtocolRevisionError.) */
export async function ping(connection: Connection, options?: RequestOptions): Promise<void> {
  await connection.request("ping", {}, options);
}

/**
 * One liveness round trip in the connection's era: `ping` on a 2025-era session, and on 2026-07-28
 * (which removed `ping`) `server/discover`, the cheapest request every such server answers. What
 * the manager's health checks and `mcp ping` measure. Resolves with the method it sent.
 */
export async function roundTrip(connection: Connection, options?: RequestOptions): Promise<"ping" | "server/discover"> {
  const method = connection.era === "2026-07-28" ? "server/discover" : "ping";
  await connection.request(method, {}, options);
  return method;
}

/** Tells the server the client's roots changed (it will ask `roots/list` again). */
export async function notifyRootsListChanged(connection: Connection): Promise<void> {
  if (connection.era === "2026-07-28")
    throw new NotInProtocolRevisionError(
      connection.name,
      "notifications/roots/list_changed",
      connection.protocolVersion,
      "servers ask for roots again through input requests",
    );
  await connection.transport.notify("notifications/roots/list_changed");
}
