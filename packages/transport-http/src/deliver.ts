// One SSE event's JSON-RPC payload to the endpoint; a malformed one is reported, not fatal.
import { MessageTooLargeError, ParseError, type JsonRpcEndpoint, type RequestId } from "@mcp/jsonrpc";

/**
 * One SSE event's JSON-RPC payload to the endpoint; a malformed one is reported, not fatal.
 * `related`: the request whose POST stream carried it (none for the GET and HTTP+SSE streams).
 */
export function deliverSseEvent(
  endpoint: JsonRpcEndpoint,
  data: string,
  type: string | undefined,
  related?: RequestId,
): void {
  if (type !== undefined && type !== "message") return;
  if (data.trim() === "") return; // a priming event: an id (and maybe retry) only
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (cause) {
    endpoint.reportError(new ParseError("SSE event", data, { cause }));
    return;
  }
  endpoint.receive(value, related);
}

/** True for the size-limit error, which ends a stream instead of being retried. */
export function isTooLarge(error: unknown): error is MessageTooLargeError {
  return MessageTooLargeError.isInstance(error);
}
