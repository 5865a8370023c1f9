export { HttpTransport, SseEndpointError, createHttpTransport, type HttpAuthProvider, type HttpTransportConfig } from "./http.js";
export type { FetchLike } from "./exchange.js";
