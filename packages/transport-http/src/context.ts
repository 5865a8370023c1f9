import type { AbortHandle, JsonRpcEndpoint } from "@mcp/jsonrpc";
import type { Lingering } from "./lingering.js";
import type { RequestPath, SessionHeaders } from "./request-path.js";

// Types only: what the transport hands its stream readers. Each reader names the part it uses
// (the Pick types below), so a reader's dependencies are in its signature.

/** The settings every part of the transport reads, defaults applied. */
export interface Settings {
  readonly timeout: number;
  readonly maxResumeAttempts: number;
  readonly defaultRetryMs: number;
  readonly maxMessageBytes: number;
  readonly streamLingerMs: number;
}

/** Everything the transport shares with its stream readers. Internal; not exported. */
export interface StreamContext {
  readonly url: URL;
  readonly endpoint: JsonRpcEndpoint;
  readonly path: RequestPath;
  readonly settings: Settings;
  /** Aborts on close(): every background stream ends with it. */
  readonly lifetime: AbortSignal;
  /** The same, as the handle the request path takes. */
  readonly lifetimeAbort: AbortHandle;
  /** The answered streams given a moment to end by themselves. */
  readonly lingering: Lingering;
  isOpen(): boolean;
  /** The session headers of the next request. */
  session(): SessionHeaders;
  /** True in the stateless revision (2026-07-28 on): streams are not resumable. */
  stateless(): boolean;
}

/** Reading one SSE body into the endpoint (response-stream.ts `readStream`). */
export type ReadContext = Pick<StreamContext, "endpoint" | "settings" | "lingering">;
/** Re-opening a stream with `Last-Event-ID` (response-stream.ts `resumeStream`). */
export type ResumeContext = Pick<StreamContext, "url" | "path" | "session">;
/** A POST's SSE answer, resumed until the request is answered (response-stream.ts). */
export type ResponseStreamContext = ReadContext & ResumeContext & Pick<StreamContext, "isOpen" | "stateless">;
/** The GET listener (listener.ts). */
export type ListenerContext = ReadContext &
  ResumeContext &
  Pick<StreamContext, "isOpen" | "lifetime" | "lifetimeAbort">;
/** The HTTP+SSE event stream (sse-endpoint.ts). */
export type SseEndpointContext = Pick<StreamContext, "url" | "endpoint" | "path" | "settings" | "lifetime" | "session">;
