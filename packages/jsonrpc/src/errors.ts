/**
 * Typed errors for the whole stack.
 *
 * Two families, as in JSON-RPC itself:
 * - {@link McpError} and its subclasses: local failures with a stable string `code`
 *   (`"transport_closed"`, `"request_timeout"`, `"http_error"`, …).
 * - {@link RpcError}: an error the peer sent on the wire; keeps the numeric JSON-RPC `code` and `data`.
 *
 * `instanceof` works across two installed copies of this package: every class is branded
 * with a `Symbol.for` key and checks the brand, and each has a static `isInstance`.
 */
import { redactUrl } from "./redact.js";

const BRANDS = Symbol.for("@mcp/jsonrpc/error-brands");

type Branded = { [BRANDS]?: readonly string[] };

function brandsOf(ctor: unknown): string[] {
  const brands: string[] = [];
  let current: unknown = ctor;
  while (typeof current === "function") {
    const brand = (current as { brand?: unknown }).brand;
    if (Object.hasOwn(current, "brand") && typeof brand === "string") brands.push(brand);
    current = Object.getPrototypeOf(current);
  }
  return brands;
}

/**
 * Brands `error` and names it. The name is the class's own brand, not `ctor.name`: a minifying
 * bundler renames classes, and `err.name === "TransportClosedError"` must hold in a bundle too.
 * A subclass written elsewhere without a brand of its own keeps its class name.
 */
function stamp(error: Error, ctor: { name: string; brand?: string }): void {
  Object.defineProperty(error, BRANDS, { value: Object.freeze(brandsOf(ctor)), enumerable: false });
  error.name = Object.hasOwn(ctor, "brand") ? ctor.brand! : ctor.name;
}

function hasBrand(ctor: { brand?: string }, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Object.hasOwn(ctor, "brand")) {
    // A subclass written elsewhere without its own brand: plain prototype check.
    return Function.prototype[Symbol.hasInstance].call(ctor, value);
  }
  const brands = (value as Branded)[BRANDS];
  return Array.isArray(brands) && brands.includes(ctor.brand);
}

/** Stable string codes of {@link McpError}: one per error class of the stack. */
export type McpErrorCode =
  | "transport_closed"
  | "request_timeout"
  | "no_response"
  | "http_error"
  | "session_expired"
  | "network_error"
  | "proxy_error"
  | "parse_error"
  | "invalid_message"
  | "message_too_large"
  | "invalid_config"
  | "spawn_failed"
  | "sse_endpoint"
  | "unknown_server_type"
  | "connection_timeout"
  | "unsupported_protocol_version"
  | "invalid_initialize_result"
  | "capability_not_supported"
  | "pagination_error"
  | "server_unavailable"
  | "tool_unavailable"
  | "not_in_protocol_revision"
  | "oauth_error";

/** Base of every local error in the stack. */
export class McpError extends Error {
  static readonly brand: string = "McpError";
  /** Stable machine-readable code; switch on this, not on the message. */
  declare readonly code: McpErrorCode;

  constructor(code: McpErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    stamp(this, new.target);
  }

  /**
   * True for an instance of this class (or a subclass) from any installed copy of this package.
   * Inherited: `TransportClosedError.isInstance(e)` checks for a TransportClosedError.
   */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return hasBrand(this as { brand?: string }, value);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }
}

/** The transport is closed, or closed while the request was in flight. Message: `Transport closed`. */
export class TransportClosedError extends McpError {
  static override readonly brand: string = "TransportClosedError";
  /** Exit code of a child process, when one died. */
  declare readonly exitCode: number | null | undefined;
  /** Signal that ended a child process, when one died. */
  declare readonly signal: string | null | undefined;
  /** Last lines a child process wrote to stderr, when captured. */
  declare readonly stderrTail: string | undefined;

  constructor(options: { cause?: unknown; exitCode?: number | null; signal?: string | null; stderrTail?: string; detail?: string } = {}) {
    super("transport_closed", TransportClosedError.describe(options), options);
    this.exitCode = options.exitCode;
    this.signal = options.signal;
    this.stderrTail = options.stderrTail;
  }

  private static describe(o: { exitCode?: number | null; signal?: string | null; stderrTail?: string; detail?: string }): string {
    // The message starts with the stable text `Transport closed`; what follows only helps a human.
    let message = "Transport closed";
    const parts: string[] = [];
    if (o.detail) parts.push(o.detail);
    if (o.signal) parts.push(`process killed by ${o.signal}`);
    else if (o.exitCode !== undefined && o.exitCode !== null) parts.push(`process exited with code ${o.exitCode}`);
    if (parts.length > 0) message += ` (${parts.join(", ")})`;
    if (o.stderrTail && o.stderrTail.trim() !== "") message += `\nstderr:\n${o.stderrTail.trimEnd()}`;
    return message;
  }
}

/**
 * A request (or whatever `label` names) took longer than allowed. Message: `<label> timeout after <n>ms`,
 * `Request timeout after <n>ms` by default; transports choose other labels for their own clocks.
 */
export class RequestTimeoutError extends McpError {
  static override readonly brand: string = "RequestTimeoutError";
  /** The budget that ran out, in ms. */
  declare readonly timeout: number;
  /** The method of the request, when it was one. */
  declare readonly method: string | undefined;

  constructor(timeout: number, options: { label?: string | undefined; method?: string | undefined; cause?: unknown } = {}) {
    super("request_timeout", `${options.label ?? "Request"} timeout after ${timeout}ms`, options);
    this.timeout = timeout;
    this.method = options.method;
  }
}

/** A response stream ended without the awaited response. Message: `No response received for request ID <id>`. */
export class NoResponseError extends McpError {
  static override readonly brand: string = "NoResponseError";
  declare readonly requestId: string | number;

  constructor(requestId: string | number, options: { cause?: unknown } = {}) {
    super("no_response", `No response received for request ID ${requestId}`, options);
    this.requestId = requestId;
  }
}

/** Fields of an {@link HttpError}. */
export interface HttpErrorDetails {
  status: number;
  statusText?: string;
  body?: string;
  url?: string;
  wwwAuthenticate?: string | undefined;
  mcpAuthServer?: string | undefined;
  cause?: unknown;
}

const MAX_BODY_IN_MESSAGE = 500;

/** A non-2xx HTTP answer. Message: `HTTP <status>: <text>` plus any auth hints. */
export class HttpError extends McpError {
  static override readonly brand: string = "HttpError";
  declare readonly status: number;
  declare readonly statusText: string;
  /** The response body (as text), possibly empty. */
  declare readonly body: string;
  declare readonly url: string | undefined;
  /** The `WWW-Authenticate` header, when present (401/403). */
  declare readonly wwwAuthenticate: string | undefined;
  /** The `Mcp-Auth-Server` header, when present. */
  declare readonly mcpAuthServer: string | undefined;

  constructor(details: HttpErrorDetails, code: McpErrorCode = "http_error", messageOverride?: string) {
    super(code, messageOverride ?? HttpError.describe(details), details);
    this.status = details.status;
    this.statusText = details.statusText ?? "";
    this.body = details.body ?? "";
    this.url = details.url === undefined ? undefined : redactUrl(details.url);
    this.wwwAuthenticate = details.wwwAuthenticate;
    this.mcpAuthServer = details.mcpAuthServer;
  }

  private static describe(d: HttpErrorDetails): string {
    const text = HttpError.reasonOf(d.body ?? "") || d.statusText || "";
    const shown = text.length > MAX_BODY_IN_MESSAGE ? `${text.slice(0, MAX_BODY_IN_MESSAGE)}…` : text;
    let message = `HTTP ${d.status}: ${shown}`;
    if (d.wwwAuthenticate) message += ` (WWW-Authenticate: ${d.wwwAuthenticate})`;
    if (d.mcpAuthServer) message += ` (Mcp-Auth-Server: ${d.mcpAuthServer})`;
    return message;
  }

  /**
   * The readable part of a body: a JSON-RPC error's message when the body is one; for an HTML page
   * (a proxy's or a web server's error page), its title or else its first line of text; else the text.
   */
  private static reasonOf(body: string): string {
    const error = jsonRpcErrorIn(body);
    if (error) return error.code === undefined ? error.message : `${error.message} (JSON-RPC error ${error.code})`;
    const text = body.trim();
    return /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text) ? `an HTML page: ${htmlGist(text) || "(no text)"}` : text;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** An HTML page in a few words: its `<title>` and its first line of visible text (when that says more). */
function htmlGist(html: string): string {
  const decode = (text: string): string => text.replace(/&(#\d+|[a-z]+);/gi, (whole, name: string) => (name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1)) || 32) : (ENTITIES[name.toLowerCase()] ?? whole)));
  const title = decode(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "").replace(/\s+/g, " ").trim();
  const visible = html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr|title)>/gi, "\n")
    .replace(/<[^>]*>/g, " ");
  const line =
    decode(visible)
      .split("\n")
      .map((text) => text.replace(/\s+/g, " ").trim())
      .find((text) => text !== "") ?? "";
  // Express titles every error page "Error"; its text ("Cannot POST /nope") says what happened.
  if (!title) return line;
  return line && line !== title && !title.includes(line) ? `${title}: ${line}` : title;
}

/**
 * The JSON-RPC error an HTTP error body carries (`{"error": {"code", "message"}}`), if it is one
 * with a message: what a person should read instead of the raw JSON.
 */
export function jsonRpcErrorIn(body: string): { code: number | undefined; message: string } | undefined {
  const text = body.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const { code, message } = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error ?? {};
    if (typeof message === "string" && message !== "") return { code: typeof code === "number" ? code : undefined, message };
  } catch {
    // Not JSON after all.
  }
  return undefined;
}

/**
 * The server no longer knows the session (`404` on a request that carried `Mcp-Session-Id`).
 * The layer above should start a new session; the transport never does.
 */
export class SessionExpiredError extends HttpError {
  static override readonly brand: string = "SessionExpiredError";
  declare readonly sessionId: string;

  constructor(sessionId: string, details: HttpErrorDetails) {
    super(details, "session_expired", `Session expired: ${sessionId} (HTTP ${details.status})`);
    this.sessionId = sessionId;
  }
}

/** Bytes that should have been JSON were not. Quotes the start of the input. */
export class ParseError extends McpError {
  static override readonly brand: string = "ParseError";
  /** The first characters of the offending input. */
  declare readonly snippet: string;
  /** Where it came from: "stdout line", "HTTP response body", "SSE event", … */
  declare readonly source: string;
  /** The HTTP status of the response that carried the input, when there was one. */
  declare readonly status: number | undefined;

  /** `message` replaces the default `Invalid JSON in <source>: <reason>; starts with "<snippet>"`. */
  constructor(source: string, input: string, options: { cause?: unknown; status?: number | undefined; message?: string | undefined } = {}) {
    const snippet = input.length > 200 ? `${input.slice(0, 200)}…` : input;
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : "";
    super("parse_error", options.message ?? `Invalid JSON in ${source}${reason}; starts with ${JSON.stringify(snippet)}`, options);
    this.snippet = snippet;
    this.source = source;
    this.status = options.status;
  }
}

/**
 * The server could not be reached: connection refused, host not found, reset before an answer,
 * TLS failure. Names the URL (and the server, when known) and what to check.
 */
export class NetworkError extends McpError {
  static override readonly brand: string = "NetworkError";
  declare readonly url: string;
  /** The system error code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`. */
  declare readonly errno: string | undefined;
  declare readonly serverName: string | undefined;

  constructor(url: string, cause: unknown, options: { serverName?: string | undefined } = {}) {
    const errno = NetworkError.errnoOf(cause);
    const shown = redactUrl(url); // a password or token in the URL stays out of logs
    const who = options.serverName === undefined ? `MCP server at ${shown}` : `MCP server "${options.serverName}" at ${shown}`;
    super("network_error", `Cannot reach ${who}: ${NetworkError.explain(errno, cause)}`, { cause });
    this.url = shown;
    this.errno = errno;
    this.serverName = options.serverName;
  }

  /** The system error code of `error` or of its `cause` chain (fetch hides it one level down). */
  static errnoOf(error: unknown): string | undefined {
    return inCauseChain(error, (e) => (typeof e.code === "string" && /^E[A-Z0-9_]+$/.test(e.code) ? e.code : undefined));
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
  DEPTH_ZERO_SELF_SIGNED_CERT: ["is self-signed and not trusted", `trust it with the server's "ca" option (a PEM file) or NODE_EXTRA_CA_CERTS`],
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

/** The first string `code` in `error`'s cause chain: a system error's (`ECONNRESET`) or an HTTP client's (`UND_ERR_SOCKET`). */
export function errorCodeOf(error: unknown): string | undefined {
  return inCauseChain(error, ({ code }) => (typeof code === "string" ? code : undefined));
}

/**
 * The first thing `pick` finds in `error` or its causes (four deep: `fetch` and undici wrap the
 * system error once or twice).
 */
function inCauseChain<T>(error: unknown, pick: (error: { code?: unknown; message?: unknown }) => T | undefined): T | undefined {
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
  /** The proxy's URL, password hidden. */
  declare readonly proxy: string;
  /** The proxy's HTTP status (407, 403, 502, …), when it answered. */
  declare readonly status: number | undefined;

  constructor(url: string, proxy: string, options: { status?: number | undefined; serverName?: string | undefined; cause?: unknown } = {}) {
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
    Object.defineProperty(this, "cause", { value: options.cause, writable: true, configurable: true, enumerable: false });
    Object.assign(this, { code: "proxy_error" });
    this.proxy = shownProxy;
    this.status = status;
  }
}

/** A configuration value is missing or wrong. Names the server (when known) and the field. */
export class InvalidConfigError extends McpError {
  static override readonly brand: string = "InvalidConfigError";
  declare readonly serverName: string | undefined;
  /** The offending field, e.g. `"timeout"`, `"type"`, `"command"`. */
  declare readonly field: string | undefined;

  constructor(message: string, options: { serverName?: string | undefined; field?: string | undefined; code?: "invalid_config" | "unknown_server_type"; cause?: unknown } = {}) {
    const named = options.serverName === undefined || message.includes(`MCP server "${options.serverName}"`);
    super(options.code ?? "invalid_config", named ? message : `MCP server "${options.serverName}": ${message}`, options);
    this.serverName = options.serverName;
    this.field = options.field;
  }
}

/**
 * The one rule for every timeout in the stack: a positive number of milliseconds, or `Infinity`
 * for none. `undefined` means "use the default". Anything else (0, negative, NaN, a string) is refused.
 */
export function isValidTimeout(value: unknown): value is number {
  return typeof value === "number" && value > 0;
}

/**
 * What is wrong with a timeout, or undefined when it is `undefined` or valid: the sentence every
 * layer uses, `<what> must be a positive number of milliseconds (or Infinity for none); got <value>`.
 */
export function timeoutProblem(value: unknown, what: string): string | undefined {
  if (value === undefined || isValidTimeout(value)) return undefined;
  return `${what} must be a positive number of milliseconds (or Infinity for none); got ${typeof value === "number" ? String(value) : JSON.stringify(value)}`;
}

/** Throws {@link InvalidConfigError} naming `field` unless `value` is `undefined` or a valid timeout. */
export function checkTimeout(value: unknown, field: string, serverName?: string): void {
  const problem = timeoutProblem(value, `"${field}"`);
  if (problem !== undefined) throw new InvalidConfigError(problem, { serverName, field });
}

/** Valid JSON that is not a JSON-RPC message. */
export class InvalidMessageError extends McpError {
  static override readonly brand: string = "InvalidMessageError";
  declare readonly reason: string;

  constructor(source: string, reason: string, options: { cause?: unknown } = {}) {
    super("invalid_message", `Invalid JSON-RPC message in ${source}: ${reason}`, options);
    this.reason = reason;
  }
}

/** A frame was larger than the configured limit. */
export class MessageTooLargeError extends McpError {
  static override readonly brand: string = "MessageTooLargeError";
  declare readonly size: number;
  declare readonly limit: number;

  /** `option` names the setting that raises the limit, e.g. `"maxLineBytes"`. */
  constructor(size: number, limit: number, source = "message", option?: string) {
    super("message_too_large", `${source} of at least ${size} bytes exceeds the limit of ${limit} bytes; it was discarded${option ? ` (raise the limit with the "${option}" option)` : ""}`);
    this.size = size;
    this.limit = limit;
  }
}

/**
 * An error the peer returned on the wire. Message: `MCP error <code>: <message>`.
 * Keeps the numeric JSON-RPC `code` and the optional `data`.
 */
export class RpcError extends Error {
  static readonly brand: string = "RpcError";
  /** The JSON-RPC error code (e.g. -32601). */
  declare readonly code: number;
  declare readonly data: unknown;
  /** The peer's own message, without the `MCP error <code>: ` prefix. */
  declare readonly rpcMessage: string;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    // Servers on the official SDK already prefix their message the same way: say it once.
    const prefix = `MCP error ${code}: `;
    super(message.startsWith(prefix) ? message : `${prefix}${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = data;
    this.rpcMessage = message;
    stamp(this, new.target);
  }

  /**
   * Builds an RpcError from a wire error object: a typed subclass for the standard codes
   * ({@link MethodNotFoundError}, {@link InvalidParamsError}, …), a plain RpcError otherwise.
   */
  static fromError(error: { code: number; message: string; data?: unknown }): RpcError {
    const Typed = RPC_ERROR_CLASSES.get(error.code);
    return Typed ? new Typed(error.message, error.data) : new RpcError(error.code, error.message, error.data);
  }

  /** True for an RpcError (or subclass) from any installed copy of this package. */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return hasBrand(this as { brand?: string }, value);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }
}

/** `-32700`: the peer could not parse what we sent. */
export class RpcParseError extends RpcError {
  static override readonly brand: string = "RpcParseError";
  constructor(message: string, data?: unknown) {
    super(-32700, message, data);
  }
}

/** `-32600`: the peer found our message not a valid request. */
export class InvalidRequestError extends RpcError {
  static override readonly brand: string = "InvalidRequestError";
  constructor(message: string, data?: unknown) {
    super(-32600, message, data);
  }
}

/** `-32601`: the peer does not know the method. */
export class MethodNotFoundError extends RpcError {
  static override readonly brand: string = "MethodNotFoundError";
  constructor(message: string, data?: unknown) {
    super(-32601, message, data);
  }
}

/** `-32602`: the peer refused the params (also an unknown tool or prompt on many servers). */
export class InvalidParamsError extends RpcError {
  static override readonly brand: string = "InvalidParamsError";
  constructor(message: string, data?: unknown) {
    super(-32602, message, data);
  }
}

/** `-32603`: the peer failed while handling the request. */
export class InternalRpcError extends RpcError {
  static override readonly brand: string = "InternalRpcError";
  constructor(message: string, data?: unknown) {
    super(-32603, message, data);
  }
}

/** `-32002` (MCP): the resource does not exist. */
export class ResourceNotFoundError extends RpcError {
  static override readonly brand: string = "ResourceNotFoundError";
  constructor(message: string, data?: unknown) {
    super(-32002, message, data);
  }
}

/** `-32042` (MCP): the server needs the user to open a URL first (`data.elicitations`). */
export class UrlElicitationRequiredError extends RpcError {
  static override readonly brand: string = "UrlElicitationRequiredError";
  constructor(message: string, data?: unknown) {
    super(-32042, message, data);
  }
}

/** `-32020` (MCP 2026-07-28): an HTTP header did not match the body (e.g. `MCP-Protocol-Version` vs `_meta`). */
export class HeaderMismatchError extends RpcError {
  static override readonly brand: string = "HeaderMismatchError";
  constructor(message: string, data?: unknown) {
    super(-32020, message, data);
  }
}

/** `-32021` (MCP 2026-07-28): the request needs a client capability we did not declare (`requiredCapabilities`). */
export class MissingClientCapabilityError extends RpcError {
  static override readonly brand: string = "MissingClientCapabilityError";
  /** What the server says it needs, from `data.requiredCapabilities`. */
  declare readonly requiredCapabilities: unknown;
  constructor(message: string, data?: unknown) {
    super(-32021, message, data);
    this.requiredCapabilities = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  }
}

/** `-32022` (MCP 2026-07-28): the server does not speak the requested protocol version (`supported`, `requested`). */
export class UnsupportedVersionError extends RpcError {
  static override readonly brand: string = "UnsupportedVersionError";
  declare readonly supported: string[];
  declare readonly requested: string | undefined;
  constructor(message: string, data?: unknown) {
    super(-32022, message, data);
    const d = (data ?? {}) as { supported?: unknown; requested?: unknown };
    this.supported = Array.isArray(d.supported) ? d.supported.filter((v): v is string => typeof v === "string") : [];
    this.requested = typeof d.requested === "string" ? d.requested : undefined;
  }
}

/** The JSON-RPC codes MCP 2026-07-28 reserves for itself (a server that sends one speaks the modern era). */
export const MODERN_ERROR_CODES: readonly number[] = [-32020, -32021, -32022];

const RPC_ERROR_CLASSES = new Map<number, new (message: string, data?: unknown) => RpcError>([
  [-32020, HeaderMismatchError],
  [-32021, MissingClientCapabilityError],
  [-32022, UnsupportedVersionError],
  [-32700, RpcParseError],
  [-32600, InvalidRequestError],
  [-32601, MethodNotFoundError],
  [-32602, InvalidParamsError],
  [-32603, InternalRpcError],
  [-32002, ResourceNotFoundError],
  [-32042, UrlElicitationRequiredError],
]);

/** Any thrown value as an Error: an Error as it is, anything else wrapped with a readable message. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
}

/** Standard JSON-RPC and MCP error codes. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: resource not found. */
  ResourceNotFound: -32002,
  /** MCP: URL elicitation required. */
  UrlElicitationRequired: -32042,
  /** MCP 2026-07-28: header mismatch. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: missing required client capability. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: unsupported protocol version. */
  UnsupportedProtocolVersion: -32022,
} as const;
