import {
  HttpError,
  JsonRpcEndpoint,
  McpError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  SessionExpiredError,
  TransportClosedError,
  toError,
  type JsonRpcMessage,
  type MCPTransport,
  type RequestContext,
  type RequestId,
  type RequestOptions,
  type SendContext,
} from "@mcp/jsonrpc";
import type { EventSourceMessage } from "eventsource-parser";
import { fetchPool, nodePool, type ExchangePool, type ExchangeRequest, type ExchangeResponse, type FetchLike } from "./exchange.js";
import { readSse, type SseProgress } from "./sse.js";

/** Supplies credentials and reacts to `401`. `@mcp/oauth` implements this hook. */
export interface HttpAuthProvider {
  /** Headers added to every request, e.g. `{ Authorization: "Bearer …" }`. */
  headers(): Promise<Record<string, string>> | Record<string, string>;
  /**
   * Called on a `401`. Refresh the credentials and return true to retry the request once
   * (with fresh `headers()`); return false to fail with the `401`.
   */
  onUnauthorized?(context: { url: string; status: number; wwwAuthenticate: string | undefined }): Promise<boolean> | boolean;
}

/** Configuration of an HTTP server. */
export interface HttpTransportConfig {
  /** `"http"`: Streamable HTTP (falls back to legacy SSE when the server is old). `"sse"`: legacy HTTP+SSE (2024-11-05). */
  type: "http" | "sse";
  url: string;
  /** Extra headers on every request. They may add to `Accept`, never remove what MCP needs. */
  headers?: Record<string, string> | undefined;
  /** Default timeout (ms) for a whole exchange: headers and body. Default 30000. */
  timeout?: number | undefined;
  /** Use this `fetch` instead of the built-in keep-alive `node:http` path (e.g. outside Node). */
  fetch?: FetchLike | undefined;
  authProvider?: HttpAuthProvider | undefined;
  /** For `type: "http"`: try legacy SSE when `initialize` gets 400/404/405. Default true. */
  fallbackToSse?: boolean | undefined;
  /** How many times a broken SSE stream is resumed with `Last-Event-ID`. Default 3. */
  maxResumeAttempts?: number | undefined;
  /** Delay before resuming when the server sent no `retry:`. Default 1000 ms. */
  defaultRetryMs?: number | undefined;
}

const ACCEPT_BOTH = ["application/json", "text/event-stream"];
const MAX_REDIRECTS = 5;
/** Headers that must never follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "mcp-session-id", "proxy-authorization"];
/** After the awaited response arrived, how long to let an SSE stream end on its own. */
const STREAM_LINGER_MS = 200;

type Mode = "streamable" | "legacy";

function mergeAccept(required: string[], user: string | undefined): string {
  const values = [...required];
  for (const part of (user ?? "").split(",")) {
    const value = part.trim();
    if (value && !values.some((v) => v.toLowerCase() === value.toLowerCase())) values.push(value);
  }
  return values.join(", ");
}

function isEventStream(contentType: string | undefined): boolean {
  return (contentType ?? "").toLowerCase().startsWith("text/event-stream");
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The legacy server never sent its `endpoint` event, or sent one for another origin. */
export class SseEndpointError extends McpError {
  static override readonly brand: string = "SseEndpointError";

  constructor(message: string, options: { cause?: unknown } = {}) {
    super("invalid_message", message, options);
  }
}

/**
 * An MCP transport over HTTP: Streamable HTTP (POST JSON / POST→SSE, GET listener, DELETE) and the
 * legacy HTTP+SSE transport. Owns framing, the HTTP exchange, the session id and stream
 * resumption; never re-initialises a session (a {@link SessionExpiredError} tells the layer above).
 */
export class HttpTransport implements MCPTransport {
  onClose?: (() => void) | undefined;
  onError?: ((error: Error) => void) | undefined;
  onNotification?: ((method: string, params: unknown) => void) | undefined;
  onRequest?: ((method: string, params: unknown, context: RequestContext) => Promise<unknown>) | undefined;

  readonly config: Readonly<HttpTransportConfig>;
  readonly url: URL;
  readonly #endpoint: JsonRpcEndpoint;
  readonly #timeout: number;
  #pool: ExchangePool | undefined;
  #mode: Mode;
  #state: "new" | "open" | "closed" = "new";
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** Aborts every background stream (legacy GET stream, GET listener, resumptions) on close. */
  readonly #lifetime = new AbortController();
  #legacyPostUrl: URL | undefined;
  #listening = false;
  #closing: Promise<void> | undefined;
  #initializeSucceeded = false;

  constructor(config: HttpTransportConfig) {
    if (config.type !== "http" && config.type !== "sse") throw new TypeError(`HttpTransport: unknown type "${String(config.type)}"`);
    let url: URL;
    try {
      url = new URL(config.url);
    } catch (cause) {
      throw new TypeError(`HttpTransport: invalid URL "${config.url}"`, { cause });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`HttpTransport: URL must be http(s), got "${config.url}"`);
    this.config = { ...config };
    this.url = url;
    this.#mode = config.type === "sse" ? "legacy" : "streamable";
    this.#timeout = config.timeout ?? 30_000;
    this.#endpoint = new JsonRpcEndpoint({
      send: (message, context) => this.#send(message, context),
      handlers: this,
      defaultTimeout: config.timeout,
      requestSignals: true,
      source: "HTTP response",
    });
  }

  /** True between `connect()` and `close()`: the transport is usable (not "a stream is open"). */
  get connected(): boolean {
    return this.#state === "open";
  }

  /** The `Mcp-Session-Id` the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The protocol version sent as `MCP-Protocol-Version`, once set. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** `"streamable"` or `"legacy"` (after `type: "sse"` or a fallback). */
  get mode(): Mode {
    return this.#mode;
  }

  /** Sends `MCP-Protocol-Version: <version>` on every later request. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /** Makes the transport usable. For `type: "sse"`, opens the event stream and waits for its `endpoint`. */
  async connect(): Promise<void> {
    if (this.#state !== "new") throw new Error("HttpTransport.connect() can be called only once");
    this.#pool = this.config.fetch ? fetchPool(this.config.fetch) : typeof process !== "undefined" && process.versions?.node ? await nodePool() : fetchPool(globalThis.fetch as FetchLike);
    this.#state = "open";
    if (this.#mode === "legacy") {
      try {
        await this.#openLegacyStream();
      } catch (error) {
        await this.close();
        throw error;
      }
    }
  }

  request<T = unknown>(method: string, params?: object, options?: RequestOptions): Promise<T> {
    if (this.#state !== "open") return Promise.reject(new TransportClosedError());
    return this.#endpoint.request<T>(method, params, options);
  }

  notify(method: string, params?: object): Promise<void> {
    if (this.#state !== "open") return Promise.reject(new TransportClosedError());
    return this.#endpoint.notify(method, params);
  }

  /**
   * Opens the GET stream for server-initiated messages (Streamable HTTP). Resolves once it is
   * open, or at once when the server answers `405` (it offers no such stream; the listener stays off).
   */
  async startSSEListener(): Promise<void> {
    if (this.#state !== "open") throw new TransportClosedError();
    if (this.#mode !== "streamable" || this.#listening) return;
    this.#listening = true;
    let response: ExchangeResponse;
    try {
      response = await this.#fetch({ method: "GET", url: this.url, headers: this.#headers({ accept: "text/event-stream" }), signal: this.#lifetime.signal });
    } catch (error) {
      this.#listening = false;
      throw error;
    }
    if (response.status === 405) {
      response.cancel();
      this.#listening = false;
      return;
    }
    if (!(response.status >= 200 && response.status < 300) || !isEventStream(response.header("content-type"))) {
      this.#listening = false;
      throw await this.#httpError(response, true);
    }
    void this.#runListener(response);
  }

  /** Closes: ends in-flight exchanges and streams, sends `DELETE` for the session, fires `onClose` once. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    if (this.#state === "new") {
      this.#state = "closed";
      this.#endpoint.close();
      this.#closing = Promise.resolve();
      return this.#closing;
    }
    this.#state = "closed";
    this.#endpoint.close(new TransportClosedError());
    this.#lifetime.abort(new TransportClosedError());
    this.#closing = (async () => {
      if (this.#sessionId !== undefined && this.#mode === "streamable" && this.#pool) {
        try {
          const response = await this.#pool.exchange({
            method: "DELETE",
            url: this.url,
            headers: await this.#withAuth(this.#headers({})),
            signal: AbortSignal.timeout(Math.min(this.#timeout, 5000)),
          });
          response.cancel();
        } catch {
          // Ending the session is a courtesy; the server will expire it anyway.
        }
      }
      this.#pool?.destroy();
      try {
        this.onClose?.();
      } catch (error) {
        this.#endpoint.reportError(toError(error));
      }
    })();
    return this.#closing;
  }

  // ─── sending ────────────────────────────────────────────────────────────────

  async #send(message: JsonRpcMessage, context: SendContext): Promise<void> {
    if (this.#state !== "open") throw new TransportClosedError();
    if (context.requestId === undefined) {
      // Notifications and our answers to server requests: bounded by their own clock.
      const timeout = AbortSignal.timeout(this.#timeout);
      const signal = AbortSignal.any([timeout, this.#lifetime.signal]);
      try {
        await this.#post(message, undefined, signal);
      } catch (error) {
        if (timeout.aborted) throw new RequestTimeoutError(this.#timeout, { kind: "notify", cause: error });
        if (this.#lifetime.signal.aborted) throw new TransportClosedError({ cause: error });
        throw error;
      }
      return;
    }
    const signal = context.signal!;
    try {
      await this.#post(message, context.requestId, signal);
    } catch (error) {
      if (signal.aborted) return; // the request already failed its own way (timeout, abort, close)
      const method = "method" in message ? message.method : undefined;
      if (method === "initialize" && this.#shouldFallBack(error)) {
        await this.#openLegacyStream(error);
        await this.#post(message, context.requestId, signal);
        return;
      }
      throw error;
    }
  }

  #shouldFallBack(error: unknown): boolean {
    return (
      this.#mode === "streamable" &&
      this.config.type === "http" &&
      this.config.fallbackToSse !== false &&
      !this.#initializeSucceeded &&
      HttpError.isInstance(error) &&
      !SessionExpiredError.isInstance(error) &&
      [400, 404, 405].includes(error.status)
    );
  }

  async #post(message: JsonRpcMessage, requestId: RequestId | undefined, signal: AbortSignal): Promise<void> {
    const legacy = this.#mode === "legacy";
    const url = legacy ? this.#legacyPostUrl! : this.url;
    const headers = this.#headers({ accept: ACCEPT_BOTH, "content-type": "application/json" });
    const sentSession = legacy ? undefined : this.#sessionId;
    const response = await this.#fetch({ method: "POST", url, headers, body: JSON.stringify(message), signal });

    const session = legacy ? undefined : response.header("mcp-session-id");
    if (session) this.#sessionId = session;
    if (!(response.status >= 200 && response.status < 300)) {
      throw await this.#httpError(response, sentSession !== undefined, sentSession);
    }
    if ("method" in message && message.method === "initialize") this.#initializeSucceeded = true;

    // Legacy servers answer on the event stream; 202 means "accepted, no body".
    if (legacy || response.status === 202 || response.status === 204 || requestId === undefined) {
      response.cancel();
      return;
    }
    if (isEventStream(response.header("content-type"))) {
      this.#endpoint.pending.setTimeoutKind(requestId, "sse");
      await this.#consumeResponseStream(response, requestId, { lastEventId: undefined, retry: undefined }, signal);
      return;
    }
    const text = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new ParseError("HTTP response body", text, { cause });
    }
    this.#endpoint.receive(value);
    if (this.#endpoint.pending.has(requestId)) throw new NoResponseError(requestId);
  }

  /**
   * Reads a POST's SSE answer until the response for `requestId` arrives. A stream that breaks or
   * ends first is resumed with `GET` + `Last-Event-ID` after the server's `retry:` delay, when the
   * stream carried event ids; otherwise the request fails with {@link NoResponseError}.
   */
  async #consumeResponseStream(first: ExchangeResponse, requestId: RequestId, progress: SseProgress, signal: AbortSignal): Promise<void> {
    const maxAttempts = this.config.maxResumeAttempts ?? 3;
    let response = first;
    for (let attempt = 0; ; attempt++) {
      let broken: unknown;
      try {
        await this.#readStream(response, progress, () => !this.#endpoint.pending.has(requestId));
      } catch (error) {
        if (signal.aborted || this.#state !== "open") return;
        broken = error;
      }
      if (!this.#endpoint.pending.has(requestId)) return;
      if (progress.lastEventId === undefined || attempt >= maxAttempts) {
        throw new NoResponseError(requestId, broken === undefined ? {} : { cause: broken });
      }
      await delay(progress.retry ?? this.config.defaultRetryMs ?? 1000, signal);
      response = await this.#resume(progress, signal);
    }
  }

  async #resume(progress: SseProgress, signal: AbortSignal): Promise<ExchangeResponse> {
    const headers = this.#headers({ accept: "text/event-stream" });
    if (progress.lastEventId !== undefined) headers["last-event-id"] = progress.lastEventId;
    const response = await this.#fetch({ method: "GET", url: this.url, headers, signal });
    if (!(response.status >= 200 && response.status < 300) || !isEventStream(response.header("content-type"))) {
      throw await this.#httpError(response, this.#sessionId !== undefined);
    }
    return response;
  }

  /**
   * Feeds one SSE body to the endpoint. When `done()` turns true (the awaited response arrived),
   * the stream gets a short moment to end by itself — so its connection can be reused — then is cut.
   */
  async #readStream(response: ExchangeResponse, progress: SseProgress, done: () => boolean): Promise<void> {
    const iterator = response.chunks();
    let finished = false;
    const guarded: AsyncIterator<Uint8Array> = {
      next: async () => {
        if (finished) return { done: true, value: undefined };
        if (!done()) return iterator.next();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const linger = new Promise<IteratorResult<Uint8Array>>((resolve) => {
          timer = setTimeout(() => resolve({ done: true, value: undefined }), STREAM_LINGER_MS);
        });
        const result = await Promise.race([iterator.next(), linger]);
        clearTimeout(timer);
        if (result.done) {
          finished = true;
          response.cancel();
        }
        return result;
      },
    };
    try {
      await readSse(guarded, progress, (event) => this.#onSseEvent(event));
    } catch (error) {
      response.cancel();
      throw error;
    }
  }

  #onSseEvent(event: EventSourceMessage): void {
    if (event.event !== undefined && event.event !== "message") return;
    if (event.data.trim() === "") return; // a priming event: an id (and maybe retry) only
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch (cause) {
      this.#endpoint.reportError(new ParseError("SSE event", event.data, { cause }));
      return;
    }
    this.#endpoint.receive(value);
  }

  // ─── background streams ─────────────────────────────────────────────────────

  async #runListener(first: ExchangeResponse): Promise<void> {
    const progress: SseProgress = { lastEventId: undefined, retry: undefined };
    const signal = this.#lifetime.signal;
    const maxAttempts = this.config.maxResumeAttempts ?? 3;
    let response: ExchangeResponse | undefined = first;
    let failures = 0;
    while (this.#state === "open") {
      let failure: unknown;
      try {
        response ??= await this.#resume(progress, signal);
        const before = progress.events ?? 0;
        await this.#readStream(response, progress, () => false);
        // A stream that brought something is healthy; one that ends empty counts against it,
        // so a server that closes the GET stream at once is not polled forever.
        failures = (progress.events ?? 0) > before ? 0 : failures + 1;
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        failure = error;
      }
      if (failures > maxAttempts) {
        this.#endpoint.reportError(
          failure !== undefined ? toError(failure) : new Error(`The GET event stream of ${this.url.href} ended ${failures} times in a row without events; the listener stopped`),
        );
        break;
      }
      response = undefined;
      if (this.#state !== "open") break;
      try {
        await delay(progress.retry ?? this.config.defaultRetryMs ?? 1000, signal);
      } catch {
        break;
      }
    }
    this.#listening = false;
  }

  /** Legacy HTTP+SSE: GET the stream, wait for its `endpoint` event, then keep reading it. */
  async #openLegacyStream(causeOfFallback?: unknown): Promise<void> {
    // The stream lives until close(); only the wait for its `endpoint` event is on a clock.
    const stream = new AbortController();
    const lifetime = this.#lifetime.signal;
    const onClose = (): void => stream.abort(lifetime.reason);
    lifetime.addEventListener("abort", onClose, { once: true });
    const timer = setTimeout(
      () => stream.abort(new SseEndpointError(`No "endpoint" event from ${this.url.href} within ${this.#timeout}ms`)),
      this.#timeout,
    );
    const fail = (error: unknown): never => {
      clearTimeout(timer);
      lifetime.removeEventListener("abort", onClose);
      stream.abort(error);
      throw causeOfFallback ?? error;
    };

    let response: ExchangeResponse;
    try {
      response = await this.#fetch({ method: "GET", url: this.url, headers: this.#headers({ accept: "text/event-stream" }), signal: stream.signal });
    } catch (error) {
      return fail(stream.signal.aborted ? stream.signal.reason : error);
    }
    if (!(response.status >= 200 && response.status < 300) || !isEventStream(response.header("content-type"))) {
      return fail(await this.#httpError(response, false));
    }

    const progress: SseProgress = { lastEventId: undefined, retry: undefined };
    const gotEndpoint = new Promise<void>((resolve, reject) => {
      const reading = readSse(response.chunks(), progress, (event) => {
        if (event.event !== "endpoint") {
          this.#onSseEvent(event);
          return;
        }
        let target: URL;
        try {
          target = new URL(event.data.trim(), this.url);
        } catch (cause) {
          reject(new SseEndpointError(`Invalid "endpoint" event: ${JSON.stringify(event.data)}`, { cause }));
          return;
        }
        if (target.origin !== this.url.origin) {
          reject(new SseEndpointError(`The "endpoint" event points to another origin (${target.origin}); only ${this.url.origin} is allowed`));
          return;
        }
        this.#legacyPostUrl = target;
        this.#mode = "legacy";
        resolve();
      });
      reading.then(
        () => {
          reject(new SseEndpointError(`The event stream of ${this.url.href} ended before its "endpoint" event`));
          this.#legacyStreamEnded();
        },
        (error: unknown) => {
          reject(stream.signal.aborted ? stream.signal.reason : error);
          this.#legacyStreamEnded(error);
        },
      );
    });
    try {
      await gotEndpoint;
    } catch (error) {
      response.cancel();
      return fail(error);
    }
    clearTimeout(timer);
  }

  #legacyStreamEnded(error?: unknown): void {
    if (this.#state !== "open" || this.#legacyPostUrl === undefined) return;
    // In the legacy transport every response arrives on this stream: without it the session is over.
    void this.close();
    if (error !== undefined && !this.#lifetime.signal.aborted) this.#endpoint.reportError(toError(error));
  }

  // ─── HTTP plumbing ──────────────────────────────────────────────────────────

  #headers(extra: { accept?: string[] | string; "content-type"?: string }): Record<string, string> {
    const headers: Record<string, string> = {};
    let userAccept: string | undefined;
    for (const [name, value] of Object.entries(this.config.headers ?? {})) {
      if (name.toLowerCase() === "accept") userAccept = value;
      else headers[name.toLowerCase()] = value;
    }
    if (extra.accept !== undefined) headers["accept"] = mergeAccept(Array.isArray(extra.accept) ? extra.accept : [extra.accept], userAccept);
    if (extra["content-type"]) headers["content-type"] = extra["content-type"];
    if (this.#sessionId !== undefined && this.#mode === "streamable") headers["mcp-session-id"] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers["mcp-protocol-version"] = this.#protocolVersion;
    return headers;
  }

  async #withAuth(headers: Record<string, string>): Promise<Record<string, string>> {
    const provider = this.config.authProvider;
    if (!provider) return headers;
    const extra = await provider.headers();
    const merged = { ...headers };
    for (const [name, value] of Object.entries(extra)) merged[name.toLowerCase()] = value;
    return merged;
  }

  /** One request with auth (one retry after a `401` refresh) and same-rules redirects. */
  async #fetch(request: ExchangeRequest): Promise<ExchangeResponse> {
    const pool = this.#pool;
    if (!pool) throw new TransportClosedError();
    let retriedAuth = false;
    for (;;) {
      const response = await this.#followRedirects(pool, { ...request, headers: await this.#withAuth(request.headers) });
      const provider = this.config.authProvider;
      if (response.status === 401 && provider?.onUnauthorized && !retriedAuth) {
        retriedAuth = true;
        const retry = await provider.onUnauthorized({ url: request.url.href, status: 401, wwwAuthenticate: response.header("www-authenticate") });
        if (retry) {
          response.cancel();
          continue;
        }
      }
      return response;
    }
  }

  async #followRedirects(pool: ExchangePool, request: ExchangeRequest): Promise<ExchangeResponse> {
    let current = request;
    for (let hops = 0; ; hops++) {
      const response = await pool.exchange(current);
      const location = response.header("location");
      if (![301, 302, 303, 307, 308].includes(response.status) || location === undefined) return response;
      if (hops >= MAX_REDIRECTS) return response;
      response.cancel();
      const target = new URL(location, current.url);
      const headers = { ...current.headers };
      if (target.origin !== current.url.origin) {
        // Credentials and the session belong to the origin we were configured with.
        for (const name of CREDENTIAL_HEADERS) delete headers[name];
        for (const name of Object.keys(await this.#withAuth({}))) delete headers[name];
      }
      const keepsBody = response.status === 307 || response.status === 308;
      current = keepsBody ? { ...current, url: target, headers } : { method: "GET", url: target, headers, signal: current.signal };
      if (!keepsBody) delete headers["content-type"];
    }
  }

  async #httpError(response: ExchangeResponse, hadSession: boolean, sessionId = this.#sessionId): Promise<HttpError> {
    let body = "";
    try {
      body = await response.text();
    } catch {
      // The status is the news; a body we cannot read adds nothing.
    }
    const details = {
      status: response.status,
      statusText: response.statusText,
      body,
      url: this.url.href,
      wwwAuthenticate: response.header("www-authenticate"),
      mcpAuthServer: response.header("mcp-auth-server"),
    };
    if (response.status === 404 && hadSession && sessionId !== undefined) return new SessionExpiredError(sessionId, details);
    return new HttpError(details);
  }
}

/** Creates and connects an HTTP transport. */
export async function createHttpTransport(config: HttpTransportConfig): Promise<HttpTransport> {
  const transport = new HttpTransport(config);
  await transport.connect();
  return transport;
}
