// The transport's defaults and the protocol's constants: revisions, safe methods, media types.

/** Every default of the HTTP transport, written once. */
export const DEFAULTS = {
  /** ms for a whole exchange (headers and body), and every request's default. */
  timeout: 30_000,
  /** How many times a broken SSE stream is resumed with `Last-Event-ID`. */
  maxResumeAttempts: 3,
  /** Delay before resuming when the server sent no `retry:`, in ms. */
  defaultRetryMs: 1000,
  /** Largest JSON body or SSE event accepted (64 MiB, as stdio's `maxLineBytes`). */
  maxMessageBytes: 64 * 1024 * 1024,
  /** Redirects followed before the last answer is taken as it is. */
  maxRedirects: 5,
  /** Most the courtesy `DELETE` on close may take, in ms. */
  deleteTimeoutMs: 5000,
  /** Most a `notifications/cancelled` may take, in ms (at most the transport's `timeout`): a hung server must not hold its connection long. */
  cancelTimeoutMs: 5000,
  /** Most `notifications/cancelled` on their way at once; more are not sent (a cancellation is advice). */
  maxCancelsOnTheirWay: 64,
  /** After the awaited response arrived, how long an SSE stream may take to end on its own. */
  streamLingerMs: 200,
  /** How long the handshake waits for the GET stream to open before going on without it. */
  listenerOpenWaitMs: 2000,
} as const;

/** The first revision of the stateless era. */
export const STATELESS_REVISION = "2026-07-28";

/**
 * MCP methods without side effects: a request for one of these whose connection broke before its
 * answer may be sent again (on a new connection). Nothing else is: the server may have read it.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set([
  "ping",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "prompts/list",
  "resources/read",
  "prompts/get",
  "completion/complete",
  "server/discover",
]);

/** The two media types every MCP POST accepts. */
export const ACCEPT_BOTH: readonly string[] = ["application/json", "text/event-stream"];

/** What a GET for an event stream accepts. */
export const ACCEPT_SSE: readonly string[] = ["text/event-stream"];

/** True for a `Content-Type` of `text/event-stream` (any parameters). */
export function isEventStream(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.startsWith("text/event-stream") || contentType.toLowerCase().startsWith("text/event-stream");
}
