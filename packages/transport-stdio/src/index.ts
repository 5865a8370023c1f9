export { StdioTransport, SpawnError, createStdioTransport, stdioCommandProblems, type StdioTransportConfig } from "./stdio.js";
export { buildChildEnv, DEFAULT_INHERITED_ENV_VARS_POSIX, DEFAULT_INHERITED_ENV_VARS_WINDOWS } from "./env.js";
