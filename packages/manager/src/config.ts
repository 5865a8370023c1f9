// `@mcp/manager/config`: the manager's config reading, approvals, tool cache and failure words
// without its clients, OAuth and HTTP transport, for a process that reads configs but connects to
// nothing itself (the daemon's pool loads the whole manager only when a call needs it).

export { loadAllMCPConfigs } from "./config/load.js";
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
export {
  approveProjectServers,
  NotProjectServerError,
  personPolicy,
  type ApproveProjectOptions,
  type PersonPolicyOptions,
} from "./approvals/person.js";
export {
  createApprovalStore,
  defaultApprovalsFile,
  DECLINED,
  NOT_APPROVED_YET,
  type ApprovalCheck,
  type ApprovalStore,
  type ApprovalSubject,
} from "./approvals/store.js";
export {
  commandLine,
  describeServer,
  printable,
  shownWhole,
  type ServerDescription,
  type ShownServer,
} from "./approvals/shown.js";
export type { ConfigError, DiscoveredServer, LoadOptions, LoadResult } from "./config/types.js";
export {
  FileToolCache,
  defaultCacheDir,
  toolCacheKey,
  type CachedTools,
  type FileToolCacheOptions,
  type ToolCache,
} from "./cache.js";
export { configHint, crashReportLines, failureCause, failureError, stderrCause } from "./failure.js";
export { callFailure, shortPath, stderrBlock, tildify, type CallFailure } from "./unavailable.js";
export { isShimCommand, LIGHT_SHIM_COMMAND, SHIM_COMMAND, unwrapShimConfig } from "./config/pool-text.js";
export { pooledEntry, PooledEntryError, type PooledEntry, type PooledEntryProblem } from "./config/pooled-entry.js";
