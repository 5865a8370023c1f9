export {
  applyElicitationDefaults,
  capabilitiesFor,
  connectToServer,
  disconnectServer,
  DEFAULT_CONNECT_TIMEOUT,
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
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type DiscoverResult, type ProtocolEra } from "./negotiate.js";
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
export { InvalidResultError, STATELESS_PROTOCOL_VERSIONS, NotInProtocolRevisionError } from "./stateless.js";
export { TaskCancelledError, type CallToolOptions, type TaskStatus } from "./task-status.js";
export { TASKS_EXTENSION } from "./tasks-extension.js";
export type { ServerRequestTaskOptions } from "./task-receiver.js";
export {
  getSkill,
  listSkills,
  loadSkill,
  SKILLS_EXTENSION,
  SkillVerificationError,
  supportsSkills,
  type LoadedSkill,
  type LoadSkillOptions,
  type SkillEntry,
  type SkillFile,
  type SkillFileContent,
  type SkillVerificationFailure,
} from "./skills.js";
export { serverConfigProblems, type ConfigProblem } from "./validate.js";
export type { SubscriptionFilter } from "./session.js";
export {
  CapabilityNotSupportedError,
  ConnectionTimeoutError,
  InvalidInitializeResultError,
  PaginationError,
  UnknownServerTypeError,
  UnsupportedProtocolVersionError,
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
// Every error a caller can meet, re-exported so @mcp/client alone is enough.
export {
  HeaderMismatchError,
  HttpError,
  InternalRpcError,
  InvalidConfigError,
  InvalidMessageError,
  InvalidParamsError,
  InvalidRequestError,
  McpError,
  MessageTooLargeError,
  MethodNotFoundError,
  MissingClientCapabilityError,
  NetworkError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  ResourceNotFoundError,
  RpcError,
  RpcParseError,
  SessionExpiredError,
  TransportClosedError,
  UnsupportedVersionError,
  UrlElicitationRequiredError,
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
export { CLIENT_VERSION } from "./version.js";
export { HttpTransport, SseEndpointError, type AuthRequest, type HttpAuthProvider, type HttpTransportConfig, type UnauthorizedAnswer } from "@mcp/transport-http";
