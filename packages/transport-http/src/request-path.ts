import { HttpError, McpError, NetworkError, SessionExpiredError, TransportClosedError } from "@mcp/jsonrpc";
import {
  failedBeforeSending,
  judgeRedirect,
  redactUrl,
  REDIRECT_STATUSES,
  redirectNotFollowedMessage,
} from "@mcp/jsonrpc/internal";
import { ACCEPT_BOTH, ACCEPT_SSE, DEFAULTS } from "./defaults.js";
import { BODY_HEADERS, isReservedHeader } from "./headers.js";
import type { ExchangePool, ExchangeRequest, ExchangeResponse } from "./exchange.js";

/**
 * The security-critical request path: which headers go out, credentials from the auth provider
 * (retries after a `401` or a step-up `403` it handled), redirects (which are followed: only to the
 * configured origin), and turning a failed exchange into a typed error. Nothing else in the transport touches headers.
 */

/** The request an auth provider's headers are for (sender-constrained tokens sign it). */
export interface AuthRequest {
  method: "GET" | "POST" | "DELETE";
  /** The request's URL, as sent. */
  url: string;
  /** The body, for a POST. */
  body?: string | undefined;
}

/** Supplies credentials and reacts to `401`. `@mcp/oauth` implements this hook. */
export interface HttpAuthProvider {
  /**
   * Headers added to a request, e.g. `{ Authorization: "Bearer …" }`. Called once per request
   * sent (a retry asks again), with the request: a DPoP provider (RFC 9449) signs a fresh proof
   * of its method, URL and body. A provider may ignore it.
   */
  headers(request?: AuthRequest): Promise<Record<string, string>> | Record<string, string>;
  /**
   * Called on a `401`, and on a `403` whose `WWW-Authenticate` says `error="insufficient_scope"`
   * (step-up). Get new credentials and return true to retry the request (with fresh `headers()`);
   * return false to fail with the answer. `sent` is what `headers()` gave that request; `attempt`
   * how many times it was already retried so (0 the first time). A request is retried at most
   * {@link MAX_AUTH_RETRIES} times.
   */
  onUnauthorized?(context: UnauthorizedAnswer): Promise<boolean> | boolean;
}

/** What {@link HttpAuthProvider.onUnauthorized} learns about a refused request. */
export interface UnauthorizedAnswer {
  url: string;
  status: number;
  wwwAuthenticate: string | undefined;
  /** What `headers()` gave the refused request. */
  sent: Record<string, string>;
  /** How many times it was already retried so (0 the first time). */
  attempt: number;
  /** A header of the refusal (lower-case name), such as `dpop-nonce` (RFC 9449 §9). */
  header: (name: string) => string | undefined;
}

/** How many times one request is retried after its auth provider's `onUnauthorized`. */
export const MAX_AUTH_RETRIES = 3;

/** What the transport's state adds to every request's headers. */
export interface SessionHeaders {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
}

/** Options of {@link RequestPath}. */
export interface RequestPathOptions {
  url: URL;
  /** The user's headers; they may add to `Accept`, never remove what MCP needs. */
  headers?: Record<string, string> | undefined;
  authProvider?: HttpAuthProvider | undefined;
  /** Names the server in network errors. */
  serverName?: string | undefined;
  maxRedirects?: number | undefined;
}

const SENTINEL = /^=\?base64\?.*\?=$/s;

/**
 * A header value as MCP 2026-07-28 carries `Mcp-Name` and `Mcp-Param-*`: as it is when it is
 * visible ASCII (spaces and tabs inside allowed), otherwise — non-ASCII, control characters,
 * leading or trailing whitespace, or a value that looks like the sentinel — `=?base64?…?=` of its UTF-8.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  if (plain || value === "") return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** `required` first, then what the user's `Accept` adds (case-insensitive de-duplication). */
export function mergeAccept(required: readonly string[], user: string | undefined): string {
  const values = [...required];
  for (const part of (user ?? "").split(",")) {
    const value = part.trim();
    if (value && !values.some((v) => v.toLowerCase() === value.toLowerCase())) values.push(value);
  }
  return values.join(", ");
}

export class RequestPath {
  readonly #url: URL;
  readonly #userHeaders: Record<string, string>;
  readonly #userAccept: string | undefined;
  readonly #auth: HttpAuthProvider | undefined;
  readonly #serverName: string | undefined;
  readonly #maxRedirects: number;
  readonly #pool: () => ExchangePool | undefined;
  /** `Accept` for the two sets of media types the transport sends, merged with the user's once. */
  readonly #acceptFor: Map<readonly string[], string>;

  constructor(options: RequestPathOptions, pool: () => ExchangePool | undefined) {
    this.#url = options.url;
    this.#userHeaders = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      const lower = name.toLowerCase();
      if (lower === "accept") this.#userAccept = value;
      else if (!BODY_HEADERS.has(lower)) this.#userHeaders[lower] = value;
    }
    this.#auth = options.authProvider;
    this.#serverName = options.serverName;
    this.#maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
    this.#pool = pool;
    this.#acceptFor = new Map(
      [ACCEPT_BOTH, ACCEPT_SSE].map((required) => [required, mergeAccept(required, this.#userAccept)]),
    );
  }

  /** The server's name in the manager's config, for errors that name it. */
  get serverName(): string | undefined {
    return this.#serverName;
  }

  #accept(required: readonly string[]): string {
    return this.#acceptFor.get(required) ?? mergeAccept(required, this.#userAccept);
  }

  /** The headers of one request: the user's, the MCP media types, the session's. Lower-case names. */
  headers(
    session: SessionHeaders,
    extra: { accept?: readonly string[] | undefined; contentType?: string | undefined },
  ): Record<string, string> {
    const headers: Record<string, string> = { ...this.#userHeaders };
    if (extra.accept !== undefined) headers["accept"] = this.#accept(extra.accept);
    if (extra.contentType !== undefined) headers["content-type"] = extra.contentType;
    if (session.sessionId !== undefined) headers["mcp-session-id"] = session.sessionId;
    if (session.protocolVersion !== undefined) headers["mcp-protocol-version"] = session.protocolVersion;
    return headers;
  }

  /**
   * Sends one request: the auth provider's headers added, retried after a `401` (or step-up `403`) it handled,
   * redirects followed by the rules above. A failure to reach the server is a {@link NetworkError};
   * an abort rethrows the signal's reason.
   */
  send(request: ExchangeRequest): Promise<ExchangeResponse> {
    const pool = this.#pool();
    if (!pool) return Promise.reject(new TransportClosedError());
    // Without an auth provider there is nothing to add or retry: straight to the wire (no extra
    // promise per request on the hot path).
    if (!this.#auth) return this.#follow(pool, request, 0);
    return this.#sendWithAuth(pool, request);
  }

  async #sendWithAuth(pool: ExchangePool, request: ExchangeRequest): Promise<ExchangeResponse> {
    for (let retries = 0; ; retries++) {
      const sent = await this.#auth!.headers({ method: request.method, url: request.url.href, body: request.body });
      const response = await this.#follow(pool, { ...request, headers: this.#withAuth(request.headers, sent) }, 0);
      const challenge = response.header("www-authenticate");
      const refused =
        response.status === 401 ||
        (response.status === 403 && challenge !== undefined && /error\s*=\s*"?insufficient_scope/i.test(challenge));
      if (refused && this.#auth?.onUnauthorized && retries < MAX_AUTH_RETRIES) {
        let retry: boolean;
        try {
          retry = await this.#auth.onUnauthorized({
            url: request.url.href,
            status: response.status,
            wwwAuthenticate: challenge,
            sent,
            attempt: retries,
            header: (name) => response.header(name.toLowerCase()),
          });
        } catch (error) {
          response.cancel(); // the refused answer's connection is released, not left half-read
          throw error;
        }
        if (retry) {
          response.cancel();
          continue;
        }
      }
      return response;
    }
  }

  /** The typed error for a non-2xx answer; a `404` to a request that carried `sentSession` means it expired. */
  async error(response: ExchangeResponse, sentSession: string | undefined): Promise<HttpError> {
    let body = "";
    try {
      body = await response.text(64 * 1024);
    } catch {
      // The status is the news; a body we cannot read (or one far too long) adds nothing.
    }
    const details = {
      status: response.status,
      statusText: response.statusText,
      body,
      url: this.#url.href,
      wwwAuthenticate: response.header("www-authenticate"),
      mcpAuthServer: response.header("mcp-auth-server"),
    };
    if (response.status === 404 && sentSession !== undefined) return new SessionExpiredError(sentSession, details);
    return new HttpError(details);
  }

  /**
   * `request`'s headers with the auth provider's added, once (no retry after a refusal): for a
   * request that is a courtesy, such as the `DELETE` that ends a session.
   */
  async authorized(
    request: Pick<ExchangeRequest, "method" | "url" | "headers" | "body">,
  ): Promise<Record<string, string>> {
    if (!this.#auth) return request.headers;
    return this.#withAuth(
      request.headers,
      await this.#auth.headers({ method: request.method, url: request.url.href, body: request.body }),
    );
  }

  #withAuth(headers: Record<string, string>, auth: Record<string, string>): Record<string, string> {
    const merged = { ...headers };
    // Credentials only: a provider cannot set the session, the protocol version or the framing.
    for (const [name, value] of Object.entries(auth)) if (!isReservedHeader(name)) merged[name.toLowerCase()] = value;
    return merged;
  }

  #networkError(request: ExchangeRequest, error: unknown): unknown {
    if (request.abort?.aborted) return request.abort.reason;
    // Already typed by the HTTP client (a ProxyError, a bad ca file, a break it could judge): as it is.
    if (McpError.isInstance(error)) return error;
    return new NetworkError(request.url.href, error, {
      serverName: this.#serverName,
      mayHaveRun: request.method !== "GET" && !failedBeforeSending(error),
    });
  }

  /** One exchange; a redirect it answers is followed when the redirect policy (`judgeRedirect`) allows it. */
  #follow(pool: ExchangePool, request: ExchangeRequest, hops: number): Promise<ExchangeResponse> {
    return pool.exchange(request).then(
      (response) => {
        if (response.opaqueRedirect === true) return this.#redirect(pool, request, response, undefined, hops);
        if (!REDIRECT_STATUSES.has(response.status)) return response;
        const location = response.header("location");
        return location === undefined ? response : this.#redirect(pool, request, response, location, hops);
      },
      (error: unknown) => {
        throw this.#networkError(request, error);
      },
    );
  }

  #redirect(
    pool: ExchangePool,
    current: ExchangeRequest,
    response: ExchangeResponse,
    location: string | undefined,
    hops: number,
  ): Promise<ExchangeResponse> {
    response.cancel();
    // The policy @mcp/lite shares (@mcp/jsonrpc/internal): same origin, a POST only by 307/308, at most maxRedirects.
    const judged = judgeRedirect({
      configured: this.#url,
      current: current.url,
      location,
      status: response.status,
      method: current.method,
      hops,
      maxRedirects: this.#maxRedirects,
    });
    if ("refuse" in judged)
      return Promise.reject(notFollowed(response, current, judged.target ?? location, judged.refuse));
    // Same origin: the request goes as it was (a 307/308 POST with its body, a GET as a GET).
    const headers = { ...current.headers };
    delete headers["content-length"]; // the exchange sets it for the body it sends, if any
    return this.#follow(pool, { ...current, url: judged.follow, headers }, hops + 1);
  }
}

/** The error for a redirect that is not followed: its status, where it pointed, and why. */
function notFollowed(
  response: ExchangeResponse,
  request: ExchangeRequest,
  location: string | undefined,
  why: string,
): HttpError {
  const details = {
    status: response.status,
    statusText: response.statusText,
    url: request.url.href,
    ...(location === undefined ? {} : { location }),
  };
  return new HttpError(
    details,
    "http_error",
    redirectNotFollowedMessage(response.status, location === undefined ? undefined : redactUrl(location), why),
  );
}
