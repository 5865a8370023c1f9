export type {
  JsonRpcError,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
  HandshakeContext,
  MCPTransport,
  MessageDirection,
  NotificationContext,
  Progress,
  RequestContext,
  RequestId,
  RequestOptions,
} from "./types.js";
export {
  isJsonRpcBatch,
  isJsonRpcErrorResponse,
  isJsonRpcMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isJsonRpcSuccessResponse,
  type ClassifiedMessage,
} from "./guards.js";
export {
  InvalidConfigError,
  InvalidMessageError,
  McpError,
  MessageTooLargeError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  toError,
  TransportClosedError,
  type McpErrorCode,
} from "./errors.js";
export { HttpError, SessionExpiredError, type HttpErrorDetails } from "./http-error.js";
export { NetworkError, ProxyError, type NetworkErrorOptions } from "./network-error.js";
export {
  ErrorCodes,
  HeaderMismatchError,
  InternalRpcError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  MissingClientCapabilityError,
  ResourceNotFoundError,
  RpcError,
  RpcParseError,
  UnsupportedVersionError,
  UrlElicitationRequiredError,
  type RpcErrorClass,
} from "./rpc-error.js";
export type { PendingRequestsOptions, TrackHooks } from "./tracker.js";
export { JsonRpcEndpoint, type EndpointHandlers, type JsonRpcEndpointOptions, type SendContext } from "./endpoint.js";
export { createLinkedPair, EndpointTransport, type EndpointTransportOptions } from "./endpoint-transport.js";
export type { AbortHandle } from "./abort.js";
// Helpers our own packages share (timeouts, bodies, aborts, redaction, the redirect and proxy
// policy) are in `@mcp/jsonrpc/internal`, outside semver: see internal.ts.
