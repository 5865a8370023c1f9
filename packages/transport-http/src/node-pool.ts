import { InvalidConfigError, McpError, NetworkError, ProxyError } from "@mcp/jsonrpc";
import {
  envNamesProxy,
  envProxyFor,
  errorCodeOf,
  parseProxyUrl,
  PROXY_ENV_NAMES,
  proxyRefusalStatus,
} from "@mcp/jsonrpc/internal";
import { readFile } from "node:fs/promises";
import { rootCertificates } from "node:tls";
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from "undici";
import type { ExchangePool, ExchangeRequest, ExchangeResponse } from "./exchange.js";
import { UndiciExchange, type Attempt } from "./undici-response.js";
import { checkHeader } from "./headers.js";

/**
 * The HTTP client on Node: undici (the client Node's own `fetch` is built on, with the llhttp
 * parser) through its `dispatch()` API, with a handler of our own (`undici-response.ts`), on a
 * keep-alive pool, one per transport. Its parser frames every response exactly, so bytes after a large
 * body never pass for the next answer, and a request that may have run is sent again only when
 * its method has no side effect (see the package README, *Sent again only when safe*).
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
  /** Connections open at once to one origin for the side lane (see `ExchangeRequest.sideLane`). */
  sideLaneConnections: 4,
} as const;

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
      throw new InvalidConfigError(`"ca" cannot be read: ${(cause as Error).message}`, {
        serverName: options.serverName,
        field: "ca",
        cause,
      });
    }
  }
  return pems;
}

/** The dispatcher for one transport: direct, through the configured proxy, or as the environment says. */
export async function dispatcherFor(
  options: NetworkOptions,
): Promise<{ create: (connections?: number) => Dispatcher; proxyFor: (url: URL) => string | undefined }> {
  const ca = await caOf(options);
  const base = {
    keepAliveTimeout: POOL_LIMITS.keepAliveMs,
    keepAliveTimeoutThreshold: POOL_LIMITS.keepAliveThresholdMs,
    // The transport's own clocks cover whole exchanges; an SSE stream may be quiet for hours.
    headersTimeout: 0,
    bodyTimeout: 0,
    ...(ca ? { connect: { ca } } : {}),
  };
  const tls = ca ? { requestTls: { ca } } : {};
  if (typeof options.proxy === "string") {
    const proxy = checkProxyUrl(options.proxy, options.serverName, "proxy").href;
    // A plain-http server is asked through the proxy as curl does (absolute URL); https is tunnelled (CONNECT).
    return {
      create: (connections = POOL_LIMITS.connections) =>
        new ProxyAgent({ ...base, connections, uri: proxy, proxyTunnel: false, ...tls }),
      proxyFor: () => proxy,
    };
  }
  if (options.proxy === undefined && envNamesProxy(process.env)) {
    for (const name of PROXY_ENV_NAMES)
      if (process.env[name]) checkProxyUrl(process.env[name], options.serverName, name);
    return {
      create: (connections = POOL_LIMITS.connections) =>
        new EnvHttpProxyAgent({ ...base, connections, proxyTunnel: false, ...tls }),
      proxyFor: (url) => envProxyFor(url.protocol, process.env),
    };
  }
  return {
    create: (connections = POOL_LIMITS.connections) => new Agent({ ...base, connections }),
    proxyFor: () => undefined,
  };
}

/** The typed error for a failure on the way through `proxy`, or undefined when the proxy is not to blame. */
export function proxyFailure(
  url: URL,
  proxy: string,
  error: unknown,
  serverName: string | undefined,
): ProxyError | undefined {
  const refused = proxyRefusalStatus(error);
  if (refused !== undefined) return new ProxyError(url.href, proxy, { status: refused, serverName, cause: error });
  // A connection to the proxy itself that could not be opened (refused at its port, or its host
  // name not found): the proxy is to blame, not the server.
  const { port, hostname } = (error ?? {}) as { port?: unknown; hostname?: unknown };
  const code = errorCodeOf(error);
  const proxyUrl = new URL(proxy);
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === "https:" ? 443 : 80));
  const unreachable =
    (code === "ECONNREFUSED" && port === proxyPort) ||
    ((code === "ENOTFOUND" || code === "EAI_AGAIN") && hostname === proxyUrl.hostname);
  return unreachable ? new ProxyError(url.href, proxy, { serverName, cause: error }) : undefined;
}

/** Failures after which a request may have reached the server: the connection broke under it. */
const BROKEN = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

/**
 * True when `request` may be sent again after `error`: the connection broke before any byte of an
 * answer and the request has no side effect. A request undici never wrote is re-sent by undici
 * itself, on another connection; anything else (a `tools/call`, a notification, a request whose
 * answer had begun) is never sent twice.
 */
function mayRetry(request: ExchangeRequest, error: unknown, attempt: Attempt): boolean {
  return (
    (request.method === "GET" || request.idempotent === true) &&
    !attempt.started &&
    !request.abort?.aborted &&
    BROKEN.has(errorCodeOf(error) ?? "")
  );
}

/** An answer undici refuses to read, in words; undefined for anything else. */
function unreadableAnswer(error: unknown): string | undefined {
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : "";
  // undici takes 102 and 103 (and drops them), but fails a request on an unexpected 100 or 101.
  if (code === "UND_ERR_SOCKET" && message === "bad response")
    return 'an interim "100 Continue", which the HTTP client (undici) does not accept';
  if (code === "UND_ERR_SOCKET" && message === "bad upgrade")
    return "a switch to another protocol (101) nobody asked for";
  if (code === "UND_ERR_HEADERS_OVERFLOW") return "headers larger than the HTTP client accepts";
  if (code?.startsWith("HPE_")) return `bytes that are not an HTTP answer: ${message}`;
  return undefined;
}

/** Whether an answer says its connection closes after it (`Connection: close`). */
function closing(response: ExchangeResponse): boolean {
  return /(?:^|,)\s*close\s*(?:,|$)/i.test(response.header("connection") ?? "");
}

/** After an error answer to a request body longer than this (in characters), idle connections are retired. */
const LARGE_BODY_CHARS = 64 * 1024;

/** The transport's HTTP client on Node: one undici dispatcher (and so one pool per origin), owned by the transport. */
export async function undiciPool(options: NetworkOptions = {}): Promise<ExchangePool> {
  const { create, proxyFor } = await dispatcherFor(options);
  let dispatcher = create();
  /** The side lane's dispatcher (see `ExchangeRequest.sideLane`): a few connections of its own, made on first use. */
  let side: Dispatcher | undefined;
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

  /** The last URL sent to and its parts (a transport sends to one URL, nearly always). */
  let target: { url: URL; href: string; origin: string; path: string } | undefined;
  const partsOf = (url: URL): { origin: string; path: string } => {
    if (target?.url !== url || target.href !== url.href)
      target = { url, href: url.href, origin: url.origin, path: `${url.pathname}${url.search}` };
    return target;
  };

  const once = (request: ExchangeRequest, attempt: Attempt, first = true): Promise<ExchangeResponse> =>
    new Promise((resolve, reject) => {
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
        reject(error);
        return;
      }
      const lane = request.sideLane === true ? (side ??= create(POOL_LIMITS.sideLaneConnections)) : dispatcher;
      const { origin, path } = partsOf(url);
      const exchange = new UndiciExchange(request, attempt, options.serverName, (error, response) => {
        if (response === undefined) {
          reject(error);
          return;
        }
        // A 408 with `Connection: close` says the server did not take the request (it closed a
        // connection it thought idle, with this answer, as ours arrived): it may be sent again,
        // once, whatever its method (RFC 9110 §15.5.9), on another connection. A 408 on a
        // connection the server keeps answers this request, which it read (a handler's own
        // timeout): only a request with no side effect is sent again.
        if (
          response.status === 408 &&
          first &&
          !request.abort?.aborted &&
          (closing(response) || request.method === "GET" || request.idempotent === true)
        ) {
          response.cancel();
          attempt.sent = attempt.started = false; // what the server did with it is known: nothing
          resolve(once(request, attempt, false));
          return;
        }
        if (response.status >= 400 && request.body !== undefined && request.body.length > LARGE_BODY_CHARS) retire();
        resolve(response);
      });
      lane.dispatch(
        {
          origin,
          path,
          method: request.method,
          headers: sent,
          body: request.body ?? (request.method === "POST" ? "" : null),
        },
        exchange,
      );
    });

  const failed = (request: ExchangeRequest, error: unknown, attempt: Attempt): unknown => {
    if (request.abort?.aborted) return request.abort.reason;
    const proxy = proxyFor(request.url);
    const refused =
      proxy !== undefined &&
      !ProxyError.isInstance(error) &&
      proxyFailure(request.url, proxy, error, options.serverName);
    if (refused || McpError.isInstance(error)) return refused || error;
    // What the server may have done is known here: whether the request was written whole, whether an answer began.
    const unreadable = attempt.started ? unreadableAnswer(error) : undefined;
    return new NetworkError(request.url.href, error, {
      serverName: options.serverName,
      mayHaveRun: request.method !== "GET" && attempt.sent,
      unreadable,
    });
  };

  return {
    // One promise per exchange on the usual path: a retry only adds one when a request failed.
    exchange: (request) => {
      if (destroyed) return Promise.reject(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
      const attempt: Attempt = { sent: false, started: false };
      return once(request, attempt).catch((error: unknown) => {
        if (!mayRetry(request, error, attempt) || destroyed) throw failed(request, error, attempt);
        const again: Attempt = { sent: false, started: false };
        return once(request, again).catch((failure: unknown) => {
          throw failed(request, failure, again);
        });
      });
    },
    destroy: () => {
      destroyed = true;
      dispatcher.destroy().catch(() => undefined);
      side?.destroy().catch(() => undefined);
      for (const old of retired) old.destroy().catch(() => undefined);
      retired.clear();
    },
  };
}
