import { McpError, MessageTooLargeError, NetworkError } from "@mcp/jsonrpc";
import { util, type Dispatcher } from "undici";
import { TextSink, TextStreamSink, type BodySink, type ExchangeRequest, type ExchangeResponse } from "./exchange.js";

// One exchange on undici's `dispatch()`, with a handler of our own: the answer's head resolves the
// exchange, and its body goes straight to whoever reads it (kept until then). `request()` would
// add a stream (a Readable) per answer, its events and a promise; a pipelined burst feels each.
// The handler speaks undici's core callbacks, not its controller API: in undici 7 that API wraps
// these same callbacks and drops `onRequestSent`, which `Attempt.sent` (and so `mayHaveRun`) needs
// (test/undici-api.test.ts fails when that changes).

/** What became of one attempt at a request, as undici's handler callbacks tell it. */
export interface Attempt {
  /** The whole request was handed to the connection. */
  sent: boolean;
  /** A byte of the answer arrived (part of a status line is enough). */
  started: boolean;
}

/** Body bytes kept for a reader that has not come yet; past this undici stops reading the socket until one does. */
const KEEP_BYTES = 64 * 1024;
/** A body up to this long (by its `content-length`) is read to its end on `cancel()`, so its connection can be reused. */
const DRAIN_BYTES = 64 * 1024;

const STOPPED = "The response body was not read to its end";

/**
 * One request as undici's handler (its callbacks: `onConnect`, `onHeaders`, …), and its answer as
 * the transport's {@link ExchangeResponse}. `settle` hears the answer's head, or the failure that
 * came instead (a broken connection, an abort); errors after the head reach the body's reader.
 */
export class UndiciExchange implements ExchangeResponse, Dispatcher.DispatchHandler {
  status = 0;
  statusText = "";
  readonly #request: ExchangeRequest;
  readonly #attempt: Attempt;
  readonly #serverName: string | undefined;
  #settle: ((error: unknown, response?: UndiciExchange) => void) | undefined;
  /** undici's abort for this request (from `onConnect`). */
  #abort: ((reason?: Error) => void) | undefined;
  #rawHeaders: Buffer[] | string[] | undefined;
  #headers: Record<string, string | string[] | undefined> | undefined;
  /** Resumes reading the socket after `onData` said to stop. */
  #resume: (() => void) | undefined;
  #paused = false;
  /** The body as it came, until a reader takes it. */
  #kept: Buffer[] = [];
  #keptBytes = 0;
  /** How the body ended: undefined while it runs, else true (whole), or the error that broke it. */
  #ended: true | { error: unknown } | undefined;
  #reader: { sink: BodySink<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void } | undefined;
  #consumed = false;
  #cancelled = false;
  /** Bytes read to drain a cancelled body, when it is short enough to be drained. */
  #draining: number | undefined;

  constructor(
    request: ExchangeRequest,
    attempt: Attempt,
    serverName: string | undefined,
    settle: (error: unknown, response?: UndiciExchange) => void,
  ) {
    this.#request = request;
    this.#attempt = attempt;
    this.#serverName = serverName;
    this.#settle = settle;
  }

  // ─── undici's handler ───

  onConnect(abort: (reason?: Error) => void): void {
    this.#abort = abort;
    const handle = this.#request.abort;
    if (handle === undefined) return;
    if (handle.aborted) abort(handle.reason as Error);
    else handle.onAbort(this.#onCallerAbort);
  }

  onRequestSent(): void {
    this.#attempt.sent = true;
  }

  onResponseStarted(): void {
    this.#attempt.started = true;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[], resume: () => void, statusText: string): boolean {
    // undici drops 102 and 103 itself after this; they are not the answer.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.statusText = statusText ?? "";
    this.#rawHeaders = rawHeaders;
    this.#resume = resume;
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(undefined, this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#draining !== undefined) {
      this.#draining += chunk.length;
      if (this.#draining > DRAIN_BYTES) this.#stop();
      return true;
    }
    const reader = this.#reader;
    if (reader === undefined) {
      this.#kept.push(chunk);
      this.#keptBytes += chunk.length;
      if (this.#keptBytes < KEEP_BYTES) return true;
      this.#paused = true;
      return false;
    }
    try {
      reader.sink.chunk(chunk);
    } catch (error) {
      this.#finish(error, false, true);
      this.#stop();
    }
    return true;
  }

  onComplete(): void {
    this.#done(true);
  }

  onError(error: Error): void {
    const settle = this.#settle;
    if (settle !== undefined) {
      this.#settle = undefined;
      this.#forgetCaller();
      settle(error);
      return;
    }
    this.#done({ error });
  }

  // ─── the answer ───

  header(name: string): string | undefined {
    this.#headers ??= this.#rawHeaders === undefined ? {} : util.parseHeaders(this.#rawHeaders);
    const value = this.#headers[name];
    return value === undefined || typeof value === "string" ? value : value.join(", ");
  }

  text(maxBytes?: number): Promise<string> {
    return this.#consume(new TextSink(this, maxBytes));
  }

  readText(onText: (text: string) => void, onEnd?: () => void): Promise<void> {
    return this.#consume(new TextStreamSink(onText, onEnd));
  }

  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#kept = [];
    this.#keptBytes = 0;
    // After what the caller is doing now: a sink that cancels and then throws (a size limit) has
    // its own error heard first. Then the read under way, if any, resolves as cancelled.
    queueMicrotask(() => {
      this.#finish(undefined, false);
      if (this.#ended !== undefined) return;
      // A short body of known length is read to its end so its connection can be reused; anything
      // else (an event stream, a long or unframed body) ends its connection.
      const length = Number(this.header("content-length"));
      if (length <= DRAIN_BYTES) {
        this.#draining = 0;
        this.#unpause();
      } else this.#stop();
    });
  }

  #consume<T>(sink: BodySink<T>): Promise<T> {
    if (this.#consumed) return Promise.reject(new Error("Response body already read"));
    this.#consumed = true;
    return new Promise<T>((resolve, reject) => {
      this.#reader = { sink, resolve: resolve as (value: unknown) => void, reject };
      if (this.#cancelled) {
        this.#finish(undefined, false);
        return;
      }
      const kept = this.#kept;
      this.#kept = [];
      this.#keptBytes = 0;
      for (const chunk of kept) {
        try {
          sink.chunk(chunk);
        } catch (error) {
          this.#finish(error, false, true);
          this.#stop();
          return;
        }
      }
      if (this.#ended === true) this.#finish(undefined, true);
      else if (this.#ended !== undefined) this.#finish(this.#ended.error, false);
      else this.#unpause();
    });
  }

  /** The body ended (`true`) or broke: the reader, if any, hears it; nothing is kept for the caller's abort. */
  #done(how: true | { error: unknown }): void {
    if (this.#ended !== undefined) return;
    this.#ended = how;
    this.#forgetCaller();
    if (how === true) this.#finish(undefined, true);
    // After cancel() a break is moot; a size limit is still news.
    else this.#finish(this.#cancelled && !MessageTooLargeError.isInstance(how.error) ? undefined : how.error, false);
  }

  /**
   * Settles the reader: with what the sink throws, the error a break became, an early end, or the
   * sink's value. `fromSink`: `error` is the sink's own (a size limit, a caller's error), kept as it is.
   */
  #finish(error: unknown, ended: boolean, fromSink = false): void {
    const reader = this.#reader;
    if (reader === undefined) return;
    this.#reader = undefined;
    if (error !== undefined) {
      reader.reject(
        fromSink || McpError.isInstance(error) || !(error instanceof Error) || error.name === "AbortError"
          ? error
          : this.#broken(error),
      );
      return;
    }
    if (!ended && !this.#cancelled) {
      reader.reject(
        this.#broken(
          Object.assign(new Error("The response body ended early: the connection closed"), { code: "ECONNRESET" }),
        ),
      );
      return;
    }
    try {
      reader.resolve(reader.sink.end());
    } catch (failure) {
      reader.reject(failure);
    }
  }

  /** A body that broke, as the caller's error: the abort's reason, or a NetworkError (the answer had begun: the request may have run). */
  #broken(error: unknown): unknown {
    const abort = this.#request.abort;
    return abort?.aborted
      ? abort.reason
      : new NetworkError(this.#request.url.href, error, {
          serverName: this.#serverName,
          mayHaveRun: this.#request.method !== "GET",
        });
  }

  /** Ends the exchange (and its connection) before its body ended. */
  #stop(): void {
    if (this.#ended !== undefined) return;
    this.#abort?.(Object.assign(new Error(STOPPED), { name: "AbortError" }));
  }

  #unpause(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#resume?.();
  }

  readonly #onCallerAbort = (reason: unknown): void => {
    this.#abort?.(reason instanceof Error ? reason : Object.assign(new Error(String(reason)), { name: "AbortError" }));
  };

  #forgetCaller(): void {
    this.#request.abort?.offAbort(this.#onCallerAbort);
  }
}
