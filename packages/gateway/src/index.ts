export {
  createGateway,
  STDIO_CALLER,
  type CreateGatewayOptions,
  type GatewayStats,
  type GatewayStdioOptions,
  type McpGateway,
} from "./create.js";
export type { ExchangeCredentials, UpstreamCredentials } from "./exchange.js";
export { checkSharing, SharedCredentialsError, type CallerSources } from "./sharing.js";
export {
  MemoryConsentStore,
  type ConsentCredentials,
  type ConsentOptions,
  type ConsentStore,
  type MemoryConsentStoreOptions,
} from "./consent.js";
export type { ConsentSignIn } from "./connect.js";
export type { GatewaySpan, GatewayTracing } from "./spans.js";
export { gatewayHandlers, type GatewayHandlers } from "./handlers.js";
export { bearerTokens, isLoopback, type Authenticate } from "./http.js";
export { guardConnections, type ConnectionGuard, type ConnectionLimits } from "./connections.js";
export {
  allowed,
  callerId,
  RESERVED_CALLER_NAMES,
  SEPARATOR,
  servableName,
  type Caller,
  type RateRule,
} from "./policy.js";
export { parseCallers, parseClaimRules, parseRate } from "./callers.js";
export {
  argsHash,
  auditStream,
  canonicalJson,
  type AuditDecision,
  type AuditEntry,
  type AuditOutcome,
  type AuditSink,
  type AuditStreamSink,
} from "./audit.js";
export { LIMITED, MemoryRateLimits, type RateLimitStore, type Take } from "./limits.js";
export { parseViews, type View, type ViewConfig } from "./views.js";
export {
  checkConfigSharing,
  consentFromEnv,
  readGatewayConfig,
  type GatewayConfigFile,
  type ReadGatewayConfigOptions,
} from "./config-file.js";
export {
  mcpUrl,
  metricsTokenFromEnv,
  serveCallers,
  servedHosts,
  startGatewayServer,
  type GatewayServer,
  type ServeCallerOptions,
  type ServeCallers,
} from "./serve-setup.js";
export { gatewayFromOptions, type GatewayFromOptions } from "./serve-gateway.js";
export { closeWithin, stopRequests, type StopReason, type StopRequests } from "./stop.js";
export { GatewayListenError, serveUntilStopped, type ServeUntilStoppedOptions } from "./serve-process.js";
export { SEARCH_TOOL } from "./tools.js";
export { isSessionRecord, type SessionLimits, type SessionRecord, type SessionStore } from "./sessions.js";
export type { IntrospectionOptions } from "./introspection.js";
export {
  oidcAuthenticate,
  oidcCallerId,
  OIDC_ALGORITHMS,
  resourceMetadataUrl,
  type ClaimRule,
  type OidcAuth,
  type OidcOptions,
} from "./oidc.js";
export { AuthRefusal } from "./refusal.js";
export type { OperationsOptions } from "./ops.js";
