import { MessageTooLargeError, toError, type AbortHandle } from "@mcp/jsonrpc";
import type * as NodeHttp from "node:http";
import type * as NodeHttps from "node:https";

/**
 * The one HTTP operation the transport needs, behind a small interface with two implementations:
 * keep-alive `node:http`/`node:https` on Node (the fast default), and WHATWG `fetch` elsewhere or
 * when a caller injects one.
 */

/** One HTTP request. */
export interface ExchangeRequest {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  /** This request's own object: the node exchange adds `content-length` to it. */
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
class Utf8Chunks implements Utf8Decoder {
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
interface BodySink<T> {
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
class TextSink implements BodySink<string> {
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
class TextStreamSink implements BodySink<void> {
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
function chunkSink(onChunk: (chunk: Uint8Array) => void): BodySink<void> {
  return { chunk: onChunk, end: noValue };
}

/** Decodes one whole chunk outside node (no `Buffer`): one stateless decoder serves every body. */
const wholeDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
const decodeWhole = (chunk: Uint8Array): string => wholeDecoder.decode(chunk);
const bufferText = (chunk: Uint8Array): string => (chunk as Buffer).toString("utf8");
const joinBuffers = (chunks: Uint8Array[], size: number): Uint8Array => Buffer.concat(chunks, size);
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

/** The node:http modules, loaded once on first use so the package still imports where only fetch exists. */
interface NodeModules {
  http: typeof NodeHttp;
  https: typeof NodeHttps;
  urlToHttpOptions: (url: URL) => NodeHttp.RequestOptions;
}

/** Starts one exchange (used again for the one retry on a fresh connection). */
type Start = (request: ExchangeRequest, resolve: (response: ExchangeResponse) => void, reject: (error: unknown) => void) => void;

/** The exchange state on its request and response objects, so listeners can be shared functions. */
const STATE = Symbol("mcp.exchange");
type Carrier = { [STATE]?: NodeExchange };

// Shared listeners: node calls them with `this` bound to the emitter, which carries the exchange.
// A pipelined burst then allocates no closures per request for them.
function onRequestError(this: Carrier, error: NodeJS.ErrnoException): void {
  this[STATE]?.requestFailed(error);
}
function onResponse(this: Carrier, res: NodeHttp.IncomingMessage): void {
  this[STATE]?.responded(res);
}
function onResponseError(this: Carrier, error: Error): void {
  this[STATE]?.bodyFailed(error);
}
function onResponseEnd(this: Carrier): void {
  this[STATE]?.bodyEnded();
}
function onResponseClose(this: Carrier): void {
  this[STATE]?.bodyClosed();
}
function onResponseData(this: Carrier, chunk: Buffer): void {
  this[STATE]?.data(chunk);
}

/**
 * One request/response on a keep-alive agent, and the response object handed to the transport.
 * Its abort is watched here rather than handed to node:http: node keeps its listener after the
 * response ends, and an abort then destroys a keep-alive socket that may already serve another
 * request, with an 'error' event nobody listens to. Ours is removed as soon as the exchange is
 * over, so an abort after that is a no-op.
 */
class NodeExchange implements ExchangeResponse {
  status = 0;
  statusText = "";
  readonly #request: ExchangeRequest;
  readonly #resolve: (response: ExchangeResponse) => void;
  readonly #reject: (error: unknown) => void;
  /** Starts the same request again on a fresh connection; set while that is still allowed. */
  #retry: Start | undefined;
  #req: NodeHttp.ClientRequest;
  #res: NodeHttp.IncomingMessage | undefined = undefined;
  #over = false;
  #consumed = false;
  #stopped = false;
  #ended = false;
  /** True while the sink takes a chunk: a cancel() from inside it must not settle the read before a throw. */
  #inChunk = false;
  #failure: unknown = undefined;
  #sink: BodySink<unknown> | undefined = undefined;
  #readDone: ((value: unknown) => void) | undefined = undefined;
  #readFailed: ((error: unknown) => void) | undefined = undefined;
  readonly #onAbort = (): void => {
    if (!this.#over) this.#req.destroy(toError(this.#request.abort!.reason));
  };

  constructor(modules: NodeModules, agent: NodeHttp.Agent, target: NodeHttp.RequestOptions, request: ExchangeRequest, resolve: (response: ExchangeResponse) => void, reject: (error: unknown) => void, retry: Start | undefined) {
    this.#request = request;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#retry = retry;
    // The headers object is this request's own (the request path builds one per request).
    const headers = request.headers;
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
    const secure = request.url.protocol === "https:";
    const req = (secure ? modules.https : modules.http).request({ ...target, method: request.method, headers, agent });
    this.#req = req;
    (req as Carrier)[STATE] = this;
    request.abort?.onAbort(this.#onAbort);
    // Every error has a listener: before the response it rejects; after, it reaches the body's reader.
    req.on("error", onRequestError);
    req.on("response", onResponse);
    req.end(request.body);
  }

  #finish(): void {
    if (this.#over) return;
    this.#over = true;
    this.#request.abort?.offAbort(this.#onAbort);
  }

  requestFailed(error: NodeJS.ErrnoException): void {
    this.#finish();
    const retry = this.#retry;
    this.#retry = undefined;
    // A kept-alive socket the server closed while it sat idle fails at once, before the request
    // reached the server: send it again, once, on a new connection.
    // If that fails too (say, refused: the server died handling the request), the first error is
    // the one that tells what happened, and it does not claim the request never reached the server.
    if (retry && this.#res === undefined && this.#req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE") && !this.#request.abort?.aborted) {
      const reject = this.#reject;
      retry(this.#request, this.#resolve, () => reject(error));
    } else if (this.#res === undefined) this.#reject(error);
    else this.bodyFailed(error);
  }

  responded(res: NodeHttp.IncomingMessage): void {
    this.#res = res;
    this.#retry = undefined;
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? "";
    (res as Carrier)[STATE] = this;
    res.on("error", onResponseError); // surfaced to whoever reads the body; never unhandled
    res.on("end", onResponseEnd);
    res.on("close", onResponseClose);
    this.#resolve(this);
  }

  header(name: string): string | undefined {
    const value = this.#res?.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  text(maxBytes?: number): Promise<string> {
    return this.#consume(new TextSink(this, maxBytes, bufferText, joinBuffers));
  }

  readText(onText: (text: string) => void): Promise<void> {
    return this.#consume(new TextStreamSink(onText, new Utf8Chunks(bufferText)));
  }

  read(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    return this.#consume(chunkSink(onChunk));
  }

  /** Reads the body into `sink`: one promise per body, whatever it is read as. */
  #consume<T>(sink: BodySink<T>): Promise<T> {
    if (this.#consumed) return Promise.reject(new Error("Response body already read"));
    this.#consumed = true;
    if (this.#stopped || this.#ended) {
      try {
        return Promise.resolve(sink.end());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.#sink = sink;
      this.#readDone = resolve as (value: unknown) => void;
      this.#readFailed = reject;
      this.#res!.on("data", onResponseData);
    });
  }

  cancel(): void {
    this.#stopped = true;
    this.#finish();
    const res = this.#res;
    if (res === undefined) return;
    if (!res.complete) res.destroy();
    else res.resume();
    if (!this.#inChunk) this.#settleRead(undefined);
  }

  data(chunk: Buffer): void {
    if (this.#stopped) return;
    this.#inChunk = true;
    try {
      this.#sink!.chunk(chunk);
    } catch (error) {
      this.#failure = error;
      this.cancel();
      this.#inChunk = false;
      this.#settleRead(error);
      return;
    }
    this.#inChunk = false;
    // A cancel() from inside the callback settles the read now, as done.
    if (this.#stopped) this.#settleRead(undefined);
  }

  bodyFailed(error: unknown): void {
    this.#failure ??= error;
  }

  bodyEnded(): void {
    this.#ended = true;
    this.#finish();
    this.#settleRead(undefined);
  }

  bodyClosed(): void {
    this.#finish();
    if (this.#res!.complete || this.#stopped) this.#settleRead(undefined);
    else this.#settleRead(this.#failure ?? Object.assign(new Error("The response body ended early: the connection closed"), { code: "ECONNRESET" }));
  }

  #settleRead(error: unknown): void {
    const done = this.#readDone;
    const fail = this.#readFailed;
    const sink = this.#sink;
    this.#readDone = this.#readFailed = this.#sink = undefined;
    if (error !== undefined) {
      fail?.(error);
      return;
    }
    if (done === undefined) return;
    let value: unknown;
    try {
      value = sink!.end();
    } catch (failure) {
      fail!(failure);
      return;
    }
    done(value);
  }
}

/** An exchange over keep-alive `node:http` / `node:https` agents owned by one transport. */
export async function nodePool(): Promise<ExchangePool> {
  const modules: NodeModules = {
    http: await import("node:http"),
    https: await import("node:https"),
    urlToHttpOptions: (await import("node:url")).urlToHttpOptions,
  };
  // node:http turns a URL into options on every request; the transport sends to one or two URLs.
  const targets = new WeakMap<URL, NodeHttp.RequestOptions>();
  const targetOf = (url: URL): NodeHttp.RequestOptions => {
    let target = targets.get(url);
    if (target === undefined) {
      // Only what node:http reads: a small options object is copied faster on every request.
      const { protocol, hostname, port, path, auth } = modules.urlToHttpOptions(url);
      target = auth === undefined ? { protocol, hostname, port, path } : { protocol, hostname, port, path, auth };
      targets.set(url, target);
    }
    return target;
  };
  const agents = {
    "http:": new modules.http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 }),
    "https:": new modules.https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 }),
  };
  const launch = (request: ExchangeRequest, resolve: (response: ExchangeResponse) => void, reject: (error: unknown) => void, retry: Start | undefined): void => {
    new NodeExchange(modules, request.url.protocol === "https:" ? agents["https:"] : agents["http:"], targetOf(request.url), request, resolve, reject, retry);
  };
  const again: Start = (request, resolve, reject) => launch(request, resolve, reject, undefined);

  const exchange: Exchange = (request) =>
    new Promise((resolve, reject) => {
      if (request.url.protocol !== "http:" && request.url.protocol !== "https:") {
        reject(new TypeError(`Unsupported URL protocol: ${request.url.protocol}`));
        return;
      }
      if (request.abort?.aborted) {
        reject(request.abort.reason);
        return;
      }
      launch(request, resolve, reject, again);
    });
  return {
    exchange,
    destroy: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
