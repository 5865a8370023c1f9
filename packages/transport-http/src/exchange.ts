import { MessageTooLargeError, type AbortHandle } from "@mcp/jsonrpc";

/**
 * The one HTTP operation the transport needs, behind a small interface with two implementations:
 * undici's `dispatch()` on a keep-alive pool on Node (`node-pool.ts`, the default there), and
 * WHATWG `fetch` elsewhere or when a caller injects one.
 */

/** One HTTP request. */
export interface ExchangeRequest {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  /** Header names in lower case; the exchange adds `host` and `content-length` itself. */
  headers: Record<string, string>;
  body?: string | undefined;
  /** Ends the exchange (before or during the body) when it aborts. */
  abort?: AbortHandle | undefined;
  /**
   * True when the request has no side effect (a GET, or a POST of a method such as `tools/list`):
   * only then may a request whose connection broke before its answer be sent again.
   */
  idempotent?: boolean | undefined;
  /**
   * Sent on connections of its own, never queued behind the requests in flight: what a request in
   * flight may be waiting for (its cancellation, our answer to the server's question) must not wait
   * behind it. Ignored where the platform manages connections (`fetch`).
   */
  sideLane?: boolean | undefined;
}

/** One HTTP response; the body is read once, as text or as a byte stream. */
export interface ExchangeResponse {
  status: number;
  statusText: string;
  /** A browser's answer to a redirect under `redirect: "manual"`: status 0, no headers, nowhere to follow. */
  opaqueRedirect?: boolean;
  /** A header of the answer; `name` in lower case. */
  header(name: string): string | undefined;
  /**
   * Reads the whole body as UTF-8 text. With `maxBytes`, a longer body is cut off (the connection
   * is released) and the read fails with `MessageTooLargeError`.
   */
  text(maxBytes?: number): Promise<string>;
  /**
   * Hands the body to `onText` piece by piece as UTF-8 text (a character split across chunks is
   * joined), synchronously as it arrives (no promise per chunk). Resolves when the body ends or
   * `cancel()` stopped it; rejects when it breaks, or with what `onText` threw (reading then
   * stops). `onEnd` runs when the body ended (not when it broke or was cancelled), before the
   * promise settles; a throw there rejects it. The body is read once.
   */
  readText(onText: (text: string) => void, onEnd?: () => void): Promise<void>;
  /** Stops reading and releases the connection (a half-read body cannot be reused). */
  cancel(): void;
}

/** Sends one request; never follows redirects (the transport decides what a redirect may carry). */
export type Exchange = (request: ExchangeRequest) => Promise<ExchangeResponse>;

/** A pool of connections that can be released on close. */
export interface ExchangePool {
  exchange: Exchange;
  destroy(): void;
}

/** The shape of WHATWG `fetch` this package needs. */
export type FetchLike = (
  input: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string | undefined;
    signal?: AbortSignal | undefined;
    redirect: "manual";
  },
) => Promise<Response>;

/** Where a body's chunks go while it is read, and what the read resolves with at its end. */
export interface BodySink<T> {
  /** One chunk, synchronously as it arrives; a throw stops the read and rejects it. */
  chunk(chunk: Uint8Array): void;
  /** The body ended (or was cancelled): the read's value; a throw rejects it. */
  end(): T;
}

/**
 * Decodes one whole chunk: one stateless decoder serves every body (as fast as `Buffer#toString`
 * on Node, and there where `Buffer` is not). Byte-order marks are kept, as `Buffer#toString` keeps them.
 */
const wholeDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
const STREAM = { stream: true } as const;

/**
 * A whole body as text: bytes counted against `maxBytes`, decoded once at the end (the chunks
 * joined first when there are several). Keeping the bytes and decoding once is cheaper than a
 * string per chunk: a large body would otherwise make many intermediate strings and a rope that
 * `JSON.parse` must flatten.
 */
export class TextSink implements BodySink<string> {
  readonly #response: Pick<ExchangeResponse, "cancel">;
  readonly #maxBytes: number | undefined;
  // Most bodies are one chunk: no array for them.
  #first: Uint8Array | undefined;
  #more: Uint8Array[] | undefined;
  #size = 0;

  constructor(response: Pick<ExchangeResponse, "cancel">, maxBytes: number | undefined) {
    this.#response = response;
    this.#maxBytes = maxBytes;
  }

  chunk(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    if (this.#maxBytes !== undefined && this.#size > this.#maxBytes) {
      this.#response.cancel();
      throw new MessageTooLargeError(this.#size, this.#maxBytes, "HTTP response body", "maxMessageBytes");
    }
    if (this.#first === undefined) this.#first = chunk;
    else (this.#more ??= [this.#first]).push(chunk);
  }

  end(): string {
    if (this.#more === undefined) return this.#first === undefined ? "" : wholeDecoder.decode(this.#first);
    const joined = new Uint8Array(this.#size);
    let at = 0;
    for (const chunk of this.#more) {
      joined.set(chunk, at);
      at += chunk.byteLength;
    }
    return wholeDecoder.decode(joined);
  }
}

/**
 * A body fed to `onText` as decoded text. Its chunks nearly always end in an ASCII byte (an event
 * stream's end with a newline), so each is decoded whole; a streaming decoder, which joins a
 * character split across chunks, is made from the first chunk that ends in any other byte.
 */
export class TextStreamSink implements BodySink<void> {
  readonly #onText: (text: string) => void;
  readonly #onEnd: (() => void) | undefined;
  #stream: InstanceType<typeof TextDecoder> | undefined;

  constructor(onText: (text: string) => void, onEnd?: () => void) {
    this.#onText = onText;
    this.#onEnd = onEnd;
  }

  chunk(chunk: Uint8Array): void {
    if (this.#stream === undefined) {
      if (chunk.length === 0 || chunk[chunk.length - 1]! < 0x80) {
        this.#onText(wholeDecoder.decode(chunk));
        return;
      }
      this.#stream = new TextDecoder("utf-8", { ignoreBOM: true });
    }
    this.#onText(this.#stream.decode(chunk, STREAM));
  }

  end(): void {
    const rest = this.#stream?.decode() ?? "";
    if (rest !== "") this.#onText(rest);
    this.#onEnd?.();
  }
}

/** An exchange over `fetch`. */
export function fetchPool(fetchImpl: FetchLike): ExchangePool {
  return {
    exchange: async (request) => {
      const response = await fetchImpl(request.url.href, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.abort?.signal,
        redirect: "manual",
      });
      // Once a read is under way the body is locked to its reader: cancel through the reader.
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      let stopped = false;
      let consumed = false;
      const cancel = (): void => {
        stopped = true;
        void (reader ?? response.body)?.cancel().catch(() => undefined);
      };
      const consume = async <T>(sink: BodySink<T>): Promise<T> => {
        if (consumed) throw new Error("Response body already read");
        consumed = true;
        if (!stopped && response.body !== null) {
          reader = response.body.getReader();
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done || stopped) break;
              sink.chunk(value);
            }
          } catch (error) {
            if (!stopped || MessageTooLargeError.isInstance(error)) {
              cancel();
              throw error;
            }
          }
        }
        return sink.end();
      };
      const self: ExchangeResponse = {
        status: response.status,
        statusText: response.statusText,
        opaqueRedirect: response.type === "opaqueredirect",
        header: (name) => response.headers.get(name) ?? undefined,
        text: (maxBytes) => consume(new TextSink(self, maxBytes)),
        readText: (onText, onEnd) => consume(new TextStreamSink(onText, onEnd)),
        cancel,
      };
      return self;
    },
    destroy: () => undefined,
  };
}
