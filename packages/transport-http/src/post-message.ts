import type { JsonRpcMessage, RequestId } from "@mcp/jsonrpc";
import { encodeHeaderValue } from "./request-path.js";

// What a 2026-07-28 POST carries besides its body, and the JSON-RPC error a 4xx body may hold.

const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** Adds the 2026-07-28 request headers to `headers`: `Mcp-Method`, `Mcp-Name`, and the caller's (`Mcp-Param-*` encoded). */
export function addRevisionHeaders(headers: Record<string, string>, message: JsonRpcMessage, extra: Record<string, string> | undefined): Record<string, string> {
  if (!("method" in message)) return headers;
  headers["mcp-method"] = message.method;
  const params = (message.params ?? {}) as { name?: unknown; uri?: unknown; taskId?: unknown };
  // What Mcp-Name names: the resource, the tool or prompt, or (the tasks extension) the task, so
  // an intermediary can route a task's requests to the instance that holds it.
  const name = message.method === "resources/read" ? params.uri : message.method === "tools/call" || message.method === "prompts/get" ? params.name : TASK_METHODS.has(message.method) ? params.taskId : undefined;
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  for (const [key, value] of Object.entries(extra ?? {})) {
    const lower = key.toLowerCase();
    headers[lower] = lower.startsWith("mcp-param-") ? encodeHeaderValue(value) : value;
  }
  return headers;
}

/**
 * The JSON-RPC error response for `requestId` in an HTTP error body, if that is what it is: a
 * stateless-revision server answers protocol errors (unsupported version, unknown method, header
 * mismatch) with a 4xx and the request's JSON-RPC error.
 */
export function errorResponseIn(body: string, requestId: RequestId): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const response = value as { jsonrpc?: unknown; id?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (response?.jsonrpc !== "2.0" || response.id !== requestId || typeof response.error?.code !== "number" || typeof response.error.message !== "string") return undefined;
  return value;
}
