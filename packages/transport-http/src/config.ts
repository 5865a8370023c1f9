// `HttpTransportConfig`: the options, their checks, and the settings derived from them.
import { InvalidConfigError } from "@mcp/jsonrpc";
import { checkTimeout } from "@mcp/jsonrpc/internal";
import type { Settings } from "./context.js";
import { DEFAULTS } from "./defaults.js";
import { isProtocolHeader } from "./headers.js";
import { parseHttpUrl, parseProxyUrl } from "./urls.js";
import type { FetchLike } from "./exchange.js";
import { headerProblem } from "./headers.js";
import type { HttpAuthProvider } from "./request-path.js";

/** Configuration of an HTTP server. */
export interface HttpTransportConfig {
  /** `"http"`: Streamable HTTP (falls back to HTTP+SSE when the server is old). `"sse"`: HTTP+SSE (2024-11-05). */
  type: "http" | "sse";
  url: string;
  /**
   * Extra headers on every request. They may add to `Accept`, never remove what MCP needs. The MCP
   * headers (`Mcp-Session-Id`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`,
   * `Last-Event-ID`) are refused; `Content-Type`/`Content-Length`/`Transfer-Encoding` are dropped.
   */
  headers?: Record<string, string> | undefined;
  /** ms for a whole exchange (headers and body), and every request's default: a positive number, or `Infinity`. Default 30000. */
  timeout?: number | undefined;
  /** Use this `fetch` instead of undici's keep-alive pool (the default on Node; `fetch` is the default elsewhere). `proxy` and `ca` then do not apply. */
  fetch?: FetchLike | undefined;
  /**
   * A forward proxy for this server (Node): its URL, credentials in it sent as `Proxy-Authorization`
   * (`http://user:password@proxy:3128`), or `false` for none. Unset: `HTTPS_PROXY` / `HTTP_PROXY` /
   * `NO_PROXY` from the environment (lower-case names first, as curl reads them).
   */
  proxy?: string | false | undefined;
  /** A PEM file of CA certificates to trust for this server only (Node), besides Node's own and `NODE_EXTRA_CA_CERTS`. */
  ca?: string | undefined;
  authProvider?: HttpAuthProvider | undefined;
  /** For `type: "http"`: try HTTP+SSE when `initialize` gets 400/404/405. Default true. */
  fallbackToSse?: boolean | undefined;
  /** How many times a broken SSE stream is resumed with `Last-Event-ID`. Default 3. */
  maxResumeAttempts?: number | undefined;
  /** Delay before resuming when the server sent no `retry:`. Default 1000 ms. */
  defaultRetryMs?: number | undefined;
  /** Largest JSON body or SSE event accepted, in bytes (characters for SSE). Default 64 MiB. */
  maxMessageBytes?: number | undefined;
  /** Names the server in error messages (the client sets it from the server's name). */
  serverName?: string | undefined;
}

/** Refuses a set `value` that is not an integer of at least `min` (0 or 1). */
function checkInteger(value: unknown, min: 0 | 1, field: string, serverName: string | undefined): void {
  if (value === undefined || (Number.isInteger(value) && (value as number) >= min)) return;
  throw new InvalidConfigError(
    `"${field}" must be a ${min === 0 ? "non-negative" : "positive"} integer; got ${typeof value === "number" ? String(value) : JSON.stringify(value)}`,
    { serverName, field },
  );
}

/** Checks a config (type, URL, clocks, limits, proxy, CA, headers); returns its URL or throws {@link InvalidConfigError} naming the field. */
export function checkConfig(config: HttpTransportConfig): URL {
  const serverName = config.serverName;
  if (config.type !== "http" && config.type !== "sse") {
    throw new InvalidConfigError(
      `unknown HTTP transport type ${JSON.stringify(config.type)}; expected "http" (Streamable HTTP) or "sse" (HTTP+SSE, the 2024-11-05 transport)`,
      { serverName, field: "type" },
    );
  }
  const url = parseHttpUrl(config.url);
  if (typeof url === "string") throw new InvalidConfigError(url, { serverName, field: "url" });
  checkTimeout(config.timeout, "timeout", serverName);
  checkTimeout(config.defaultRetryMs, "defaultRetryMs", serverName);
  checkInteger(config.maxResumeAttempts, 0, "maxResumeAttempts", serverName);
  checkInteger(config.maxMessageBytes, 1, "maxMessageBytes", serverName);
  const proxy = config.proxy === undefined || config.proxy === false ? undefined : parseProxyUrl(config.proxy);
  if (typeof proxy === "string") throw new InvalidConfigError(proxy, { serverName, field: "proxy" });
  if (config.ca !== undefined && (typeof config.ca !== "string" || config.ca === ""))
    throw new InvalidConfigError('"ca" must be the path of a PEM file', { serverName, field: "ca" });
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (isProtocolHeader(name)) {
      throw new InvalidConfigError(
        `header "${name}" is set by the transport (it carries the MCP session and protocol); remove it from "headers"`,
        { serverName, field: `headers.${name}` },
      );
    }
    const problem = headerProblem(name, value);
    if (problem !== undefined)
      throw new InvalidConfigError(`header ${JSON.stringify(name)} ${problem}`, {
        serverName,
        field: `headers.${name}`,
      });
  }
  return url;
}

/** The settings every part of the transport reads, defaults applied. */
export function settingsOf(config: HttpTransportConfig): Settings {
  return {
    timeout: config.timeout ?? DEFAULTS.timeout,
    maxResumeAttempts: config.maxResumeAttempts ?? DEFAULTS.maxResumeAttempts,
    defaultRetryMs: config.defaultRetryMs ?? DEFAULTS.defaultRetryMs,
    maxMessageBytes: config.maxMessageBytes ?? DEFAULTS.maxMessageBytes,
    streamLingerMs: DEFAULTS.streamLingerMs,
  };
}
