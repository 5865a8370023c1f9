// @mcp/daemon: the user's MCP daemon (startDaemon: a private Unix socket in front of kept-alive
// servers and a pool of stdio servers for every host), its client (@mcp/daemon/client), and the
// Node shim's relay (@mcp/daemon/shim); lightShimHere says whether the light bash shim works here.
export {
  CALL_METHOD,
  DAEMON_NODE_FLAGS,
  asThisShellRuns,
  callParamsFor,
  checkSocket,
  claimSocketFolder,
  daemonEnvFor,
  daemonRequest,
  daemonRunArgs,
  daemonRunOptions,
  daemonSocketPath,
  DaemonError,
  DaemonUnavailable,
  DaemonUntrusted,
  ensureDaemon,
  probeDaemon,
  requestTicket,
  shellValuesFor,
  spawnDaemon,
  daemonState,
  stopDaemon,
  type AttachParams,
  type DaemonState,
  type CallParams,
  type DaemonMessage,
  type DaemonRequestOptions,
  type DaemonRunFlags,
  type DaemonServerStatus,
  type DaemonStatus,
  type EndedSession,
  type EnsureDaemonOptions,
  type PoolStatus,
  type ResolvedServers,
  type ShellCall,
  type SpawnDaemonOptions,
  type Ticket,
} from "./client.js";
export type { CallContext, CallHandler } from "./call.js";
export { lazyCallHandler } from "./lazy-call.js";
export { lightShimHere } from "./light-check.js";
export { runDaemon, startDaemon, type DaemonOptions, type RunningDaemon } from "./server.js";
export { relayStdio, type RelayStdioOptions } from "./shim.js";
