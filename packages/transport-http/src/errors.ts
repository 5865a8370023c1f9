// `SseEndpointError`: an HTTP+SSE server whose event stream gave no usable `endpoint`.
import { McpError, type McpErrorCode } from "@mcp/jsonrpc";

/** Every `code` of an error the HTTP transport gives: its own (`"sse_endpoint"`) and `@mcp/jsonrpc`'s. */
export type TransportHttpErrorCode = "sse_endpoint" | McpErrorCode;

/** The HTTP+SSE server never sent its `endpoint` event, sent a malformed one, or one for another origin. */
export class SseEndpointError extends McpError<"sse_endpoint"> {
  static override readonly brand: string = "SseEndpointError";

  constructor(message: string, options: { cause?: unknown } = {}) {
    super("sse_endpoint", message, options);
  }
}
