import { InvalidConfigError, McpError, MessageTooLargeError, NetworkError, ProxyError, errorCodeOf, proxyRefusalStatus, type AbortHandle } from "@mcp/jsonrpc";
import { readFile } from "node:fs/promises";
import { rootCertificates } from "node:tls";
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from "undici";
import { TextSink, TextStreamSink, type BodySink, type ExchangePool, type ExchangeRequest, type ExchangeResponse } from "./exchange.js";
import { parseProxyUrl } from "./urls.js";
import { checkHeader } from "./headers.js";

/**
 * The HTTP client on Node: undici (the client Node's own `fetch` is built on, with the llhttp
 * parser) through its `request()` API on a keep-alive pool, one per transport. It replaced a
 * hand-written HTTP/1.1 client that let bytes after a large body answer the next request and
 * re-sent a POST the server had already read; see the package README.
 */

/** The network settings of one server. */
export interface NetworkOptions {
  /**
   * A forward proxy for this server: its URL (`http://user:password@proxy:3128`), or `false` for
   * none. Unset: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` (lower-case names first, as curl reads them).
   */
  proxy?: string | false | undefined;
  /** A PEM file of CA certificates trusted for this server, besides Node's own and `NODE_EXTRA_CA_CERTS`. */
  ca?: string | undefined;
  /** Names the server in configuration errors. */
  serverName?: string | undefined;
}

/** The pool's limits. */
export const POOL_LIMITS = {
  /** Connections open at once to one origin; more requests wait for one to be free. */
  connections: 64,
  /** An idle connection is closed after this long, or sooner when the server's `Keep-Alive: timeout` says so. */
  keepAliveMs: 4000,
  /** A connection is retired this long before the server's `Keep-Alive: timeout` ends it. */
  keepAliveThresholdMs: 1000,
} as const;

const PROXY_ENV = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"] as const;

function envProxy(protocol: string): string | undefined {
  const env = process.env;
  const http = env["http_proxy"] || env["HTTP_PROXY"] || undefined;
  return protocol === "https:" ? env["https_proxy"] || env["HTTPS_PROXY"] || http : http;
}

function checkProxyUrl(value: string, serverName: string | undefined, field: string): URL {
  const url = parseProxyUrl(value, field);
  if (typeof url === "string") throw new InvalidConfigError(url, { serverName, field });
  return url;
}

async function caOf(options: NetworkOptions): Promise<string[] | undefined> {
  if (options.ca === undefined) return undefined;
  const files = [options.ca];
  const extra = process.env["NODE_EXTRA_CA_CERTS"];
  // A `ca` replaces Node's store for the connection: keep Node's roots and the extra CAs beside it.
  if (extra) files.push(extra);
  const pems: string[] = [...rootCertificates];
  for (const [index, file] of files.entries()) {
    try {
      pems.push(await readFile(file, "utf8"));
    } catch (cause) {
      if (index > 0) continue; // NODE_EXTRA_CA_CERTS unreadable: Node itself only warns
      throw new InvalidConfigError(`"ca" cannot be read: ${(cause as Error).message}`, { serverName: options.serverName, field: "ca", cause });
    }
  }
  return pems;
}

/** The dispatcher for one transport: direct, through the configured proxy, or as the environment says. */
export async function dispatcherFor(options: NetworkOptions): Promise<{ create: () => Dispatcher; proxyFor: (url: URL) => string | undefined }> {
  const ca = await caOf(options);
  const base = {
    connections: POOL_LIMITS.connections,
    keepAliveTimeout: POOL_LIMITS.keepAliveMs,
    keepAliveTimeoutThreshold: POOL_LIMITS.keepAliveThresholdMs,
    // The transport's own clocks cover whole exchanges; an SSE stream may be quiet for hours.
    headersTimeout: 0,
    bodyTimeout: 0,
    ...(ca ? { connect: { ca } } : {}),
  };
  if (typeof options.proxy === "string") {
    const proxy = checkProxyUrl(options.proxy, options.serverName, "proxy").href;
    // A plain-http server is asked through the proxy as curl does (absolute URL); https is tunnelled (CONNECT).
    return { create: () => new ProxyAgent({ ...base, uri: proxy, proxyTunnel: false, ...(ca ? { requestTls: { ca } } : {}) }), proxyFor: () => proxy };
  }
  if (options.proxy === undefined && PROXY_ENV.some((name) => process.env[name])) {
    for (const name of PROXY_ENV) if (process.env[name]) checkProxyUrl(process.env[name], options.serverName, name);
    return { create: () => new EnvHttpProxyAgent({ ...base, proxyTunnel: false, ...(ca ? { requestTls: { ca } } : {}) }), proxyFor: (url) => envProxy(url.protocol) };
  }
  return { create: () => new Agent(base), proxyFor: () => undefined };
}

/** The typed error for a failure on the way through `proxy`, or undefined when the proxy is not to blame. */
export function proxyFailure(url: URL, proxy: string, error: unknown, serverName: string | undefined): ProxyError | undefined {
  const refused = proxyRefusalStatus(error);
  if (refused !== undefined) return new ProxyError(url.href, proxy, { status: refused, serverName, cause: error });
  // A connection to the proxy itself that could not be opened (refused at its port, or its host
  // name not found): the proxy is to blame, not the server.
  const { port, hostname } = (error ?? {}) as { port?: unknown; hostname?: unknown };
  const code = errorCodeOf(error);
  const proxyUrl = new URL(proxy);
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === "https:" ? 443 : 80));
  const unreachable = (code === "ECONNREFUSED" && port === proxyPort) || ((code === "ENOTFOUND" || code === "EAI_AGAIN") && hostname === proxyUrl.hostname);
  return unreachable ? new ProxyError(url.href, proxy, { serverName, cause: error }) : undefined;
}

/** Failures after which a request may have reached the server: the connection broke under it. */
const BROKEN = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

/**
 * True when `request` may be sent again after `error`: the connection broke before any answer and
 * the request has no side effect. A request undici never wrote is re-sent by undici itself, on
 * another connection; anything else (a `tools/call`, a notification) is never sent twice.
 */
function mayRetry(request: ExchangeRequest, error: unknown): boolean {
  return (request.method === "GET" || request.idempotent === true) && !request.abort?.aborted && BROKEN.has(errorCodeOf(error) ?? "");
}

/** After an error answer to a request body longer than this (in characters), idle connections are retired. */
const LARGE_BODY_CHARS = 64 * 1024;

const ignore = (): void => undefined;

/**
 * An abort handle as the event target undici's `signal` option takes: a real `AbortSignal` per
 * request costs microseconds a pipelined burst feels.
 */
class HandleSignal {
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
class UndiciResponse implements ExchangeResponse {
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

  /** A body that broke, as the caller's error: the abort's reason, or a NetworkError. */
  #broken(error: unknown): unknown {
    const abort = this.#request.abort;
    return abort?.aborted ? abort.reason : new NetworkError(this.#request.url.href, error, { serverName: this.#serverName });
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

/** The transport's HTTP client on Node: one undici dispatcher (and so one pool per origin), owned by the transport. */
export async function undiciPool(options: NetworkOptions = {}): Promise<ExchangePool> {
  const { create, proxyFor } = await dispatcherFor(options);
  let dispatcher = create();
  /** Dispatchers retired while requests (an event stream) still ran on them; destroyed with the pool. */
  const retired = new Set<Dispatcher>();
  let destroyed = false;
  /**
   * A server may answer a large body before reading all of it (413, or a 400 from a body limit),
   * and its connection then cannot take another request. undici shows no request's socket, so
   * every idle connection is retired: later requests go on new ones, streams in flight finish.
   */
  const retire = (): void => {
    const old = dispatcher;
    dispatcher = create();
    retired.add(old);
    old.close().then(
      () => retired.delete(old),
      () => retired.delete(old),
    );
  };

  const answered = (request: ExchangeRequest, data: Dispatcher.ResponseData): ExchangeResponse => {
    if (data.statusCode >= 400 && request.body !== undefined && request.body.length > LARGE_BODY_CHARS) retire();
    return new UndiciResponse(data, request, options.serverName);
  };

  const once = (request: ExchangeRequest): Promise<ExchangeResponse> => {
    const url = request.url;
    const headers = request.headers;
    let sent = headers;
    try {
      for (const name in headers) checkHeader(name, headers[name]);
      if ((url.username !== "" || url.password !== "") && headers["authorization"] === undefined) {
        const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
        sent = { ...headers, authorization: `Basic ${Buffer.from(credentials).toString("base64")}` };
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return dispatcher
      .request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: sent,
        body: request.body ?? (request.method === "POST" ? "" : null),
        signal: request.abort === undefined ? null : (new HandleSignal(request.abort) as never),
      })
      .then((data) => answered(request, data));
  };

  const failed = (request: ExchangeRequest, error: unknown): unknown => {
    if (request.abort?.aborted) return request.abort.reason;
    const proxy = proxyFor(request.url);
    return (proxy !== undefined && !ProxyError.isInstance(error) && proxyFailure(request.url, proxy, error, options.serverName)) || error;
  };

  return {
    // One promise per exchange on the usual path: a retry only adds one when a request failed.
    exchange: (request) => {
      if (destroyed) return Promise.reject(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
      if (request.url.protocol !== "http:" && request.url.protocol !== "https:") return Promise.reject(new TypeError(`Unsupported URL protocol: ${request.url.protocol}`));
      return once(request).catch((error: unknown) => {
        if (!mayRetry(request, error) || destroyed) throw failed(request, error);
        return once(request).catch((again: unknown) => {
          throw failed(request, again);
        });
      });
    },
    destroy: () => {
      destroyed = true;
      dispatcher.destroy().catch(() => undefined);
      for (const old of retired) old.destroy().catch(() => undefined);
      retired.clear();
    },
  };
}
