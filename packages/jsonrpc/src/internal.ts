// `@mcp/jsonrpc/internal`: helpers shared by our own packages, outside semver (they may change in
// any release; a program outside this repository must not import them). The main entry holds what
// a user of the protocol layer calls: messages, guards, errors, the endpoint. Everything here is
// pure or needs only web-standard globals, so browser bundles may load it.
export {
  envNamesProxy,
  envProxyFor,
  judgeRedirect,
  MAX_REDIRECTS,
  parseProxyUrl,
  PROXY_ENV_NAMES,
  proxyEnvKey,
  REDIRECT_STATUSES,
  redirectNotFollowedMessage,
  type ProxyEnv,
  type RedirectAnswer,
} from "./policy.js";
export { checkTimeout, isValidTimeout, timeoutProblem } from "./errors.js";
export { jsonRpcErrorIn } from "./http-error.js";
export { errorCodeOf, failedBeforeSending, proxyRefusalStatus } from "./network-error.js";
export { STATELESS_ERROR_CODES } from "./rpc-error.js";
export { classifyMessage, isRequestId } from "./guards.js";
export { PendingRequests } from "./tracker.js";
export { withMeta } from "./endpoint.js";
export {
  inspectCustom,
  isCredentialHeader,
  REDACTED,
  redactConfig,
  redactEnv,
  redactHeaders,
  redactJson,
  redactUrl,
} from "./redact.js";
export { bodyChunks, readBoundedText } from "./body.js";
export { AbortLatch, abortHandleOf, delay } from "./abort.js";
export { editDistance } from "./distance.js";
