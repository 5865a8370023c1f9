import { bodyChunks, MessageTooLargeError, readBoundedText, toError } from "@mcp/jsonrpc";
import { abortReason } from "./defaults.js";
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
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** One HTTP response; the body is read once, as text or as a byte stream. */
export interface ExchangeResponse {
  status: number;
  statusText: string;
  header(name: string): string | undefined;
  /**
   * Reads the whole body as UTF-8 text. With `maxBytes`, a longer body is cut off (the connection
   * is released) and the read fails with `MessageTooLargeError`.
   */
  text(maxBytes?: number): Promise<string>;
  /** The body as it arrives. */
  chunks(): AsyncIterableIterator<Uint8Array>;
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

function readText(chunks: AsyncIterator<Uint8Array>, maxBytes: number | undefined, stop: () => void): Promise<string> {
  return readBoundedText(chunks, maxBytes, { source: "HTTP response body", option: "maxMessageBytes", stop });
}

/** An exchange over `fetch`. */
export function fetchPool(fetchImpl: FetchLike): ExchangePool {
  return {
    exchange: async (request) => {
      const response = await fetchImpl(request.url.href, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
        redirect: "manual",
      });
      // Once a read is under way the body is locked to its reader: cancel through the reader.
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      return {
        status: response.status,
        statusText: response.statusText,
        header: (name) => response.headers.get(name) ?? undefined,
        text: (maxBytes) => (maxBytes === undefined ? response.text() : readText(chunks(), maxBytes, cancel)),
        chunks: () => chunks(),
        cancel: () => cancel(),
      };
      function cancel(): void {
        void (reader ?? response.body)?.cancel().catch(() => undefined);
      }
      function chunks(): AsyncIterableIterator<Uint8Array> {
        return bodyChunks(response.body, (r) => (reader = r));
      }
    },
    destroy: () => undefined,
  };
}


/** An exchange over keep-alive `node:http` / `node:https` agents owned by one transport. */
export async function nodePool(): Promise<ExchangePool> {
  // Loaded lazily so the package still imports where only fetch exists.
  const http: typeof NodeHttp = await import("node:http");
  const https: typeof NodeHttps = await import("node:https");
  const { StringDecoder } = await import("node:string_decoder");
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 }),
  };

  /** One attempt on the wire. `retry` is set when a reused keep-alive socket may be retried once. */
  const attempt = (request: ExchangeRequest, resolve: (response: ExchangeResponse) => void, reject: (error: unknown) => void, retry: (() => void) | undefined): void => {
    const { url, signal } = request;
    const secure = url.protocol === "https:";
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
    // The signal is watched here rather than handed to node:http: node keeps its listener after
    // the response ends, and an abort then destroys a keep-alive socket that may already serve
    // another request, with an 'error' event nobody listens to. Ours is removed as soon as the
    // exchange is over, so an abort after that is a no-op.
    const req = (secure ? https : http).request(url, { method: request.method, headers, agent: secure ? agents["https:"] : agents["http:"] });
    let over = false;
    let responded = false;
    const onAbort = (): void => {
      if (!over) req.destroy(toError(abortReason(signal!)));
    };
    const finish = (): void => {
      if (over) return;
      over = true;
      signal?.removeEventListener("abort", onAbort);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    // Every error has a listener: before the response it rejects; after, it reaches the body's reader.
    req.on("error", (error: NodeJS.ErrnoException) => {
      finish();
      // A kept-alive socket the server closed while it sat idle fails at once, before the request
      // reached the server: send it again, once, on a new connection.
      if (retry && !responded && req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE") && !signal?.aborted) retry();
      else reject(error);
    });
    req.on("response", (res) => {
      responded = true;
      res.on("error", () => undefined); // surfaced to whoever reads the body; never unhandled
      res.on("end", finish);
      res.on("close", finish);
      let consumed = false;
      const take = (): typeof res => {
        if (consumed) throw new Error("Response body already read");
        consumed = true;
        return res;
      };
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? "",
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(", ") : value;
        },
        text: async (maxBytes) => {
          // Decoded chunk by chunk into one (rope) string, counting bytes: as fast as
          // setEncoding("utf8"), and the limit stays in bytes.
          const decoder = new StringDecoder("utf8");
          let text = "";
          let size = 0;
          for await (const chunk of take()) {
            const part = chunk as Buffer;
            size += part.length;
            if (maxBytes !== undefined && size > maxBytes) {
              cancel();
              throw new MessageTooLargeError(size, maxBytes, "HTTP response body", "maxMessageBytes");
            }
            text += decoder.write(part);
          }
          return text + decoder.end();
        },
        chunks: () => take()[Symbol.asyncIterator]() as AsyncIterableIterator<Uint8Array>,
        cancel,
      });
      function cancel(): void {
        finish();
        if (!res.complete) res.destroy();
        else res.resume();
      }
    });
    req.end(request.body);
  };

  const exchange: Exchange = (request) =>
    new Promise((resolve, reject) => {
      if (request.url.protocol !== "http:" && request.url.protocol !== "https:") {
        reject(new TypeError(`Unsupported URL protocol: ${request.url.protocol}`));
        return;
      }
      if (request.signal?.aborted) {
        reject(abortReason(request.signal));
        return;
      }
      attempt(request, resolve, reject, () => attempt(request, resolve, reject, undefined));
    });
  return {
    exchange,
    destroy: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
