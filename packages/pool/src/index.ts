// @mcp/pool: stdio MCP servers shared by many host sessions (ServerPool), who may be served (the manager's approvals by default), their fingerprint, and the memory of a process tree.
export { ServerPool, asksQuestions, type AttachOptions, type PoolEventName, type ServerPoolOptions } from "./pool.js";
export type { HostSession } from "./host.js";
export { fingerprintOf } from "./fingerprint.js";
export {
  managerApprovals,
  ServerNotApprovedError,
  type ManagerApprovalsOptions,
  type PoolApprovalRequest,
  type PoolApprovals,
  type PoolApprovalVerdict,
} from "./approvals.js";
export { processTree, rssOf } from "./rss.js";
export type { Era, HostStatus, Sharing, UpstreamStatus } from "./types.js";
