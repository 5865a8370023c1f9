// `callMCP`: one MCP request over HTTP, POSTed, its JSON or SSE answer read, no session kept.
import {
  NetworkError,
  NoResponseError,
  RequestTimeoutError,
  isJsonRpcResponse,
  type JsonRpcResponse,
} from "@mcp/jsonrpc";
import { bodyChunks, failedBeforeSending, readBoundedText } from "@mcp/jsonrpc/internal";
import { liteHttpError, liteParseError } from "./errors.js";
import { fetchFor, proxyErrorOf } from "./proxy.js";
import { redirectTarget } from "./redirect.js";
import { parsePayloads, parseSSEStream } from "./sse.js";

/** Options of {@link callMCP}. */
export interface CallMCPOptions {
  /** Milliseconds for the whole call (headers and body). No timeout when omitted. */
  timeout?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Extra headers; `Accept` and `Content-Type` stay what MCP needs. */
  headers?: Record<string, string> | undefined;
  /** A custom `fetch` (default: the global one). */
  fetch?: typeof fetch | undefined;
  /** Largest JSON body or SSE event accepted, in bytes. Default 64 MiB. */
  maxMessageBytes?: number | undefined;
  /**
   * A forward proxy for this call (Node): its URL, credentials in it sent as `Proxy-Authorization`,
   * or `false` for none. Unset: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`. Ignored with `fetch`.
   */
  proxy?: string | false | undefined;
}

const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
let counter = 0;

/** The body as text, failing once it passes `limit` bytes (the rest is not read). */
function readText(response: Response, limit: number): Promise<string> {
  return readBoundedText(bodyChunks(response.body), limit, { source: "HTTP response body", option: "maxMessageBytes" });
}

/** The response to `id` among the payloads of a body (single messages and batches), if any. */
function responseFor(payload: unknown, id: string): JsonRpcResponse | undefined {
  for (const item of Array.isArray(payload) ? (payload as unknown[]) : [payload]) {
    if (isJsonRpcResponse(item) && item.id === id) return item;
  }
  return undefined;
}

/**
 * One MCP request over HTTP, with no session or transport lifecycle: POSTs a JSON-RPC request and
 * returns the raw JSON-RPC envelope of **its** response — a result or an error; a JSON-RPC error
 * does not throw. Notifications and server requests that come first on an SSE answer (progress,
 * logs) are skipped; reading stops as soon as the response arrives.
 *
 * Throws `HttpError` (`MCP request failed: <status> <statusText>: <reason>`) for a non-2xx status,
 * `ParseError` (`Failed to parse MCP response`) for an unreadable body, `NoResponseError` when the
 * body ends without the response, `MessageTooLargeError` past `maxMessageBytes`, `NetworkError`
 * when the server cannot be reached, `RequestTimeoutError` on timeout, and the caller's own reason
 * when `signal` aborts.
 */
export async function callMCP<T = unknown>(
  url: string,
  method: string,
  params?: object,
  options: CallMCPOptions = {},
): Promise<JsonRpcResponse<T>> {
  const { timeout, signal } = options;
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const timer = timeout === undefined ? undefined : AbortSignal.timeout(timeout);
  const signals = [signal, timer].filter((s): s is AbortSignal => s !== undefined);
  const combined = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  counter += 1;
  const id = `lite-${Date.now().toString(36)}-${counter}`;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  headers["content-type"] = "application/json";
  headers["accept"] = "application/json, text/event-stream";

  const failed = (error: unknown): unknown => {
    if (signal?.aborted) return signal.reason;
    if (timer?.aborted) return new RequestTimeoutError(timeout as number, { method, cause: error });
    return error;
  };

  let response: Response;
  let current = url;
  for (let hops = 0; ; hops++) {
    try {
      const send = options.fetch ?? (await fetchFor(url, options.proxy));
      // Redirects are ours to judge (redirect.ts): fetch would take any headers to any origin.
      response = await send(current, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        ...(combined ? { signal: combined } : {}),
      });
    } catch (error) {
      if (signal?.aborted || timer?.aborted) throw failed(error);
      throw (
        (options.fetch === undefined && proxyErrorOf(current, options.proxy, error)) ||
        new NetworkError(current, error, { mayHaveRun: !failedBeforeSending(error) })
      );
    }
    const next = redirectTarget(response, url, current, hops);
    if (next === undefined) break;
    current = next;
  }
  try {
    if (!response.ok) {
      let text = "";
      try {
        text = await readText(response, 64 * 1024);
      } catch {
        // the status says enough
      }
      throw liteHttpError(response.status, response.statusText, text, url, {
        wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
        mcpAuthServer: response.headers.get("mcp-auth-server") ?? undefined,
      });
    }
    if ((response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream")) {
      for await (const payload of parseSSEStream(bodyChunks(response.body), { maxEventSize: limit })) {
        const found = responseFor(payload, id);
        if (found) return found as JsonRpcResponse<T>;
      }
      throw new NoResponseError(id);
    }
    if (response.status === 204) {
      void response.body?.cancel().catch(() => undefined);
      throw new NoResponseError(id, { cause: new Error("the server answered the request 204 No Content") });
    }
    const text = await readText(response, limit);
    let payloads: unknown[];
    try {
      payloads = parsePayloads(text);
    } catch (error) {
      // A 202 holds no response (unless its body is one): none is coming.
      if (response.status === 202)
        throw new NoResponseError(id, {
          cause:
            text.trim() === ""
              ? new Error("the server answered the request 202 Accepted with no body")
              : liteParseError(text, { cause: error, status: 202 }),
        });
      throw liteParseError(text, { cause: error, status: response.status });
    }
    for (const payload of payloads) {
      const found = responseFor(payload, id);
      if (found) return found as JsonRpcResponse<T>;
    }
    throw new NoResponseError(id);
  } catch (error) {
    throw failed(error);
  }
}
