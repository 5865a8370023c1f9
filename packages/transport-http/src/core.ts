import { MessageTooLargeError, ParseError, type AbortHandle, type JsonRpcEndpoint } from "@mcp/jsonrpc";
import type { RequestPath, SessionHeaders } from "./request-path.js";
import type { Lingering } from "./lingering.js";

/** The settings every part of the transport reads, defaults applied. */
export interface Settings {
  readonly timeout: number;
  readonly maxResumeAttempts: number;
  readonly defaultRetryMs: number;
  readonly maxMessageBytes: number;
  readonly streamLingerMs: number;
}

/**
 * What the transport's parts (response streams, the GET listener, HTTP+SSE) share with the
 * transport: its URL, JSON-RPC endpoint, request path and lifetime. Internal; not exported.
 */
export interface TransportCore {
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

/** One SSE event's JSON-RPC payload to the endpoint; a malformed one is reported, not fatal. */
export function deliverSseEvent(core: TransportCore, data: string, type: string | undefined): void {
  if (type !== undefined && type !== "message") return;
  if (data.trim() === "") return; // a priming event: an id (and maybe retry) only
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (cause) {
    core.endpoint.reportError(new ParseError("SSE event", data, { cause }));
    return;
  }
  core.endpoint.receive(value);
}

/** True for the size-limit error, which ends a stream instead of being retried. */
export function isTooLarge(error: unknown): error is MessageTooLargeError {
  return MessageTooLargeError.isInstance(error);
}
