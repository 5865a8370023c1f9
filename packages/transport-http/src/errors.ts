// `SseEndpointError`: an HTTP+SSE server whose event stream gave no usable `endpoint`.
import { McpError } from "@mcp/jsonrpc";

/** The HTTP+SSE server never sent its `endpoint` event, sent a malformed one, or one for another origin. */
export class SseEndpointError extends McpError {
  static override readonly brand: string = "SseEndpointError";

  constructor(message: string, options: { cause?: unknown } = {}) {
    super("sse_endpoint", message, options);
  }
}
