import { NoResponseError, ParseError, type JsonRpcEndpoint, type JsonRpcMessage, type RequestId } from "@mcp/jsonrpc";
import type { ExchangeResponse } from "./exchange.js";
import { isReservedHeader } from "./headers.js";
import { encodeHeaderValue } from "./request-path.js";

// What a 2026-07-28 POST carries besides its body, the JSON-RPC error a 4xx body may hold, and a
// POST's JSON answer.

const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/**
 * Adds the 2026-07-28 request headers to `headers`: `Mcp-Method`, `Mcp-Name`, and the request's own
 * (`Mcp-Param-*` encoded). Of those, what only the transport sets (`Host`, the session and protocol
 * headers, the body's) and credentials are left out, as they are from configured headers.
 */
export function addRevisionHeaders(
  headers: Record<string, string>,
  message: JsonRpcMessage,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  if (!("method" in message)) return headers;
  headers["mcp-method"] = message.method;
  const params = (message.params ?? {}) as { name?: unknown; uri?: unknown; taskId?: unknown };
  // What Mcp-Name names: the resource, the tool or prompt, or (the tasks extension) the task, so
  // an intermediary can route a task's requests to the instance that holds it.
  const name =
    message.method === "resources/read"
      ? params.uri
      : message.method === "tools/call" || message.method === "prompts/get"
        ? params.name
        : TASK_METHODS.has(message.method)
          ? params.taskId
          : undefined;
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  for (const [key, value] of Object.entries(extra ?? {})) {
    const lower = key.toLowerCase();
    if (lower.startsWith("mcp-param-")) headers[lower] = encodeHeaderValue(value);
    else if (!isReservedHeader(lower) && !CREDENTIAL_HEADERS.has(lower)) headers[lower] = value;
  }
  return headers;
}

/**
 * Credentials are the configured headers' and the auth provider's to send: a request's own
 * headers (which may come from a caller, or from a tool's arguments) do not replace them.
 */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization", "dpop", "cookie"]);

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
  if (
    response?.jsonrpc !== "2.0" ||
    response.id !== requestId ||
    typeof response.error?.code !== "number" ||
    typeof response.error.message !== "string"
  )
    return undefined;
  return value;
}

/**
 * A POST's 2xx answer to request `requestId` that is not an event stream: its JSON body to the
 * endpoint. A body without the response fails the request with {@link NoResponseError} at once, and
 * so does a `204`, or a `202` with no JSON in it (that answer holds no response, and none will
 * come: waiting would only run out the request's timeout).
 */
export async function deliverJsonAnswer(
  endpoint: JsonRpcEndpoint,
  response: ExchangeResponse,
  requestId: RequestId,
  maxBytes: number,
): Promise<void> {
  const { status } = response;
  if (status === 204) {
    response.cancel();
    throw new NoResponseError(requestId, { cause: new Error("the server answered the request 204 No Content") });
  }
  const text = status === 202 ? await acceptedBody(response, requestId, maxBytes) : await response.text(maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const error = new ParseError("HTTP response body", text, { cause, status });
    if (status === 202)
      throw new NoResponseError(requestId, {
        cause: text.trim() === "" ? new Error("the server answered the request 202 Accepted with no body") : error,
      });
    throw error;
  }
  endpoint.receive(value, requestId);
  if (endpoint.pending.has(requestId)) throw new NoResponseError(requestId);
}

/** How long the body of a `202` to a request may take: a response in it comes with the answer's head. */
const ACCEPTED_BODY_MS = 1000;

/**
 * The body of a `202` to a request, which may hold its response; one that has not ended within
 * {@link ACCEPTED_BODY_MS} (a declared length never sent) fails the request with
 * {@link NoResponseError} and releases its connection, instead of holding both until the timeout.
 */
async function acceptedBody(response: ExchangeResponse, requestId: RequestId, maxBytes: number): Promise<string> {
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    response.cancel();
  }, ACCEPTED_BODY_MS);
  try {
    const text = await response.text(maxBytes);
    if (!late) return text;
  } catch (error) {
    if (!late) throw error;
  } finally {
    clearTimeout(timer);
  }
  throw new NoResponseError(requestId, {
    cause: new Error(
      `the server answered the request 202 Accepted, and the body it announced did not arrive within ${ACCEPTED_BODY_MS} ms`,
    ),
  });
}
