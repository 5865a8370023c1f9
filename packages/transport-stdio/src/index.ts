export { StdioTransport, SpawnError, createStdioTransport, stdioCommandProblems, type StdioTransportConfig } from "./stdio.js";
export { buildChildEnv, DEFAULT_INHERITED_ENV_VARS_POSIX, DEFAULT_INHERITED_ENV_VARS_WINDOWS, DEFAULT_NETWORK_ENV_VARS } from "./env.js";
