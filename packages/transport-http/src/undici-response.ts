import { McpError, MessageTooLargeError, NetworkError, type AbortHandle } from "@mcp/jsonrpc";
import type { Dispatcher } from "undici";
import { TextSink, TextStreamSink, type BodySink, type ExchangeRequest, type ExchangeResponse } from "./exchange.js";

// One undici answer as the transport's ExchangeResponse, and the abort handle as the signal undici takes.

const ignore = (): void => undefined;

/**
 * An abort handle as the event target undici's `signal` option takes: a real `AbortSignal` per
 * request costs microseconds a pipelined burst feels.
 */
export class HandleSignal {
  readonly #handle: AbortHandle;

  constructor(handle: AbortHandle) {
    this.#handle = handle;
  }

  get aborted(): boolean {
    return this.#handle.aborted;
  }

  get reason(): unknown {
    return this.#handle.reason;
  }

  addEventListener(_type: string, listener: () => void): void {
    this.#handle.onAbort(listener);
  }

  removeEventListener(_type: string, listener: () => void): void {
    this.#handle.offAbort(listener);
  }
}

/** One response: its body read once, as text or as a stream of text. */
export class UndiciResponse implements ExchangeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly #headers: Record<string, string | string[] | undefined>;
  readonly #body: Dispatcher.ResponseData["body"];
  readonly #request: ExchangeRequest;
  readonly #serverName: string | undefined;
  #consumed = false;
  #cancelled = false;

  constructor(data: Dispatcher.ResponseData, request: ExchangeRequest, serverName: string | undefined) {
    this.#request = request;
    this.#serverName = serverName;
    this.status = data.statusCode;
    this.statusText = (data as { statusText?: string }).statusText ?? "";
    this.#headers = data.headers;
    this.#body = data.body;
    // A body nobody reads may still fail (its connection breaks, or cancel() ends it): never an
    // unhandled 'error' event, which would crash the host process.
    data.body.on("error", ignore);
  }

  header(name: string): string | undefined {
    const value = this.#headers[name];
    return value === undefined || typeof value === "string" ? value : value.join(", ");
  }

  text(maxBytes?: number): Promise<string> {
    return this.#consume(new TextSink(this, maxBytes));
  }

  readText(onText: (text: string) => void, onEnd?: () => void): Promise<void> {
    return this.#consume(new TextStreamSink(onText, onEnd));
  }

  /** A body that broke, as the caller's error: the abort's reason, or a NetworkError (the answer had begun: the request may have run). */
  #broken(error: unknown): unknown {
    const abort = this.#request.abort;
    return abort?.aborted ? abort.reason : new NetworkError(this.#request.url.href, error, { serverName: this.#serverName, mayHaveRun: this.#request.method !== "GET" });
  }

  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    const body = this.#body;
    if (body.readableEnded || body.destroyed) return;
    // A short body of known length is read to its end so its connection can be reused; anything
    // else (an event stream, a long or unframed body) ends its connection.
    const length = Number(this.header("content-length"));
    if (length <= 64 * 1024) body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    else body.destroy();
  }

  #consume<T>(sink: BodySink<T>): Promise<T> {
    if (this.#consumed) return Promise.reject(new Error("Response body already read"));
    this.#consumed = true;
    const body = this.#body;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (error: unknown, ended: boolean, fromSink = false): void => {
        if (settled) return;
        settled = true;
        body.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
        if (error !== undefined) {
          // What the sink threw (a size limit, a caller's error) as it is; the connection's failures typed.
          reject(fromSink || McpError.isInstance(error) || !(error instanceof Error) || error.name === "AbortError" ? error : this.#broken(error));
          return;
        }
        if (!ended && !this.#cancelled) {
          reject(this.#broken(Object.assign(new Error("The response body ended early: the connection closed"), { code: "ECONNRESET" })));
          return;
        }
        try {
          resolve(sink.end());
        } catch (failure) {
          reject(failure);
        }
      };
      const onData = (chunk: Buffer): void => {
        if (settled) return;
        try {
          sink.chunk(chunk);
        } catch (error) {
          body.destroy();
          finish(error, false, true);
        }
      };
      const onEnd = (): void => finish(undefined, true);
      const onError = (error: unknown): void => finish(this.#cancelled && !MessageTooLargeError.isInstance(error) ? undefined : error, false);
      const onClose = (): void => finish(undefined, false);
      body.on("error", onError).on("close", onClose).on("end", onEnd);
      if (this.#cancelled || body.destroyed) {
        finish(undefined, false);
        return;
      }
      body.on("data", onData);
    });
  }
}
