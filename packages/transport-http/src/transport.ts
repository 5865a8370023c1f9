// `HttpTransport`: lifecycle, sessions, POSTs and their answers, and the fallback to HTTP+SSE.
import {
  EndpointTransport,
  RequestTimeoutError,
  toError,
  TransportClosedError,
  type AbortHandle,
  type HandshakeContext,
  type JsonRpcMessage,
  type RequestId,
  type SendContext,
} from "@mcp/jsonrpc";
import { abortHandleOf, inspectCustom, redactConfig, redactUrl } from "@mcp/jsonrpc/internal";
import type { Settings, StreamContext } from "./context.js";
import { ACCEPT_BOTH, DEFAULTS, STATELESS_REVISION, SAFE_METHODS, isEventStream } from "./defaults.js";
import { fetchPool, type ExchangePool } from "./exchange.js";
import { meansHttpSse, openSseEndpointStream } from "./sse-endpoint.js";
import { openListener, runListener } from "./listener.js";
import { RequestPath, type SessionHeaders } from "./request-path.js";
import { addRevisionHeaders, deliverJsonAnswer, errorResponseIn } from "./post-message.js";

import { Lingering } from "./lingering.js";
import { endSession } from "./end-session.js";
import { consumeResponseStream } from "./response-stream.js";
import { checkConfig, settingsOf, type HttpTransportConfig } from "./config.js";

/** Which transport the server is spoken to with, named as the config's `type` names them. */
type Mode = "http" | "sse";

/**
 * An MCP transport over HTTP: Streamable HTTP (POST JSON / POST→SSE, GET listener, DELETE) and the
 * HTTP+SSE transport. Owns framing, the HTTP exchange, the session id and stream
 * resumption; never re-initialises a session (a `SessionExpiredError` tells the layer above).
 * The JSON-RPC peer (ids, routing, cancellation, callbacks) is the jsonrpc {@link EndpointTransport}.
 */
export class HttpTransport extends EndpointTransport {
  /** The configuration as given (printing the transport shows it with credentials redacted). */
  readonly config: Readonly<HttpTransportConfig>;
  readonly url: URL;
  readonly #settings: Settings;
  readonly #path: RequestPath;
  readonly #core: StreamContext;
  #pool: ExchangePool | undefined;
  #mode: Mode;
  #cancelsOnTheirWay = 0; // notifications/cancelled POSTs not answered yet
  #state: "new" | "connecting" | "open" | "closed" = "new";
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** Aborts every background stream (HTTP+SSE GET stream, GET listener, resumptions) on close. */
  readonly #lifetime = new AbortController();
  #ssePostUrl: URL | undefined;
  #listening = false;
  #closing: Promise<void> | undefined;
  #initializeSucceeded = false;

  constructor(config: HttpTransportConfig) {
    const url = checkConfig(config);
    const settings = settingsOf(config);
    super({ timeout: settings.timeout, requestSignals: true, source: "HTTP response" });
    this.config = { ...config };
    this.url = url;
    this.#mode = config.type === "sse" ? "sse" : "http";
    this.#settings = settings;
    this.#path = new RequestPath(
      { url, headers: config.headers, authProvider: config.authProvider, serverName: config.serverName },
      () => this.#pool,
    );
    this.#core = {
      url,
      endpoint: this.endpoint,
      path: this.#path,
      settings: this.#settings,
      lifetime: this.#lifetime.signal,
      lifetimeAbort: abortHandleOf(this.#lifetime.signal),
      lingering: new Lingering(this.#settings.streamLingerMs),
      isOpen: () => this.#state === "open",
      session: () => this.#sessionHeaders(),
      stateless: () => this.stateless,
    };
  }

  /** True between `connect()` and `close()`: the transport is usable (not "a stream is open"). */
  override get connected(): boolean {
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

  /** `"http"` (Streamable HTTP) or `"sse"` (HTTP+SSE: after `type: "sse"` or a fallback). */
  get mode(): Mode {
    return this.#mode;
  }

  /**
   * Sends `MCP-Protocol-Version: <version>` on every later request (`undefined`: none). From
   * 2026-07-28 on the transport speaks the stateless revision: `Mcp-Method` / `Mcp-Name` on every
   * POST, no session id, no GET stream, cancellation by closing the request's stream.
   */
  setProtocolVersion(version: string | undefined): void {
    this.#protocolVersion = version;
  }

  /** True once the protocol version is 2026-07-28 or later (the stateless era). */
  get stateless(): boolean {
    return this.#protocolVersion !== undefined && this.#protocolVersion >= STATELESS_REVISION;
  }

  /** Makes the transport usable. For `type: "sse"`, opens the event stream and waits for its `endpoint`. */
  async connect(): Promise<void> {
    if (this.#state !== "new") throw new Error("HttpTransport.connect() can be called only once");
    this.#state = "connecting";
    let pool: ExchangePool;
    try {
      pool = this.config.fetch
        ? fetchPool(this.config.fetch)
        : await (
            await import("#platform")
          ).defaultPool({ proxy: this.config.proxy, ca: this.config.ca, serverName: this.config.serverName });
    } catch (error) {
      this.#state = "closed";
      throw error;
    }
    if (this.#state !== "connecting") {
      // close() was called while we waited.
      pool.destroy();
      throw new TransportClosedError({ detail: "closed while connecting" });
    }
    this.#pool = pool;
    this.#state = "open";
    if (this.#mode === "sse") {
      try {
        this.#ssePostUrl = await openSseEndpointStream(this.#core, (error) => this.#sseStreamEnded(error));
      } catch (error) {
        await this.close();
        throw this.#lifetime.signal.aborted && !(error instanceof Error && error.name !== "AbortError")
          ? new TransportClosedError({ detail: "closed while connecting", cause: error })
          : error;
      }
    }
  }

  /**
   * Opens the GET stream for server-initiated messages (Streamable HTTP). Resolves once it is
   * open, or at once when the server answers `405` (it offers no such stream; the listener stays off).
   */
  async startSSEListener(): Promise<void> {
    if (this.#state !== "open") throw new TransportClosedError();
    if (this.#mode !== "http" || this.#listening) return;
    this.#listening = true;
    const response = await openListener(this.#core, this.#sessionId).catch((error: unknown) => {
      this.#listening = false;
      throw error;
    });
    if (response === undefined) {
      this.#listening = false;
      return;
    }
    void runListener(this.#core, response).finally(() => {
      this.#listening = false;
    });
  }

  /**
   * The client's hook after the handshake: records the version, and (when `listen`) opens the GET
   * stream before the client says `initialized`, since servers announce things right after it. The
   * wait is bounded: a server that holds the GET without answering does not stall the handshake.
   */
  async afterHandshake(context: HandshakeContext): Promise<void> {
    this.setProtocolVersion(context.protocolVersion);
    // The stateless revision has no GET stream (subscriptions/listen replaces it).
    if (!context.listen || this.#mode !== "http" || this.stateless) return;
    const opening = this.startSSEListener().catch((error: unknown) => this.endpoint.reportError(toError(error)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([opening, new Promise((resolve) => (timer = setTimeout(resolve, DEFAULTS.listenerOpenWaitMs)))]);
    clearTimeout(timer);
  }

  /** Closes: ends in-flight exchanges and streams, sends `DELETE` for the session, fires `onClose` once. */
  override close(): Promise<void> {
    if (this.#closing) return this.#closing;
    const wasOpen = this.#state === "open";
    const everStarted = this.#state !== "new";
    this.#state = "closed";
    this.endpoint.close(new TransportClosedError());
    this.#lifetime.abort(new TransportClosedError());
    this.#core.lingering.stop();
    this.#closing = (async () => {
      if (wasOpen && this.#sessionId !== undefined && this.#mode === "http" && this.#pool) {
        await endSession(
          this.#path,
          this.#pool,
          this.url,
          this.#path.headers(this.#sessionHeaders(), {}),
          Math.min(this.#settings.timeout, DEFAULTS.deleteTimeoutMs),
        );
      }
      this.#pool?.destroy();
      if (everStarted) this.closed(); // onClose, once the DELETE is done
    })();
    return this.#closing;
  }

  /** What `console.log(transport)` shows: state and config, with credentials redacted. */
  [inspectCustom](): object {
    return {
      url: redactUrl(this.url.href),
      mode: this.#mode,
      connected: this.connected,
      sessionId: this.#sessionId,
      protocolVersion: this.#protocolVersion,
      config: redactConfig(this.config),
    };
  }

  /** What `JSON.stringify(transport)` gives: the same redacted view. */
  toJSON(): object {
    return this[inspectCustom]();
  }

  // ─── sending ────────────────────────────────────────────────────────────────

  #sessionHeaders(): SessionHeaders {
    return {
      sessionId: this.#mode === "http" && !this.stateless ? this.#sessionId : undefined,
      protocolVersion: this.#protocolVersion,
    };
  }

  /** The endpoint's way out: a request's POST runs here, its failure settling the request. */
  protected send(message: JsonRpcMessage, context: SendContext): Promise<void> | undefined {
    if (this.#state !== "open") return Promise.reject(new TransportClosedError());
    const requestId = context.requestId;
    if (requestId === undefined) return this.#sendOther(message);
    // A request: one promise chain, and its failure settles the request here (nothing returned for
    // the endpoint to watch), so no extra async frame or promise per request on the hot path.
    this.#post(message, requestId, context.abort!, context.headers).then(undefined, (error: unknown) =>
      this.#requestFailed(message, context, requestId, error),
    );
    return undefined;
  }

  /**
   * Notifications and our answers to server requests: bounded by their own clock. Cancellations
   * and answers go on the side lane (a call in flight may be waiting for them); a cancellation gets
   * a short budget of its own: against a hung server it must not hold a connection for the whole timeout.
   */
  async #sendOther(message: JsonRpcMessage): Promise<void> {
    const cancel = "method" in message && message.method === CANCELLED;
    // In the stateless revision, closing the request's stream is the cancellation: nothing to send.
    if (cancel && this.stateless) return;
    // Advice only: past this many on their way (a silent server, a burst of aborts) more are not sent, not piled up.
    if (cancel && this.#cancelsOnTheirWay >= DEFAULTS.maxCancelsOnTheirWay) return;
    const budget = cancel ? Math.min(this.#settings.timeout, DEFAULTS.cancelTimeoutMs) : this.#settings.timeout;
    const timeout = AbortSignal.timeout(budget);
    const abort = abortHandleOf(AbortSignal.any([timeout, this.#lifetime.signal]));
    if (cancel) this.#cancelsOnTheirWay++;
    try {
      await this.#post(message, undefined, abort, undefined);
    } catch (error) {
      if (timeout.aborted) throw new RequestTimeoutError(budget, { label: "Notify", cause: error });
      if (this.#lifetime.signal.aborted) throw new TransportClosedError({ cause: error });
      throw error;
    } finally {
      if (cancel) this.#cancelsOnTheirWay--;
    }
  }

  /** A request's POST failed: the request fails with `error`, unless falling back to HTTP+SSE is what it means. */
  #requestFailed(message: JsonRpcMessage, context: SendContext, requestId: RequestId, error: unknown): void {
    if (context.abort!.aborted) return; // the request already failed its own way (timeout, abort, close)
    const method = "method" in message ? message.method : undefined;
    if (method === "initialize" && this.#shouldFallBack(error)) {
      this.#fallBack(message, context, requestId, error).catch((failure: unknown) =>
        this.endpoint.pending.reject(requestId, failure),
      );
      return;
    }
    this.endpoint.pending.reject(requestId, error);
  }

  /** `initialize` got 400/404/405: try the HTTP+SSE transport, and send it there. */
  async #fallBack(message: JsonRpcMessage, context: SendContext, requestId: RequestId, error: unknown): Promise<void> {
    try {
      this.#ssePostUrl = await openSseEndpointStream(this.#core, (ended) => this.#sseStreamEnded(ended));
    } catch {
      throw error; // the server is not an HTTP+SSE one either: its first answer says most
    }
    this.#mode = "sse";
    await this.#post(message, requestId, context.abort!, context.headers);
  }

  #shouldFallBack(error: unknown): boolean {
    const untried =
      this.#mode === "http" &&
      this.config.type === "http" &&
      this.config.fallbackToSse !== false &&
      !this.#initializeSucceeded;
    return untried && meansHttpSse(error);
  }

  /** One POST: the answer is `202`, a JSON body, or an SSE stream carrying the response. */
  async #post(
    message: JsonRpcMessage,
    requestId: RequestId | undefined,
    abort: AbortHandle,
    extraHeaders: Record<string, string> | undefined,
  ): Promise<void> {
    const sse = this.#mode === "sse";
    const url = sse ? this.#ssePostUrl! : this.url;
    const base = this.#path.headers(this.#sessionHeaders(), POST_MEDIA);
    const headers = this.stateless ? addRevisionHeaders(base, message, extraHeaders) : base;
    const sentSession = sse || this.stateless ? undefined : this.#sessionId;
    const idempotent = requestId !== undefined && "method" in message && SAFE_METHODS.has(message.method);
    // What a call in flight may be waiting for: a cancellation, or our answer to the server's question.
    const sideLane = requestId === undefined && (!("method" in message) || message.method === CANCELLED);
    const response = await this.#path.send({
      method: "POST",
      url,
      headers,
      body: JSON.stringify(message),
      abort,
      idempotent,
      sideLane,
    });

    const session = sse || this.stateless ? undefined : response.header("mcp-session-id");
    if (session) this.#sessionId = session;
    if (!(response.status >= 200 && response.status < 300)) {
      const error = await this.#path.error(response, sentSession);
      // A stateless-revision server answers protocol errors with 4xx and the JSON-RPC error for
      // this request (unsupported version, unknown method, header mismatch): that is the answer.
      if (this.stateless && requestId !== undefined && this.#deliverErrorBody(error.body, requestId)) return;
      throw error;
    }
    if ("method" in message && message.method === "initialize") this.#initializeSucceeded = true;

    // HTTP+SSE servers answer requests on the event stream; a notification's answer is "202 Accepted", no body.
    if (sse || requestId === undefined) {
      response.cancel();
      return;
    }
    if (isEventStream(response.header("content-type"))) {
      this.endpoint.pending.setTimeoutLabel(requestId, "SSE response");
      await consumeResponseStream(this.#core, response, requestId, abort);
      return;
    }
    await deliverJsonAnswer(this.endpoint, response, requestId, this.#settings.maxMessageBytes);
  }

  /** Delivers a JSON-RPC error response for `requestId` found in an HTTP error body; true when it was one. */
  #deliverErrorBody(body: string, requestId: RequestId): boolean {
    const response = errorResponseIn(body, requestId);
    if (response === undefined) return false;
    this.endpoint.receive(response);
    return !this.endpoint.pending.has(requestId);
  }

  #sseStreamEnded(error?: unknown): void {
    if (this.#state !== "open" || this.#ssePostUrl === undefined) return;
    // In HTTP+SSE every response arrives on this stream: without it the session is
    // over, and its requests fail saying why (the stream broke, or hit the size limit).
    if (error !== undefined) this.endpoint.reportError(toError(error));
    this.endpoint.close(
      new TransportClosedError({
        detail: error === undefined ? "the HTTP+SSE stream ended" : "the HTTP+SSE stream broke",
        cause: error,
      }),
    );
    void this.close();
  }
}

/** The media types of every POST. */
const POST_MEDIA = { accept: ACCEPT_BOTH, contentType: "application/json" };

const CANCELLED = "notifications/cancelled";

/** Creates and connects an HTTP transport. */
export async function createHttpTransport(config: HttpTransportConfig): Promise<HttpTransport> {
  const transport = new HttpTransport(config);
  await transport.connect();
  return transport;
}
