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
  checkTimeout,
  InvalidConfigError,
  InvalidMessageError,
  isValidTimeout,
  McpError,
  MessageTooLargeError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  timeoutProblem,
  toError,
  TransportClosedError,
  type McpErrorCode,
} from "./errors.js";
export { HttpError, jsonRpcErrorIn, SessionExpiredError, type HttpErrorDetails } from "./http-error.js";
export { errorCodeOf, failedBeforeSending, NetworkError, ProxyError, proxyRefusalStatus, type NetworkErrorOptions } from "./network-error.js";
export {
  ErrorCodes,
  HeaderMismatchError,
  InternalRpcError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  MissingClientCapabilityError,
  STATELESS_ERROR_CODES,
  ResourceNotFoundError,
  RpcError,
  RpcParseError,
  UnsupportedVersionError,
  UrlElicitationRequiredError,
  type RpcErrorClass,
} from "./rpc-error.js";
export { DEFAULT_REQUEST_TIMEOUT, PendingRequests, type PendingRequestsOptions, type TrackHooks } from "./tracker.js";
export { JsonRpcEndpoint, withMeta, type EndpointHandlers, type JsonRpcEndpointOptions, type SendContext } from "./endpoint.js";
export { inspectCustom, isCredentialHeader, REDACTED, redactConfig, redactEnv, redactHeaders, redactJson, redactUrl } from "./redact.js";
export { bodyChunks, readBoundedText } from "./body.js";
export { AbortLatch, abortHandleOf, delay, type AbortHandle } from "./abort.js";
