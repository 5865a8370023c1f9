/**
 * Typed errors for the whole stack.
 *
 * Two families, as in JSON-RPC itself:
 * - {@link McpError} and its subclasses: local failures with a stable string `code`
 *   (`"transport_closed"`, `"request_timeout"`, `"http_error"`, …). The general ones are here;
 *   `HttpError` is in http-error.ts, `NetworkError` and `ProxyError` in network-error.ts.
 * - `RpcError` (rpc-error.ts): an error the peer sent on the wire; keeps the numeric JSON-RPC
 *   `code` and `data`.
 *
 * `instanceof` works across two installed copies of this package: every class is branded
 * (brand.ts) with a `Symbol.for` key and checks the brand, and each has a static `isInstance`.
 */
import { hasBrand, stamp } from "./brand.js";

/**
 * The stable string codes of this package's errors. Each package above declares its own codes and
 * composes the ones below it (`TransportStdioErrorCode` = `"spawn_failed"` | these,
 * `ClientErrorCode` = the client's own | both transports', and so on up), so a new error upstairs
 * never edits this package.
 */
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
  | "invalid_config";

/**
 * Base of every local error in the stack. `Code` is the class's code (or codes): a subclass
 * names its own (`class SpawnError extends McpError<"spawn_failed">`); a plain `McpError` may carry
 * any layer's, so its `code` is a `string` (narrow with `instanceof`, or against a package's union).
 */
export class McpError<Code extends string = string> extends Error {
  static readonly brand: string = "McpError";
  /** Stable machine-readable code; switch on this, not on the message. */
  declare readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
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
export class TransportClosedError extends McpError<"transport_closed"> {
  static override readonly brand: string = "TransportClosedError";
  /** Exit code of a child process, when one died. */
  declare readonly exitCode: number | null | undefined;
  /** Signal that ended a child process, when one died. */
  declare readonly signal: string | null | undefined;
  /** Last lines a child process wrote to stderr, when captured. */
  declare readonly stderrTail: string | undefined;

  constructor(
    options: {
      cause?: unknown;
      exitCode?: number | null;
      signal?: string | null;
      stderrTail?: string;
      detail?: string;
    } = {},
  ) {
    super("transport_closed", TransportClosedError.describe(options), options);
    this.exitCode = options.exitCode;
    this.signal = options.signal;
    this.stderrTail = options.stderrTail;
  }

  private static describe(o: {
    exitCode?: number | null;
    signal?: string | null;
    stderrTail?: string;
    detail?: string;
  }): string {
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
export class RequestTimeoutError extends McpError<"request_timeout"> {
  static override readonly brand: string = "RequestTimeoutError";
  /** The budget that ran out, in ms. */
  declare readonly timeout: number;
  /** The method of the request, when it was one. */
  declare readonly method: string | undefined;

  constructor(
    timeout: number,
    options: { label?: string | undefined; method?: string | undefined; cause?: unknown } = {},
  ) {
    super("request_timeout", `${options.label ?? "Request"} timeout after ${timeout}ms`, options);
    this.timeout = timeout;
    this.method = options.method;
  }
}

/**
 * A response stream ended without the awaited response. Message: `No response received for
 * request ID <id>`. The server took the request (it answered it, with no response in the answer),
 * so `mayHaveRun` is always true: check before sending a call with side effects again.
 */
export class NoResponseError extends McpError<"no_response"> {
  static override readonly brand: string = "NoResponseError";
  declare readonly requestId: string | number;
  /** Always true: the server took the request, which may have run (as a `NetworkError`'s `mayHaveRun`). */
  declare readonly mayHaveRun: true;

  constructor(requestId: string | number, options: { cause?: unknown } = {}) {
    super("no_response", `No response received for request ID ${requestId}`, options);
    this.requestId = requestId;
    this.mayHaveRun = true;
  }
}

/** Bytes that should have been JSON were not. Quotes the start of the input. */
export class ParseError extends McpError<"parse_error"> {
  static override readonly brand: string = "ParseError";
  /** The first characters of the offending input. */
  declare readonly snippet: string;
  /** Where it came from: "stdout line", "HTTP response body", "SSE event", … */
  declare readonly source: string;
  /** The HTTP status of the response that carried the input, when there was one. */
  declare readonly status: number | undefined;

  /** `message` replaces the default `Invalid JSON in <source>: <reason>; starts with "<snippet>"`. */
  constructor(
    source: string,
    input: string,
    options: { cause?: unknown; status?: number | undefined; message?: string | undefined } = {},
  ) {
    const snippet = input.length > 200 ? `${input.slice(0, 200)}…` : input;
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : "";
    super(
      "parse_error",
      options.message ?? `Invalid JSON in ${source}${reason}; starts with ${JSON.stringify(snippet)}`,
      options,
    );
    this.snippet = snippet;
    this.source = source;
    this.status = options.status;
  }
}

/** A configuration value is missing or wrong. Names the server (when known), the field, and the file it came from (when it came from one). */
export class InvalidConfigError<Code extends string = string> extends McpError<Code> {
  static override readonly brand: string = "InvalidConfigError";
  declare readonly serverName: string | undefined;
  /** The offending field, e.g. `"timeout"`, `"type"`, `"command"` (a dotted path inside a file, e.g. `"alice.token"`). */
  declare readonly field: string | undefined;
  /** The file the value was read from, when it was (e.g. the gateway's callers file). */
  declare readonly file: string | undefined;

  constructor(
    message: string,
    options: {
      serverName?: string | undefined;
      field?: string | undefined;
      file?: string | undefined;
      code?: Code;
      cause?: unknown;
    } = {},
  ) {
    const named = options.serverName === undefined || message.includes(`MCP server "${options.serverName}"`);
    // A subclass passes its own code (`UnknownServerTypeError`); this class's is "invalid_config".
    super(
      options.code ?? ("invalid_config" as Code),
      named ? message : `MCP server "${options.serverName}": ${message}`,
      options,
    );
    this.serverName = options.serverName;
    this.field = options.field;
    this.file = options.file;
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
export class InvalidMessageError extends McpError<"invalid_message"> {
  static override readonly brand: string = "InvalidMessageError";
  declare readonly reason: string;

  constructor(source: string, reason: string, options: { cause?: unknown } = {}) {
    super("invalid_message", `Invalid JSON-RPC message in ${source}: ${reason}`, options);
    this.reason = reason;
  }
}

/** A frame was larger than the configured limit. */
export class MessageTooLargeError extends McpError<"message_too_large"> {
  static override readonly brand: string = "MessageTooLargeError";
  declare readonly size: number;
  declare readonly limit: number;

  /** `option` names the setting that raises the limit, e.g. `"maxLineBytes"`. */
  constructor(size: number, limit: number, source = "message", option?: string) {
    super(
      "message_too_large",
      `${source} of at least ${size} bytes exceeds the limit of ${limit} bytes; it was discarded${option ? ` (raise the limit with the "${option}" option)` : ""}`,
    );
    this.size = size;
    this.limit = limit;
  }
}

/** Any thrown value as an Error: an Error as it is, anything else wrapped with a readable message. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
}
