import { RequestTimeoutError, type JsonRpcResponse } from "@mcp/jsonrpc";
import { LiteHttpError, LiteParseError } from "./errors.js";
import { parseSSE } from "./sse.js";

/** Options of {@link callMCP}. */
export interface CallMCPOptions {
  /** Milliseconds for the whole call (headers and body). No timeout when omitted. */
  timeout?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Extra headers; `Accept` and `Content-Type` stay what MCP needs. */
  headers?: Record<string, string> | undefined;
  /** A custom `fetch` (default: the global one). */
  fetch?: typeof fetch | undefined;
}

let counter = 0;

/**
 * One MCP request over HTTP, with no session or transport lifecycle: POSTs a JSON-RPC request and
 * returns the raw JSON-RPC envelope — a result or an error; a JSON-RPC error does not throw.
 * Works with JSON and SSE answers.
 *
 * Throws {@link LiteHttpError} for a non-2xx status, {@link LiteParseError} for an unreadable body,
 * `RequestTimeoutError` on timeout, and the caller's own reason when `signal` aborts.
 */
export async function callMCP<T = unknown>(url: string, method: string, params?: object, options: CallMCPOptions = {}): Promise<JsonRpcResponse<T>> {
  const { timeout, signal } = options;
  const timer = timeout === undefined ? undefined : AbortSignal.timeout(timeout);
  const signals = [signal, timer].filter((s): s is AbortSignal => s !== undefined);
  const combined = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  counter += 1;
  const body = JSON.stringify({ jsonrpc: "2.0", id: `lite-${Date.now().toString(36)}-${counter}`, method, ...(params === undefined ? {} : { params }) });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  headers["content-type"] = "application/json";
  headers["accept"] = "application/json, text/event-stream";

  let text: string;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { method: "POST", headers, body, ...(combined ? { signal: combined } : {}) });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timer?.aborted) throw new RequestTimeoutError(timeout as number, { method, cause: error });
    throw error;
  }
  if (!response.ok) throw new LiteHttpError(response.status, response.statusText, text);
  try {
    return parseSSE(text) as JsonRpcResponse<T>;
  } catch (error) {
    throw new LiteParseError(text, { cause: error, status: response.status });
  }
}
