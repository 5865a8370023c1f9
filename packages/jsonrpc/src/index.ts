export type {
  JsonRpcError,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
  MCPTransport,
  Progress,
  RequestContext,
  RequestId,
  RequestOptions,
} from "./types.js";
export {
  classifyMessage,
  isJsonRpcBatch,
  isJsonRpcErrorResponse,
  isJsonRpcMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isJsonRpcSuccessResponse,
  isRequestId,
  type ClassifiedMessage,
} from "./guards.js";
export {
  ErrorCodes,
  HttpError,
  InvalidMessageError,
  McpError,
  MessageTooLargeError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  RpcError,
  SessionExpiredError,
  TransportClosedError,
  type HttpErrorDetails,
  type McpErrorCode,
  type TimeoutKind,
} from "./errors.js";
export { DEFAULT_REQUEST_TIMEOUT, PendingRequests, type PendingRequestsOptions, type TrackHooks } from "./tracker.js";
export { JsonRpcEndpoint, type EndpointHandlers, type JsonRpcEndpointOptions, type SendContext } from "./endpoint.js";
