// `EndpointTransport`: the JSON-RPC peer every transport repeats (ids, pending requests, routing,
// cancellation, the `MCPTransport` callbacks, closing once), so a transport of yours writes only how
// a message leaves (`send`) and hands what arrives to `receive`; and `createLinkedPair()`, two such
// peers joined in memory for in-process client↔server tests.
import { JsonRpcEndpoint, type SendContext } from "./endpoint.js";
import { ParseError, TransportClosedError } from "./errors.js";
import type {
  JsonRpcMessage,
  MCPTransport,
  MessageDirection,
  NotificationContext,
  RequestContext,
  RequestOptions,
} from "./types.js";

/** Options of an {@link EndpointTransport}. */
export interface EndpointTransportOptions {
  /** Default request timeout (ms); `Infinity` for none. Default 30 s. */
  timeout?: number | undefined;
  /** Names the source in error messages (`"WebSocket"`); default `"message"`. */
  source?: string | undefined;
  /**
   * Give each request's `send` an abort handle (`SendContext.abort` / `signal`) that fires when the
   * request ends without its answer (timeout, caller abort, close), for a transport that runs one
   * exchange per request and must end it (HTTP does). Default false: nothing is made per request.
   */
  requestSignals?: boolean | undefined;
}

/**
 * Base of a transport: extend it, implement `send` (one message out), `connect` if the transport
 * opens something, and call `receive` (a parsed message), `receiveText` (JSON text) and `closed`
 * (the connection ended) from your I/O. Requests, notifications, timeouts, `AbortSignal`s,
 * progress, `notifications/cancelled`, the peer's requests (`onRequest`) and notifications, and
 * rejecting what is in flight on close are done here. The stack's own transports (stdio, HTTP)
 * extend it too: a transport with a lifecycle of its own overrides `connected` (requests and
 * notifications are refused, with {@link closedReason}, while it is false) and `close()`, and may
 * reach the {@link endpoint} underneath (to settle a request itself, or close the endpoint before
 * its `onClose` is due).
 */
export abstract class EndpointTransport implements MCPTransport {
  onClose?: (() => void) | undefined;
  onError?: ((error: Error) => void) | undefined;
  onNotification?: ((method: string, params: unknown, context?: NotificationContext) => void) | undefined;
  onRequest?: ((method: string, params: unknown, context: RequestContext) => Promise<unknown>) | undefined;
  onMessage?: ((message: unknown, direction: MessageDirection) => void) | undefined;
  readonly #endpoint: JsonRpcEndpoint;
  readonly #source: string;
  #open = true;

  constructor(options: EndpointTransportOptions = {}) {
    this.#source = options.source ?? "message";
    this.#endpoint = new JsonRpcEndpoint({
      send: (message, context) => this.send(message, context),
      handlers: this,
      defaultTimeout: options.timeout,
      requestSignals: options.requestSignals,
      source: this.#source,
    });
  }

  /** The JSON-RPC peer underneath (its `pending` requests, `receive` with a related id, `close`). */
  protected get endpoint(): JsonRpcEndpoint {
    return this.#endpoint;
  }

  /** Delivers one message to the peer. A throw or a rejection fails the request it carried. */
  protected abstract send(message: JsonRpcMessage, context: SendContext): Promise<void> | void;

  /** True until {@link closed} (or `close()`) ran. A subclass with a connect step may narrow it. */
  get connected(): boolean {
    return this.#open;
  }

  /** Requests awaiting their answer. */
  get pendingRequests(): number {
    return this.#endpoint.pending.size;
  }

  /** Sends a request and resolves with its `result`; refused with {@link closedReason} while not `connected`. */
  request<T = unknown>(method: string, params?: object, options?: RequestOptions): Promise<T> {
    if (!this.connected) return Promise.reject(this.closedReason());
    return this.#endpoint.request<T>(method, params, options);
  }

  /** Sends a notification; refused with {@link closedReason} while not `connected`. */
  notify(method: string, params?: object): Promise<void> {
    if (!this.connected) return Promise.reject(this.closedReason());
    return this.#endpoint.notify(method, params);
  }

  /** What a request or notification is refused with while not `connected`; default a fresh `TransportClosedError`. */
  protected closedReason(): Error {
    return new TransportClosedError();
  }

  /** Hands the endpoint one parsed value from the peer (a message or a batch); never throws. */
  protected receive(value: unknown): void {
    this.#endpoint.receive(value);
  }

  /** Parses JSON text from the peer and hands it on; text that is not JSON goes to `onError` as a `ParseError`. */
  protected receiveText(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#endpoint.reportError(new ParseError(this.#source, text, { cause: error }));
      return;
    }
    this.#endpoint.receive(value);
  }

  /** Passes a non-fatal problem to `onError`. */
  protected reportError(error: Error): void {
    this.#endpoint.reportError(error);
  }

  /**
   * The connection ended: everything in flight is rejected with `error` (default a
   * `TransportClosedError`), further calls are refused, and `onClose` runs, once.
   */
  protected closed(error?: unknown): void {
    if (!this.#open) return;
    this.#open = false;
    this.#endpoint.close(error ?? new TransportClosedError());
    try {
      this.onClose?.();
    } catch (callbackError) {
      this.#endpoint.reportError(callbackError instanceof Error ? callbackError : new Error(String(callbackError)));
    }
  }

  /** Ends the connection. The default marks it closed; override to close your socket too (then call `closed()`). */
  close(): Promise<void> {
    this.closed();
    return Promise.resolve();
  }
}

/** One end of {@link createLinkedPair}. */
class LinkedTransport extends EndpointTransport {
  peer: LinkedTransport | undefined;

  protected send(message: JsonRpcMessage): void {
    const peer = this.peer;
    if (!peer?.connected) throw new TransportClosedError({ detail: "the other end of the linked pair is closed" });
    // A copy, delivered on a later microtask: the two ends share no object and no stack frame, as over a wire.
    const copy: unknown = JSON.parse(JSON.stringify(message));
    queueMicrotask(() => peer.deliver(copy));
  }

  deliver(value: unknown): void {
    if (this.connected) this.receive(value);
  }

  override close(): Promise<void> {
    this.closed();
    const peer = this.peer;
    this.peer = undefined;
    if (peer) queueMicrotask(() => void peer.close());
    return Promise.resolve();
  }
}

/**
 * Two transports joined in memory: what one sends, the other receives (a JSON copy, on a later
 * microtask). For in-process tests: give one end to `connectToServer(…, { transport })` and answer
 * on the other with `onRequest`. Closing either end closes both.
 */
export function createLinkedPair(options: EndpointTransportOptions = {}): [MCPTransport, MCPTransport] {
  const a = new LinkedTransport({ source: "linked pair", ...options });
  const b = new LinkedTransport({ source: "linked pair", ...options });
  a.peer = b;
  b.peer = a;
  return [a, b];
}
