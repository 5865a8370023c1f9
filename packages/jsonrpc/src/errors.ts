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

const BRANDS = Symbol.for("@mcp/jsonrpc/error-brands");

type Branded = { [BRANDS]?: readonly string[] };

function brandsOf(ctor: unknown): string[] {
  const brands: string[] = [];
  let current: unknown = ctor;
  while (typeof current === "function") {
    const brand = (current as { brand?: unknown }).brand;
    if (Object.prototype.hasOwnProperty.call(current, "brand") && typeof brand === "string") brands.push(brand);
    current = Object.getPrototypeOf(current);
  }
  return brands;
}

function stamp(error: Error, ctor: unknown): void {
  Object.defineProperty(error, BRANDS, { value: Object.freeze(brandsOf(ctor)), enumerable: false });
}

function hasBrand(ctor: { brand?: string }, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Object.prototype.hasOwnProperty.call(ctor, "brand")) {
    // A subclass written elsewhere without its own brand: plain prototype check.
    return Function.prototype[Symbol.hasInstance].call(ctor, value);
  }
  const brands = (value as Branded)[BRANDS];
  return Array.isArray(brands) && brands.includes(ctor.brand);
}

/** Stable string codes of {@link McpError}. */
export type McpErrorCode =
  | "transport_closed"
  | "request_timeout"
  | "no_response"
  | "http_error"
  | "session_expired"
  | "parse_error"
  | "invalid_message"
  | "message_too_large"
  | "spawn_failed"
  | "connection_timeout"
  | "unsupported_protocol_version"
  | "capability_not_supported"
  | "pagination_error"
  | "invalid_config"
  | "unknown";

/** Base of every local error in the stack. */
export class McpError extends Error {
  static readonly brand: string = "McpError";
  /** Stable machine-readable code; switch on this, not on the message. */
  readonly code: McpErrorCode;

  constructor(code: McpErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
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
  readonly exitCode: number | null | undefined;
  /** Signal that ended a child process, when one died. */
  readonly signal: string | null | undefined;
  /** Last lines a child process wrote to stderr, when captured. */
  readonly stderrTail: string | undefined;

  constructor(options: { cause?: unknown; exitCode?: number | null; signal?: string | null; stderrTail?: string; detail?: string } = {}) {
    super("transport_closed", TransportClosedError.describe(options), options);
    this.exitCode = options.exitCode;
    this.signal = options.signal;
    this.stderrTail = options.stderrTail;
  }

  private static describe(o: { exitCode?: number | null; signal?: string | null; stderrTail?: string; detail?: string }): string {
    // The message starts with the seed's exact text; what follows only helps a human.
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

/** Which clock ran out; chooses the seed's message. */
export type TimeoutKind = "request" | "sse" | "notify";

/**
 * A request, SSE response or notification took longer than allowed.
 * Messages: `Request timeout after <n>ms`, `SSE response timeout after <n>ms`, `Notify timeout after <n>ms`.
 */
export class RequestTimeoutError extends McpError {
  static override readonly brand: string = "RequestTimeoutError";
  readonly timeout: number;
  readonly kind: TimeoutKind;
  readonly method: string | undefined;

  constructor(timeout: number, options: { kind?: TimeoutKind; method?: string; cause?: unknown } = {}) {
    const kind = options.kind ?? "request";
    const prefix = kind === "sse" ? "SSE response timeout" : kind === "notify" ? "Notify timeout" : "Request timeout";
    super("request_timeout", `${prefix} after ${timeout}ms`, options);
    this.timeout = timeout;
    this.kind = kind;
    this.method = options.method;
  }
}

/** A response stream ended without the awaited response. Message: `No response received for request ID <id>`. */
export class NoResponseError extends McpError {
  static override readonly brand: string = "NoResponseError";
  readonly requestId: string | number;

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
  readonly status: number;
  readonly statusText: string;
  /** The response body (as text), possibly empty. */
  readonly body: string;
  readonly url: string | undefined;
  /** The `WWW-Authenticate` header, when present (401/403). */
  readonly wwwAuthenticate: string | undefined;
  /** The `Mcp-Auth-Server` header, when present. */
  readonly mcpAuthServer: string | undefined;

  constructor(details: HttpErrorDetails, code: McpErrorCode = "http_error", messageOverride?: string) {
    super(code, messageOverride ?? HttpError.describe(details), details);
    this.status = details.status;
    this.statusText = details.statusText ?? "";
    this.body = details.body ?? "";
    this.url = details.url;
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

  /** The readable part of a body: a JSON-RPC error's message when the body is one, else the text. */
  private static reasonOf(body: string): string {
    const text = body.trim();
    if (text.startsWith("{")) {
      try {
        const value = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
        const { code, message } = value.error ?? {};
        if (typeof message === "string" && message !== "") return typeof code === "number" ? `${message} (JSON-RPC error ${code})` : message;
      } catch {
        // Not JSON after all: show it as text.
      }
    }
    return text;
  }
}

/**
 * The server no longer knows the session (`404` on a request that carried `Mcp-Session-Id`).
 * The layer above should start a new session; the transport never does.
 */
export class SessionExpiredError extends HttpError {
  static override readonly brand: string = "SessionExpiredError";
  readonly sessionId: string;

  constructor(sessionId: string, details: HttpErrorDetails) {
    super(details, "session_expired", `Session expired: ${sessionId} (HTTP ${details.status})`);
    this.sessionId = sessionId;
  }
}

/** Bytes that should have been JSON were not. Quotes the start of the input. */
export class ParseError extends McpError {
  static override readonly brand: string = "ParseError";
  /** The first characters of the offending input. */
  readonly snippet: string;
  /** Where it came from: "stdout line", "HTTP response body", "SSE event", … */
  readonly source: string;

  constructor(source: string, input: string, options: { cause?: unknown } = {}) {
    const snippet = input.length > 200 ? `${input.slice(0, 200)}…` : input;
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : "";
    super("parse_error", `Invalid JSON in ${source}${reason}; starts with ${JSON.stringify(snippet)}`, options);
    this.snippet = snippet;
    this.source = source;
  }
}

/** Valid JSON that is not a JSON-RPC message. */
export class InvalidMessageError extends McpError {
  static override readonly brand: string = "InvalidMessageError";
  readonly reason: string;

  constructor(source: string, reason: string, options: { cause?: unknown } = {}) {
    super("invalid_message", `Invalid JSON-RPC message in ${source}: ${reason}`, options);
    this.reason = reason;
  }
}

/** A frame was larger than the configured limit. */
export class MessageTooLargeError extends McpError {
  static override readonly brand: string = "MessageTooLargeError";
  readonly size: number;
  readonly limit: number;

  constructor(size: number, limit: number, source = "message") {
    super("message_too_large", `${source} of at least ${size} bytes exceeds the limit of ${limit} bytes; it was discarded`);
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
  readonly code: number;
  readonly data: unknown;
  /** The peer's own message, without the `MCP error <code>: ` prefix. */
  readonly rpcMessage: string;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    // Servers on the official SDK already prefix their message the same way: say it once.
    const prefix = `MCP error ${code}: `;
    super(message.startsWith(prefix) ? message : `${prefix}${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = data;
    this.rpcMessage = message;
    this.name = new.target.name;
    stamp(this, new.target);
  }

  /** Builds an RpcError from a wire error object. */
  static fromError(error: { code: number; message: string; data?: unknown }): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }

  /** True for an RpcError (or subclass) from any installed copy of this package. */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return hasBrand(this as { brand?: string }, value);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }
}

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
} as const;
