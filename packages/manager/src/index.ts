export { MCPManager } from "./manager.js";
export {
  ServerUnavailableError,
  ToolUnavailableError,
  type ConnectResult,
  type ManagerErrorCode,
  type MCPManagerOptions,
  type MCPTool,
  type ResultFileOptions,
  type ServerState,
  type ServerStatus,
  type ToolCallOptions,
} from "./types.js";
export { isRetryableAfterReconnect } from "./server.js";
export {
  configHint,
  crashReportLines,
  failureCause,
  failureError,
  needsSignIn,
  refusedTokenHeader,
  staticAuthorization,
  stderrCause,
} from "./failure.js";
export {
  callFailure,
  crashOf,
  describeConfig,
  failureReport,
  invalidEntry,
  stderrBlock,
  tokenRefused,
  unreadable,
  whyNotStartable,
  type CallFailure,
  type FailureWords,
  type NotStartable,
  type ServersChosen,
} from "./unavailable.js";
export { loadAllMCPConfigs } from "./config/load.js";
export { configEntries, type ConfigEntry } from "./config/entries.js";
export {
  askingPolicy,
  reviewApprovals,
  type ApprovalAnswer,
  type ApprovalContext,
  type ApprovalOutcome,
  type ApprovalPolicy,
  type ApprovalRefusal,
  type ApprovalRequest,
} from "./approvals/policy.js";
export { reviewProjectServers, type ReviewedServers } from "./approvals/review-found.js";
export {
  createApprovalStore,
  defaultApprovalsFile,
  DECLINED,
  NOT_APPROVED_YET,
  type ApprovalCheck,
  type ApprovalStore,
  type ApprovalSubject,
} from "./approvals/store.js";
export type { Fingerprint } from "./approvals/fingerprint.js";
export {
  commandLine,
  describeServer,
  printable,
  shownWhole,
  type ServerDescription,
  type ShownServer,
} from "./approvals/shown.js";
export { OWN_FILE, userConfigDir } from "./config/families.js";
export type {
  ConfigError,
  ConfigFamily,
  ConfigScope,
  ConfigSource,
  DiscoveredServer,
  InputDefinition,
  LoadOptions,
  LoadResult,
  ToolFilter,
  WrittenEntry,
} from "./config/types.js";
export {
  FileToolCache,
  defaultCacheDir,
  toolCacheKey,
  type CachedTools,
  type FileToolCacheOptions,
  type ToolCache,
} from "./cache.js";
export { TOOL_NAME_PATTERN, toolNameFor, toolNamePrefix, type NameCollision } from "./names.js";
export {
  closestNames,
  didYouMean,
  splitToolTarget,
  splitUrlTarget,
  toolsNamed,
  type ToolTarget,
  type UrlTarget,
} from "./tool-target.js";
export {
  findPromptByName,
  findToolByName,
  type FindToolOptions,
  type FoundPrompts,
  type FoundTools,
  type ServerPrompt,
} from "./find-tool.js";
export { readResourceFrom, type ReadFrom } from "./read-resource.js";
export { headerPair } from "./config/header-pair.js";
export {
  commandLineServers,
  findServers,
  headersOf,
  serverNamesOf,
  type CommandLineServers,
  type FoundServers,
} from "./config/command-servers.js";
export {
  chooseServers,
  UnknownServerError,
  type ChooseServersOptions,
  type ChosenServers,
} from "./config/choose-servers.js";
export { commandOnPath, splitCommandLine } from "./config/command-line.js";
export type { ReconnectPolicy } from "./limit.js";
export {
  DEFAULT_CALLBACK_PORT,
  defaultTokenDir,
  diagnoseServerAuthorization,
  type AuthorizeServerOptions,
  type ManagerOAuthOptions,
  type ServerOAuthConfig,
} from "./oauth.js";
export {
  HeadersHelperError,
  headersHelperProvider,
  runHeadersHelper,
  type HeadersHelperOptions,
} from "./headers-helper.js";
export { readConfigField } from "./config/parse.js";
export { editOwnConfig, looksLikeSecret, readOwnServers } from "./config/own-file.js";
export { clearSecrets, ownEntry, type ClearSecret, type OwnEntryFlags } from "./config/own-entry.js";
export { pinKey, ToolPins } from "./pins/pins.js";
export type { HeldTool, PinChange, PinOptions } from "./pins/types.js";
export {
  FilePinStore,
  MemoryPinStore,
  PinStoreError,
  defaultPinDir,
  type PinnedTool,
  type PinStore,
  type ServerPins,
} from "./pins/store.js";
export { ToolHeldError } from "./pins/errors.js";
export { findHeld, heldFacts, heldReason, type HeldFacts } from "./pins/held.js";
export { canonicalJson, definitionHash, definitionOf, toolSetHash, type PinnedDefinition } from "./pins/hash.js";
export {
  diffDefinitions,
  formatToolDiff,
  wordDiff,
  type SchemaChange,
  type ToolDiff,
  type WordDiffPart,
} from "./pins/diff.js";
export {
  hostFiles,
  hostStatus,
  poolBackupDir,
  poolFile,
  poolHost,
  PoolError,
  poolState,
  POOL_FAMILIES,
  unpoolFile,
  type HostFile,
  type HostFileStatus,
  type HostPoolResult,
  type PoolOptions,
  type PoolOutcome,
} from "./config/pool.js";
export {
  isShimCommand,
  LIGHT_SHIM_COMMAND,
  parseShimArgs,
  shimArgs,
  SHIM_COMMAND,
  unwrapShimConfig,
  type PoolFamily,
} from "./config/pool-text.js";
