export { HttpTransport, createHttpTransport } from "./transport.js";
export type { HttpTransportConfig } from "./config.js";
export { SseEndpointError } from "./errors.js";
export { encodeHeaderValue, type HttpAuthProvider } from "./request-path.js";
export type { FetchLike } from "./exchange.js";
export { headerProblem, isHttpToken } from "./headers.js";
export { isReservedHeader, parseHttpUrl, parseProxyUrl, SAFE_METHODS } from "./defaults.js";
export { createHttpFetch, type HttpNetworkOptions } from "./network.js";
