import { MessageTooLargeError, type AbortHandle } from "@mcp/jsonrpc";

/**
 * The one HTTP operation the transport needs, behind a small interface with two implementations:
 * the transport's own keep-alive HTTP/1.1 client on Node (`wire.ts`, the fast default), and
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
}

/** One HTTP response; the body is read once, as text or as a byte stream. */
export interface ExchangeResponse {
  status: number;
  statusText: string;
  /** A header of the answer; `name` in lower case. */
  header(name: string): string | undefined;
  /**
   * Reads the whole body as UTF-8 text. With `maxBytes`, a longer body is cut off (the connection
   * is released) and the read fails with `MessageTooLargeError`.
   */
  text(maxBytes?: number): Promise<string>;
  /**
   * Hands the body to `onChunk` piece by piece, synchronously as it arrives (no promise per
   * chunk). Resolves when the body ends or `cancel()` stopped it; rejects when it breaks, or with
   * what `onChunk` threw (reading then stops). The body is read once.
   */
  read(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  /** {@link ExchangeResponse.read}, decoded as UTF-8 (a character split across chunks is joined). */
  readText(onText: (text: string) => void): Promise<void>;
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
export type FetchLike = (input: string, init: { method: string; headers: Record<string, string>; body?: string | undefined; signal?: AbortSignal | undefined; redirect: "manual" }) => Promise<Response>;

/** Decodes UTF-8 chunk by chunk. */
interface Utf8Decoder {
  write(chunk: Uint8Array): string;
  end(): string;
}

const STREAM = { stream: true } as const;

/** True when `chunk` does not end inside a UTF-8 character (stray bytes count as ended). */
function endsOnCharBoundary(chunk: Uint8Array): boolean {
  const last = chunk.length - 1;
  if (last < 0 || chunk[last]! < 0x80) return true;
  for (let i = last; i >= 0 && i > last - 4; i--) {
    const byte = chunk[i]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return last - i + 1 >= needed;
  }
  return false;
}

/**
 * A body's chunks nearly always end on a character boundary, so each is decoded whole with
 * `whole`; a streaming decoder is made only from the first chunk that ends inside a character.
 * Byte-order marks are kept, as `Buffer#toString` keeps them.
 */
export class Utf8Chunks implements Utf8Decoder {
  readonly #whole: (chunk: Uint8Array) => string;
  #stream: InstanceType<typeof TextDecoder> | undefined = undefined;

  constructor(whole: (chunk: Uint8Array) => string) {
    this.#whole = whole;
  }

  write(chunk: Uint8Array): string {
    if (this.#stream === undefined) {
      if (endsOnCharBoundary(chunk)) return this.#whole(chunk);
      this.#stream = new TextDecoder("utf-8", { ignoreBOM: true });
    }
    return this.#stream.decode(chunk, STREAM);
  }

  end(): string {
    return this.#stream === undefined ? "" : this.#stream.decode();
  }
}

/** Where a body's chunks go while it is read, and what the read resolves with at its end. */
export interface BodySink<T> {
  /** One chunk, synchronously as it arrives; a throw stops the read and rejects it. */
  chunk(chunk: Uint8Array): void;
  /** The body ended (or was cancelled): the read's value; a throw rejects it. */
  end(): T;
}

/**
 * A whole body as text: bytes counted against `maxBytes`, decoded once at the end with `whole`
 * (the chunks joined first when there are several). Keeping the bytes and decoding once is
 * cheaper than a string per chunk: a 5 MB body would otherwise make ~80 intermediate strings and a
 * rope that `JSON.parse` must flatten, and measured slower per body here.
 */
export class TextSink implements BodySink<string> {
  readonly #response: Pick<ExchangeResponse, "cancel">;
  readonly #maxBytes: number | undefined;
  readonly #whole: (chunk: Uint8Array) => string;
  readonly #join: (chunks: Uint8Array[], size: number) => Uint8Array;
  // Most bodies are one chunk: no array for them.
  #first: Uint8Array | undefined = undefined;
  #more: Uint8Array[] | undefined = undefined;
  #size = 0;

  constructor(response: Pick<ExchangeResponse, "cancel">, maxBytes: number | undefined, whole: (chunk: Uint8Array) => string, join: (chunks: Uint8Array[], size: number) => Uint8Array) {
    this.#response = response;
    this.#maxBytes = maxBytes;
    this.#whole = whole;
    this.#join = join;
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
    if (this.#first === undefined) return "";
    return this.#whole(this.#more === undefined ? this.#first : this.#join(this.#more, this.#size));
  }
}

/** A body fed to `onText` as decoded text, a character split across chunks joined. */
export class TextStreamSink implements BodySink<void> {
  readonly #onText: (text: string) => void;
  readonly #decoder: Utf8Decoder;

  constructor(onText: (text: string) => void, decoder: Utf8Decoder) {
    this.#onText = onText;
    this.#decoder = decoder;
  }

  chunk(chunk: Uint8Array): void {
    this.#onText(this.#decoder.write(chunk));
  }

  end(): void {
    const rest = this.#decoder.end();
    if (rest !== "") this.#onText(rest);
  }
}

const noValue = (): void => undefined;

/** A sink over a plain chunk callback. */
export function chunkSink(onChunk: (chunk: Uint8Array) => void): BodySink<void> {
  return { chunk: onChunk, end: noValue };
}

/** Decodes one whole chunk outside node (no `Buffer`): one stateless decoder serves every body. */
const wholeDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
const decodeWhole = (chunk: Uint8Array): string => wholeDecoder.decode(chunk);
export const bufferText = (chunk: Uint8Array): string => (chunk as Buffer).toString("utf8");
export const joinBuffers = (chunks: Uint8Array[], size: number): Uint8Array => Buffer.concat(chunks, size);
function joinBytes(chunks: Uint8Array[], size: number): Uint8Array {
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
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
        header: (name) => response.headers.get(name) ?? undefined,
        text: (maxBytes) => consume(new TextSink(self, maxBytes, decodeWhole, joinBytes)),
        read: (onChunk) => consume(chunkSink(onChunk)),
        readText: (onText) => consume(new TextStreamSink(onText, new Utf8Chunks(decodeWhole))),
        cancel,
      };
      return self;
    },
    destroy: () => undefined,
  };
}
