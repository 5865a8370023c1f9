export { createGateway, STDIO_CALLER, type CreateGatewayOptions, type GatewayStats, type GatewayStdioOptions, type McpGateway } from "./create.js";
export { gatewayHandlers, type GatewayHandlers } from "./handlers.js";
export { bearerTokens, isLoopback, MAX_BODY_BYTES, MAX_UNREAD_BYTES, type Authenticate } from "./http.js";
export { LANE_IDLE_MS } from "./lanes.js";
export { allowed, callerId, parseCallers, RESERVED_CALLER_NAMES, SEPARATOR, servableName, type Caller } from "./policy.js";
export { ROUND_TTL_MS } from "./rounds.js";
export { isSessionRecord, SESSION_IDLE_MS, SESSION_TTL_MS, SESSIONS_PER_CALLER, type SessionLimits, type SessionRecord, type SessionStore } from "./sessions.js";
