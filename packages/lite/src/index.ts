export { callMCP, type CallMCPOptions } from "./call.js";
export { parseSSE, parseSSEStream, type ParseSSEStreamOptions } from "./sse.js";
export { LiteHttpError, LiteParseError } from "./errors.js";
// The whole error family callMCP can throw, so @mcp/lite alone is enough.
export {
  HttpError,
  MessageTooLargeError,
  NetworkError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
} from "@mcp/jsonrpc";
