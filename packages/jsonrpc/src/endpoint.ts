// One JSON-RPC peer: request ids, dispatch of requests and notifications, cancellation, and `onMessage` (every message both ways).
import { AbortLatch, type AbortHandle } from "./abort.js";
import { InvalidMessageError, TransportClosedError, toError } from "./errors.js";
import { ErrorCodes, RpcError } from "./rpc-error.js";
import { classifyMessage, isJsonRpcSuccessResponse } from "./guards.js";
import { PendingRequests } from "./tracker.js";
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  MCPTransport,
  MessageDirection,
  NotificationContext,
  RequestContext,
  RequestId,
  RequestOptions,
} from "./types.js";

/** What a transport's `send` learns about the message it must deliver. */
export interface SendContext {
  /** For requests: the id being sent. */
  requestId?: RequestId | undefined;
  /**
   * For requests, when the endpoint was created with `requestSignals: true`: aborted when the
   * request ends without its response (timeout, caller abort, close, send failure), so the
   * transport can end its exchange. Never aborted once a response (result or error) arrived.
   * Cheap: prefer it to `signal` on hot paths.
   */
  abort?: AbortHandle | undefined;
  /** The same as `abort`, as a real `AbortSignal` (made when first read). */
  signal?: AbortSignal | undefined;
  /** For requests: extra transport headers the caller asked for (`RequestOptions.headers`). */
  headers?: Record<string, string> | undefined;
}

/** The callbacks an endpoint reads when messages arrive: normally the transport object itself. */
export type EndpointHandlers = Pick<MCPTransport, "onError" | "onNotification" | "onRequest" | "onMessage">;

/** Options of {@link JsonRpcEndpoint}. */
export interface JsonRpcEndpointOptions {
  /**
   * Delivers one message. For a request, a throw or a rejection fails that request. Returning
   * nothing (for a message handed over synchronously) saves a promise per message on hot paths.
   */
  send: (message: JsonRpcMessage, context: SendContext) => Promise<void> | void;
  /** Read on every incoming message, so callbacks set later are honoured. */
  handlers: EndpointHandlers;
  /** Default request timeout (ms). */
  defaultTimeout?: number | undefined;
  /** Create an AbortSignal per request that fires when it fails (HTTP uses it to end the exchange). */
  requestSignals?: boolean | undefined;
  /** Names the source in error messages, e.g. "stdout" or "SSE stream". */
  source?: string | undefined;
}

/** A request's send context whose `signal` is made only if someone reads it. */
class RequestSendContext implements SendContext {
  readonly requestId: RequestId;
  readonly abort: AbortHandle;
  readonly headers: Record<string, string> | undefined;
  constructor(requestId: RequestId, abort: AbortHandle, headers: Record<string, string> | undefined) {
    this.requestId = requestId;
    this.abort = abort;
    this.headers = headers;
  }
  get signal(): AbortSignal {
    return this.abort.signal;
  }
}

const PROGRESS = "notifications/progress";
const CANCELLED = "notifications/cancelled";

/**
 * A copy of `params` whose `_meta` (a new object) also holds `entries`, which win over keys already
 * there; neither `params` nor its `_meta` is changed. `undefined` params become `{ _meta: {...entries} }`.
 */
export function withMeta(params: object | undefined, entries: Record<string, unknown>): Record<string, unknown> {
  const base = (params ?? {}) as Record<string, unknown>;
  const meta = base["_meta"];
  return { ...base, _meta: { ...(typeof meta === "object" && meta !== null ? meta : {}), ...entries } };
}

/**
 * JSON-RPC routing written once for every transport: outgoing requests with ids, progress tokens
 * and cancellation; incoming responses, notifications and server→client requests.
 * It does no I/O of its own: the transport supplies `send` and feeds parsed values to `receive`.
 */
export class JsonRpcEndpoint {
  /** The shared tracker of requests in flight. */
  readonly pending: PendingRequests;
  readonly #send: JsonRpcEndpointOptions["send"];
  readonly #handlers: EndpointHandlers;
  readonly #requestSignals: boolean;
  readonly #source: string;
  readonly #incoming = new Map<RequestId, AbortController>();
  #closed = false;

  constructor(options: JsonRpcEndpointOptions) {
    this.#send = options.send;
    this.#handlers = options.handlers;
    this.#requestSignals = options.requestSignals === true;
    this.#source = options.source ?? "message";
    this.pending = new PendingRequests({
      defaultTimeout: options.defaultTimeout,
      onCancel: (requestId, reason, method) => {
        // The spec forbids cancelling initialize; everything else is told.
        if (method === "initialize" || this.#closed) return;
        this.#deliver({ jsonrpc: "2.0", method: CANCELLED, params: { requestId, reason } }, {});
      },
    });
  }

  /** Sends a request and resolves with its `result`. */
  request<T = unknown>(method: string, params?: object, options: RequestOptions = {}): Promise<T> {
    if (this.#closed) return Promise.reject(new TransportClosedError());
    const id = this.pending.nextId();
    const finalParams = options.onProgress ? withMeta(params, { progressToken: id }) : params;
    const latch = this.#requestSignals ? new AbortLatch() : undefined;
    const promise = this.pending.track<T>(
      id,
      method,
      options,
      latch ? { onSettled: (answered) => answered || latch.abort() } : undefined,
    );
    if (this.pending.has(id)) {
      const message: JsonRpcRequest =
        finalParams === undefined
          ? { jsonrpc: "2.0", id, method }
          : { jsonrpc: "2.0", id, method, params: finalParams };
      try {
        if (this.#handlers.onMessage) this.#tap(message, "out");
        const context: SendContext = latch
          ? new RequestSendContext(id, latch, options.headers)
          : { requestId: id, headers: options.headers };
        const sending = this.#send(message, context);
        if (sending) sending.catch((error: unknown) => this.pending.reject(id, error));
      } catch (error) {
        this.pending.reject(id, error);
      }
    }
    return promise;
  }

  /** Sends a notification. */
  async notify(method: string, params?: object): Promise<void> {
    if (this.#closed) throw new TransportClosedError();
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    if (this.#handlers.onMessage) this.#tap(message, "out");
    await this.#send(message, {});
  }

  /**
   * Routes one parsed value (a message or a batch). Never throws: invalid input goes to `onError`
   * as an {@link InvalidMessageError}; responses with unknown ids are ignored. `relatedId`: the
   * id of our request the value arrived under (its SSE stream), when the transport knows one;
   * server→client requests and notifications then carry it, and that request's `relatedTo`, in
   * their context.
   */
  receive(value: unknown, relatedId?: RequestId): void {
    if (this.#handlers.onMessage) this.#tap(value, "in");
    this.#route(value, relatedId);
  }

  #route(value: unknown, relatedId?: RequestId): void {
    // A client's most common message, an answer with a result, first: what classifyMessage would
    // call a response, settled without the object its classification makes.
    if (isJsonRpcSuccessResponse(value)) {
      this.pending.handleResponse(value);
      return;
    }
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case "batch":
        for (const item of classified.messages) this.#route(item, relatedId);
        return;
      case "response":
        this.#onResponse(classified.message);
        return;
      case "notification":
        this.#onNotification(classified.message, relatedId);
        return;
      case "request":
        this.#onRequest(classified.message, relatedId);
        return;
      case "invalid":
        this.reportError(new InvalidMessageError(this.#source, classified.reason));
        return;
    }
  }

  /** Shows one message to `onMessage`; a listener that throws is reported, never in the message's way. */
  #tap(message: unknown, direction: MessageDirection): void {
    try {
      this.#handlers.onMessage?.(message, direction);
    } catch (error) {
      this.reportError(toError(error));
    }
  }

  /** Passes a non-fatal problem to the transport's `onError`, guarding against a throwing callback. */
  reportError(error: Error): void {
    try {
      this.#handlers.onError?.(error);
    } catch {
      // An error reporter that throws has nowhere further to report to.
    }
  }

  /** Rejects everything in flight, aborts server→client handlers, and refuses further traffic. */
  close(error: unknown = new TransportClosedError()): void {
    this.#closed = true;
    this.pending.rejectAll(error);
    for (const controller of this.#incoming.values()) controller.abort(error);
    this.#incoming.clear();
  }

  #onResponse(response: JsonRpcResponse): void {
    if (response.id === null) {
      // An error the server could not tie to a request: nothing to settle, but worth telling.
      if ("error" in response) this.reportError(RpcError.fromError(response.error));
      return;
    }
    this.pending.handleResponse(response); // a response to an unknown id is ignored: no rejection, no error callback
  }

  /** What an incoming message learns of the request it arrived under (nothing when none). */
  #related(relatedId: RequestId | undefined): NotificationContext | undefined {
    return relatedId === undefined
      ? undefined
      : { relatedRequestId: relatedId, relatedTo: this.pending.relatedTo(relatedId) };
  }

  #onNotification(message: JsonRpcNotification, relatedId?: RequestId): void {
    if (message.method === PROGRESS && this.pending.handleProgress(message.params)) return;
    if (message.method === CANCELLED) {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const controller =
        typeof requestId === "string" || typeof requestId === "number" ? this.#incoming.get(requestId) : undefined;
      if (controller) {
        const reason = (message.params as { reason?: unknown }).reason;
        controller.abort(new Error(typeof reason === "string" ? reason : "Cancelled by server"));
        return;
      }
    }
    try {
      // The context only when there is one: the untied path (stdio, the GET stream) allocates nothing.
      if (relatedId === undefined) this.#handlers.onNotification?.(message.method, message.params);
      else this.#handlers.onNotification?.(message.method, message.params, this.#related(relatedId));
    } catch (error) {
      this.reportError(toError(error));
    }
  }

  #onRequest(message: JsonRpcRequest, relatedId?: RequestId): void {
    const handler = this.#handlers.onRequest;
    if (!handler) {
      // ping is part of the base protocol: any peer must answer it, handler or not.
      if (message.method === "ping") this.#respond({ jsonrpc: "2.0", id: message.id, result: {} });
      else this.#respondError(message.id, ErrorCodes.MethodNotFound, `Method not found: ${message.method}`);
      return;
    }
    const controller = new AbortController();
    this.#incoming.set(message.id, controller);
    let running: Promise<unknown>;
    try {
      const context: RequestContext = { signal: controller.signal, requestId: message.id, ...this.#related(relatedId) };
      running = Promise.resolve(handler(message.method, message.params, context));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (result) => {
        if (this.#finishIncoming(message.id, controller))
          this.#respond({ jsonrpc: "2.0", id: message.id, result: result ?? {} });
      },
      (error: unknown) => {
        if (!this.#finishIncoming(message.id, controller)) return;
        if (RpcError.isInstance(error)) {
          this.#respondError(message.id, error.code, error.rpcMessage, error.data);
          return;
        }
        // Errors from elsewhere (the official SDK's McpError, hand-written ones) that carry a
        // JSON-RPC code keep it, and their data: the server should learn what really went wrong.
        const wire = error as { code?: unknown; data?: unknown } | null;
        const code =
          typeof wire === "object" && wire !== null && Number.isSafeInteger(wire.code)
            ? (wire.code as number)
            : ErrorCodes.InternalError;
        const text = error instanceof Error ? error.message : String(error);
        this.#respondError(message.id, code, text, code === ErrorCodes.InternalError ? undefined : wire?.data);
      },
    );
  }

  /** Forgets a finished server→client request; false when it was cancelled (no response is owed). */
  #finishIncoming(id: RequestId, controller: AbortController): boolean {
    if (this.#incoming.get(id) === controller) this.#incoming.delete(id);
    return !controller.signal.aborted && !this.#closed;
  }

  #respondError(id: RequestId, code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.#respond({ jsonrpc: "2.0", id, error });
  }

  #respond(response: JsonRpcResponse): void {
    if (this.#closed) return;
    this.#deliver(response, {});
  }

  #deliver(message: JsonRpcMessage, context: SendContext): void {
    const report = (error: unknown): void => {
      if (!this.#closed) this.reportError(toError(error));
    };
    try {
      if (this.#handlers.onMessage) this.#tap(message, "out");
      this.#send(message, context)?.catch(report);
    } catch (error) {
      report(error);
    }
  }
}
