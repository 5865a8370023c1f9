import type { AbortHandle } from "@mcp/jsonrpc";

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
  /** After the awaited response arrived, how long an SSE stream may take to end on its own. */
  streamLingerMs: 200,
  /** How long the handshake waits for the GET stream to open before going on without it. */
  listenerOpenWaitMs: 2000,
} as const;

/** The first revision of the stateless era. */
export const MODERN_REVISION = "2026-07-28";

/**
 * The `url` of an HTTP server config as a URL, or what is wrong with it (a sentence naming
 * `"url"`): it must be a string, parse, and be http or https. The transport and `@mcp/client`'s
 * config check both ask this, so a config file and code hear the same words.
 */
export function parseHttpUrl(value: unknown): URL | string {
  if (typeof value !== "string") return '"url" must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"url" is not a valid URL: ${JSON.stringify(value)}`;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : `"url" must be http or https, got ${url.protocol}`;
}

/**
 * MCP methods without side effects: a request for one of these whose connection broke before its
 * answer may be sent again (on a new connection). Nothing else is: the server may have read it.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list", "resources/read", "prompts/get", "completion/complete", "server/discover"]);

/**
 * A proxy URL (`proxy` of a config, or `HTTPS_PROXY` and its kind), or what is wrong with it: it
 * must be an http or https URL. The sentence names `field` and never the URL (it may hold a password).
 */
export function parseProxyUrl(value: unknown, field = "proxy"): URL | string {
  if (typeof value !== "string") return `"${field}" must be a proxy URL (or false for none)`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${field}" is not a valid proxy URL`;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : `"${field}" must be an http or https proxy URL, got ${url.protocol}`;
}

/** Headers that carry the MCP session and protocol: a config that sets one is refused. */
export function isProtocolHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "mcp-session-id" || lower === "mcp-protocol-version" || lower === "mcp-method" || lower === "mcp-name" || lower === "last-event-id" || lower.startsWith("mcp-param-");
}

/** Headers that describe the body the transport sends: a config's are dropped, never sent. */
export const BODY_HEADERS: ReadonlySet<string> = new Set(["content-type", "content-length", "transfer-encoding"]);

/**
 * Headers only the transport sets: the MCP session and protocol ones, those describing the body,
 * and `Host`. An auth provider's (a `headersHelper`'s among them) are never sent.
 */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return isProtocolHeader(lower) || BODY_HEADERS.has(lower) || lower === "host";
}

/** The two media types every MCP POST accepts. */
export const ACCEPT_BOTH: readonly string[] = ["application/json", "text/event-stream"];

/** What a GET for an event stream accepts. */
export const ACCEPT_SSE: readonly string[] = ["text/event-stream"];

/** True for a `Content-Type` of `text/event-stream` (any parameters). */
export function isEventStream(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.startsWith("text/event-stream") || contentType.toLowerCase().startsWith("text/event-stream");
}

/** Waits `ms`, or rejects with the abort's reason as soon as it aborts. Leaves no listener behind. */
export function delay(ms: number, abort: AbortHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abort.aborted) {
      reject(abort.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abort.reason);
    };
    const timer = setTimeout(() => {
      abort.offAbort(onAbort);
      resolve();
    }, ms);
    abort.onAbort(onAbort);
  });
}
