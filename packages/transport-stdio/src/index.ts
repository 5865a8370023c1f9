export { StdioTransport, createStdioTransport } from "./stdio.js";
export { stdioCommandProblems, type StdioTransportConfig } from "./config.js";
export { SpawnError, type TransportStdioErrorCode } from "./spawn-error.js";
export { DEFAULT_MAX_WRITE_QUEUE_BYTES, WriteQueueFullError } from "./stdin-writer.js";
export {
  buildChildEnv,
  DEFAULT_INHERITED_ENV_VARS_POSIX,
  DEFAULT_INHERITED_ENV_VARS_WINDOWS,
  DEFAULT_NETWORK_ENV_VARS,
} from "./env.js";
