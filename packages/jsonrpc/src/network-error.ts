// `NetworkError` and `ProxyError`, and what a TLS or proxy failure means in words.
import { McpError } from "./errors.js";
import { redactUrl } from "./redact.js";

/** Options of {@link NetworkError}. */
export interface NetworkErrorOptions {
  serverName?: string | undefined;
  /**
   * The whole request was handed to the connection before it broke (or before an answer came that
   * could not be read): the server may have processed it. The message then says so instead of
   * "Cannot reach".
   */
  mayHaveRun?: boolean | undefined;
  /** The server answered, but in a way the client cannot read: what it was. Implies `mayHaveRun`. */
  unreadable?: string | undefined;
}

/**
 * The server could not be reached (connection refused, host not found, TLS failure), or the
 * connection broke during the exchange. Names the URL (and the server, when known) and what to check.
 * When the request had been sent, `mayHaveRun` is true and the message says the request may have run:
 * the transport never sends such a request again, and a caller should not either without checking.
 */
export class NetworkError extends McpError<"network_error" | "proxy_error"> {
  static override readonly brand: string = "NetworkError";
  declare readonly url: string;
  /** The system error code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`. */
  declare readonly errno: string | undefined;
  declare readonly serverName: string | undefined;
  /**
   * True when the request reached the connection whole before it failed: the server may have run it
   * (a `tools/call` with side effects may have taken effect). False when it cannot have: the
   * connection was never made, or broke before the request was written.
   */
  declare readonly mayHaveRun: boolean;

  constructor(url: string, cause: unknown, options: NetworkErrorOptions = {}) {
    const errno = NetworkError.errnoOf(cause);
    const shown = redactUrl(url); // a password or token in the URL stays out of logs
    const who =
      options.serverName === undefined ? `MCP server at ${shown}` : `MCP server "${options.serverName}" at ${shown}`;
    const mayHaveRun = options.mayHaveRun === true || options.unreadable !== undefined;
    const message =
      options.unreadable !== undefined
        ? `${who} answered in a way this client cannot read (${options.unreadable}); the request may have run, so it was not sent again`
        : mayHaveRun
          ? `The connection to ${who} broke after the request was sent (${NetworkError.brokeHow(errno, cause)}); it may have run, so it was not sent again`
          : `Cannot reach ${who}: ${NetworkError.explain(errno, cause)}`;
    super("network_error", message, { cause });
    this.url = shown;
    this.errno = errno;
    this.serverName = options.serverName;
    this.mayHaveRun = mayHaveRun;
  }

  /** The system error code of `error` or of its `cause` chain (fetch hides it one level down). */
  static errnoOf(error: unknown): string | undefined {
    return inCauseChain(error, (e) =>
      typeof e.code === "string" && /^E[A-Z0-9_]+$/.test(e.code) ? e.code : undefined,
    );
  }

  /** How a connection broke under a request that was sent: the system code, or the client's words. */
  private static brokeHow(errno: string | undefined, cause: unknown): string {
    if (errno !== undefined) return errno;
    return cause instanceof Error ? cause.message : String(cause);
  }

  private static explain(errno: string | undefined, cause: unknown): string {
    switch (errno) {
      case "ECONNREFUSED":
        return "connection refused (ECONNREFUSED); is the server running and listening on that port?";
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return `host not found (${errno}); check the host name in the URL`;
      case "ECONNRESET":
      case "EPIPE":
        return `the connection was reset before an answer (${errno})`;
      case "ETIMEDOUT":
        return "the connection attempt timed out (ETIMEDOUT)";
      default: {
        const tls = tlsProblem(cause);
        if (tls !== undefined) return tls;
        let detail = cause instanceof Error ? cause.message : String(cause);
        const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : undefined;
        if (inner && !detail.includes(inner)) detail += ` (${inner})`;
        return errno && !detail.includes(errno) ? `${detail} (${errno})` : detail;
      }
    }
  }
}

const TRUST_CA = `add that CA with the server's "ca" option (a PEM file) or NODE_EXTRA_CA_CERTS`;
const NOT_TRUSTED = "was issued by a CA that is not trusted";

/** Certificate error codes (Node's, from OpenSSL): what "its TLS certificate …" then says, and the fix. */
const TLS_PROBLEMS: Readonly<Record<string, readonly [string, string?]>> = {
  CERT_HAS_EXPIRED: ["has expired", "the server must renew it"],
  CERT_NOT_YET_VALID: ["is not valid yet", "check this machine's clock"],
  ERR_TLS_CERT_ALTNAME_INVALID: ["is for another host name", "use the host name the certificate names"],
  DEPTH_ZERO_SELF_SIGNED_CERT: [
    "is self-signed and not trusted",
    `trust it with the server's "ca" option (a PEM file) or NODE_EXTRA_CA_CERTS`,
  ],
  SELF_SIGNED_CERT_IN_CHAIN: ["chains to a CA that is not trusted", TRUST_CA],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: [NOT_TRUSTED, TRUST_CA],
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: [NOT_TRUSTED, TRUST_CA],
  UNABLE_TO_GET_ISSUER_CERT: [NOT_TRUSTED, TRUST_CA],
  CERT_REVOKED: ["was revoked"],
};

/** What a certificate error in `error`'s cause chain means, if there is one. */
function tlsProblem(error: unknown): string | undefined {
  return inCauseChain(error, ({ code }) => {
    if (typeof code !== "string" || !Object.hasOwn(TLS_PROBLEMS, code)) return undefined;
    const [what, fix] = TLS_PROBLEMS[code]!;
    return `its TLS certificate ${what} (${code})${fix ? `; ${fix}` : ""}`;
  });
}

/** undici's words for a proxy's refusal: of a CONNECT tunnel, and of a plain request (407). */
const PROXY_REFUSED = /^(?:Proxy response|Proxy Authentication Required) \((\d{3})\)/;

/**
 * The HTTP status with which a forward proxy refused a request, read from an HTTP client's error
 * (or its cause chain), or undefined when the error is not a proxy's refusal.
 */
export function proxyRefusalStatus(error: unknown): number | undefined {
  return inCauseChain(error, ({ message }) => {
    const match = typeof message === "string" ? PROXY_REFUSED.exec(message) : null;
    return match ? Number(match[1]) : undefined;
  });
}

/** Codes of failures before a request can have been written: no connection, a certificate refused, a header refused. */
const NOT_SENT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|ERR_INVALID_CHAR|ERR_INVALID_HTTP_TOKEN|ERR_TLS_\w+|\w*CERT\w*|UNABLE_TO_\w+)$/;

/**
 * True when an HTTP client's error (or one in its cause chain) says the request cannot have
 * reached the server: the connection was never made, its certificate was refused, or a header was
 * refused before sending. For a client that cannot say more (`fetch`), anything else means the
 * request may have been read: {@link NetworkError}'s `mayHaveRun`.
 */
export function failedBeforeSending(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code !== undefined && NOT_SENT.test(code);
}

/** The first string `code` in `error`'s cause chain: a system error's (`ECONNRESET`) or an HTTP client's (`UND_ERR_SOCKET`). */
export function errorCodeOf(error: unknown): string | undefined {
  return inCauseChain(error, ({ code }) => (typeof code === "string" ? code : undefined));
}

/**
 * The first thing `pick` finds in `error` or its causes (four deep: `fetch` and undici wrap the
 * system error once or twice).
 */
function inCauseChain<T>(
  error: unknown,
  pick: (error: { code?: unknown; message?: unknown }) => T | undefined,
): T | undefined {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 4; depth++) {
    const found = pick(current);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A forward proxy refused or failed the request: a `407` (its credentials were missing or wrong),
 * a refused `CONNECT` tunnel, or a proxy that cannot be reached. Names the proxy with its password
 * hidden; `status` is the proxy's answer when it gave one.
 */
export class ProxyError extends NetworkError {
  static override readonly brand: string = "ProxyError";
  declare readonly code: "proxy_error";
  /** The proxy's URL, password hidden. */
  declare readonly proxy: string;
  /** The proxy's HTTP status (407, 403, 502, …), when it answered. */
  declare readonly status: number | undefined;

  constructor(
    url: string,
    proxy: string,
    options: { status?: number | undefined; serverName?: string | undefined; cause?: unknown } = {},
  ) {
    const shownProxy = redactUrl(proxy);
    const status = options.status;
    const what =
      status === 407
        ? `the proxy ${shownProxy} asks for credentials (407 Proxy Authentication Required); put a user and password in the proxy URL (http://user:password@host:port)`
        : status !== undefined
          ? `the proxy ${shownProxy} refused the request (HTTP ${status}); ask whoever runs it whether this host and port may be reached through it`
          : `the proxy ${shownProxy} cannot be reached or closed the connection`;
    super(url, new Error(what), { serverName: options.serverName });
    // The proxy's own failure is the cause (its message stays out of ours: it may be undici's wording).
    Object.defineProperty(this, "cause", {
      value: options.cause,
      writable: true,
      configurable: true,
      enumerable: false,
    });
    Object.assign(this, { code: "proxy_error" });
    this.proxy = shownProxy;
    this.status = status;
  }
}
