// @mcp/daemon/client: what a process that talks to the user's daemon needs (where its socket is,
// whether it is this user's, requests, starting it when none runs, a call written as the calling
// shell runs it), without the daemon's own code (the pool, the managers): light to load.
export { CALL as CALL_METHOD, callParamsFor, type CallParams, type ResolvedServers } from "./call.js";
export {
  callThroughDaemon,
  daemonRequest,
  probeDaemon,
  requestTicket,
  type DaemonCall,
  type DaemonRequestOptions,
} from "./request.js";
export { ensureDaemon, type EnsureDaemonOptions } from "./ensure.js";
export { daemonEnvFor } from "./daemon-env.js";
export { asThisShellRuns, type ShellCall } from "./environment.js";
export { shellValuesFor } from "./shell-values.js";
export { attachParamsFor } from "./attach.js";
export { daemonState, stopDaemon, type DaemonState } from "./control.js";
export { hostLabel, killPooled, readPoolStatus, type PoolReading } from "./pool-view.js";
export { DaemonError, DaemonUnavailable, DaemonUntrusted } from "./errors.js";
export { claimSocketFolder, daemonSocketPath } from "./place.js";
export { DAEMON_NODE_FLAGS, spawnDaemon, type SpawnDaemonOptions } from "./spawn.js";
export { daemonRunArgs, daemonRunOptions, type DaemonRunFlags } from "./run-options.js";
export { checkSocket } from "./private.js";
export type { AttachParams, PoolStatus } from "./pool-socket.js";
export type { Ticket } from "./light-relay.js";
export type { EndedSession } from "./unread.js";
export type { DaemonStatus } from "./server.js";
export type { DaemonServerStatus } from "./views.js";
export type { DaemonMessage } from "./wire.js";
