// Helpers over one server's lists: which methods list what, list-change notifications, tool filters, and which failures a reconnect may fix.
import { toError } from "@mcp/jsonrpc";
import {
  HttpError,
  listPrompts,
  listResources,
  listResourceTemplates,
  NetworkError,
  SessionExpiredError,
  type ConnectOptions,
  type MCPServerConfig,
  type MCPServerConnection,
  type Tool,
} from "@mcp/client";
import type { ToolFilter } from "./config/types.js";
import type { MCPManagerOptions, ServerStatus } from "./types.js";

export type ListKind = "prompts" | "resources" | "resourceTemplates";
export const LISTERS: Record<ListKind, (connection: MCPServerConnection) => Promise<unknown[]>> = {
  prompts: (c) => listPrompts(c),
  resources: (c) => listResources(c),
  resourceTemplates: (c) => listResourceTemplates(c),
};
export const LIST_CHANGED: Record<string, ListKind[]> = {
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
};

export const DAY = 24 * 60 * 60 * 1000;

export function transportOf(config: MCPServerConfig): ServerStatus["transport"] {
  return config.type === "http" || config.type === "sse" ? config.type : "stdio";
}

/** The names of each tool list seen by {@link offersTool} (lists are replaced, never changed in place). */
const toolNames = new WeakMap<readonly Tool[], Set<string>>();

/** Whether `tools` has a tool named `name`: one lookup per call, not a walk of the list. */
export function offersTool(tools: readonly Tool[], name: string): boolean {
  let names = toolNames.get(tools);
  if (names === undefined) toolNames.set(tools, (names = new Set(tools.map((tool) => tool.name))));
  return names.has(name);
}

export function filterTools(tools: Tool[], filter: ToolFilter | undefined): Tool[] {
  if (!filter) return tools;
  return tools.filter(
    (tool) =>
      (filter.include === undefined || filter.include.includes(tool.name)) &&
      !(filter.exclude ?? []).includes(tool.name),
  );
}

/**
 * Whether a failed call may be sent again after reconnecting: the server refused the session
 * (a `404` to a session id, or the `400` "no valid session" some servers send), or the request
 * never reached it (connection refused). Never when the error says the request may have run
 * (`mayHaveRun`: the server read it, e.g. its answer had begun when the stream broke), whatever
 * its cause says.
 */
export function isRetryableAfterReconnect(error: unknown): boolean {
  if (typeof error === "object" && error !== null && (error as { mayHaveRun?: unknown }).mayHaveRun === true)
    return false;
  if (SessionExpiredError.isInstance(error)) return true;
  if (HttpError.isInstance(error) && error.status === 400 && /session|not initialized/i.test(error.body)) return true;
  return NetworkError.isInstance(error) && error.errno === "ECONNREFUSED";
}

export function stderrOf(source: unknown): string | undefined {
  const tail =
    typeof source === "object" && source !== null ? (source as { stderrTail?: unknown }).stderrTail : undefined;
  return typeof tail === "string" && tail.trim() !== "" ? tail : undefined;
}

/** The manager's server-aware handlers (sampling, elicitation, roots), bound to one server. */
export function handlersFor(
  name: string,
  options: Pick<MCPManagerOptions, "onElicitation" | "onSampling" | "onRoots">,
): Pick<ConnectOptions, "onElicitation" | "onSampling" | "roots"> {
  const { onElicitation, onSampling, onRoots } = options;
  return {
    ...(onElicitation ? { onElicitation: (params, context) => onElicitation(name, params, context) } : {}),
    ...(onSampling ? { onSampling: (params, context) => onSampling(name, params, context) } : {}),
    ...(onRoots ? { roots: (context) => onRoots(name, context) } : {}),
  };
}

/** Calls each listener with its own `value()`; a listener that throws is reported, never stops the others. */
export function notify<T>(
  listeners: Iterable<(value: T) => void>,
  value: () => T,
  onError: (error: Error) => void,
): void {
  for (const listener of listeners) {
    try {
      listener(value());
    } catch (error) {
      onError(toError(error));
    }
  }
}
