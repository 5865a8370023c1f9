export { callMCP, type CallMCPOptions } from "./call.js";
export { parseSSE, parseSSEStream } from "./sse.js";
export { LiteHttpError, LiteParseError } from "./errors.js";
