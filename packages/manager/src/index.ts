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
// Everything `@mcp/manager/config` exports (config reading, approvals, the tool cache, failure words,
// the pool's shim commands), taken from that subpath's module so the two entries cannot disagree.
export {
  approveProjectServers,
  askingPolicy,
  callFailure,
  commandLine,
  configHint,
  crashReportLines,
  createApprovalStore,
  DECLINED,
  defaultApprovalsFile,
  defaultCacheDir,
  describeServer,
  failureCause,
  failureError,
  FileToolCache,
  isShimCommand,
  LIGHT_SHIM_COMMAND,
  loadAllMCPConfigs,
  NOT_APPROVED_YET,
  NotProjectServerError,
  personPolicy,
  printable,
  reviewApprovals,
  SHIM_COMMAND,
  shortPath,
  shownWhole,
  stderrBlock,
  stderrCause,
  tildify,
  toolCacheKey,
  unwrapShimConfig,
  type ApprovalAnswer,
  type ApprovalCheck,
  type ApprovalContext,
  type ApprovalOutcome,
  type ApprovalPolicy,
  type ApprovalRefusal,
  type ApprovalRequest,
  type ApprovalStore,
  type ApprovalSubject,
  type ApproveProjectOptions,
  type CachedTools,
  type CallFailure,
  type ConfigError,
  type DiscoveredServer,
  type FileToolCacheOptions,
  type LoadOptions,
  type LoadResult,
  type PersonPolicyOptions,
  type ServerDescription,
  type ShownServer,
  type ToolCache,
} from "./config.js";
export { needsSignIn, refusedTokenHeader, staticAuthorization } from "./failure.js";
export {
  crashOf,
  describeConfig,
  failureReport,
  invalidEntry,
  tokenRefused,
  unreadable,
  whyNotStartable,
  type FailureWords,
  type NotStartable,
  type ServersChosen,
} from "./unavailable.js";
export { configEntries, type ConfigEntry } from "./config/entries.js";
export { diagnoseServers, type DiagnoseOptions, type FindingKind, type ServerFinding } from "./doctor.js";
export { reviewProjectServers, type ReviewedServers } from "./approvals/review-found.js";
export type { Fingerprint } from "./approvals/fingerprint.js";
export { OWN_FILE, userConfigDir } from "./config/families.js";
export type {
  ConfigFamily,
  ConfigScope,
  ConfigSource,
  InputDefinition,
  ToolFilter,
  WrittenEntry,
} from "./config/types.js";
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
  findPrompt,
  findPromptByName,
  findToolByName,
  PromptNotFoundError,
  type FindToolOptions,
  type FoundPrompts,
  type FoundTools,
  type ServerPrompt,
} from "./find-tool.js";
export { watchConnecting, type ConnectingProgress } from "./connecting.js";
export { toolNotFound, ToolNotFoundError, type NotFoundWords, type ToolNotFoundOptions } from "./tool-not-found.js";
export {
  AmbiguousToolError,
  checkStartable,
  connectedServers,
  findCallTool,
  NoToolNamedError,
  ServerNotStartedError,
  serversForWords,
  startNamedServer,
  startServersNamed,
  type FindCallToolOptions,
  type NotStartedReason,
  type StartOptions,
  type StartWords,
} from "./call-target.js";
export { readResourceFrom, type ReadFrom } from "./read-resource.js";
export {
  promptRows,
  resourceRows,
  roundTrips,
  serverJsonRow,
  serverRow,
  leftOutRows,
  rowCause,
  statusWord,
  toolRows,
  type PromptRow,
  type ResourceRow,
  type RoundTripRow,
  type ServerJsonRow,
  type ServerRow,
  type ToolRow,
} from "./rows.js";
export { serverRows, type ServerRowWords } from "./server-rows.js";
export { skillRows, type SkillRow } from "./skill-rows.js";
export { diagnoseSignIn, type DiagnoseSignInOptions, type SignInDiagnosis } from "./sign-in-doctor.js";
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
export { pooledEntry, PooledEntryError, type PooledEntry, type PooledEntryProblem } from "./config/pooled-entry.js";
export type { ReconnectPolicy } from "./limit.js";
export {
  DEFAULT_CALLBACK_PORT,
  defaultTokenDir,
  diagnoseServerAuthorization,
  loopbackStepFor,
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
export {
  addOwnServer,
  approveOwnServer,
  OwnServerExistsError,
  removeOwnServer,
  type ApproveOwnOptions,
  type OwnServerAdded,
} from "./config/own-servers.js";
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
export { parseShimArgs, shimArgs, type PoolFamily } from "./config/pool-text.js";
