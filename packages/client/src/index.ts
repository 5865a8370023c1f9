export {
  applyElicitationDefaults,
  connectToServer,
  disconnectServer,
  type AnyNotificationListener,
  type BuiltInTransport,
  type ConnectOptions,
  type HttpServerConfig,
  type MCPServerConfig,
  type MCPServerConnection,
  type NotificationListener,
  type StdioServerConfig,
} from "./connect.js";
export { recordTransport, type RecordedMessage, type RecordListener } from "./record.js";
export {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type DiscoverResult,
  type ProtocolEra,
} from "./negotiate.js";
export {
  callTool,
  complete,
  getPrompt,
  isResourceNotFound,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
  notifyRootsListChanged,
  ping,
  readResource,
  roundTrip,
  setLoggingLevel,
  subscribe,
  unsubscribe,
  type CacheHints,
  type CompleteRequest,
  type ListOptions,
} from "./methods.js";
export { InvalidResultError, NotInProtocolRevisionError } from "./stateless.js";
export { TaskCancelledError, type CallToolOptions, type TaskStatus } from "./task-status.js";
export { TASKS_EXTENSION } from "./tasks-extension.js";
export type { ServerRequestTaskOptions } from "./task-receiver.js";
// The MCP Apps and Skills extensions have their own entries, `@mcp/client/apps` and
// `@mcp/client/skills` (public, in semver): the main entry is the core protocol.
export { serverConfigProblems, type ConfigProblem } from "./validate.js";
export type { SubscriptionFilter } from "./session.js";
export {
  CapabilityNotSupportedError,
  ConnectionTimeoutError,
  InvalidInitializeResultError,
  PaginationError,
  UnknownServerTypeError,
  UnsupportedProtocolVersionError,
  type ClientErrorCode,
} from "./errors.js";
export type {
  Annotations,
  AudioContent,
  CallToolResult,
  ClientCapabilities,
  CompleteRef,
  CompleteResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  EmbeddedResource,
  GetPromptResult,
  ImageContent,
  Implementation,
  InitializeResult,
  LoggingLevel,
  LogMessage,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  TextContent,
  Tool,
} from "./types.js";
// Every error a caller can meet, re-exported so @mcp/client alone is enough. An error the server
// sent is an `RpcError`; its numeric `code` is one of `ErrorCodes` (the typed subclasses per code,
// `MethodNotFoundError` and the rest, are in @mcp/jsonrpc for who wants `instanceof`).
export {
  ErrorCodes,
  HttpError,
  InvalidConfigError,
  InvalidMessageError,
  McpError,
  MessageTooLargeError,
  MissingClientCapabilityError,
  NetworkError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  RpcError,
  SessionExpiredError,
  TransportClosedError,
  UnsupportedVersionError,
  type HandshakeContext,
  type McpErrorCode,
  type MCPTransport,
  type Progress,
  type NotificationContext,
  type RequestContext,
  type RequestOptions,
} from "@mcp/jsonrpc";
// Types only: a value import would load the stdio transport (and node:child_process) into every
// program, browsers included. The classes are in @mcp/transport-stdio.
export type { SpawnError, StdioTransport, StdioTransportConfig } from "@mcp/transport-stdio";
export {
  HttpTransport,
  SseEndpointError,
  type AuthRequest,
  type HttpAuthProvider,
  type HttpTransportConfig,
  type UnauthorizedAnswer,
} from "@mcp/transport-http";
