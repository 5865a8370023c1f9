import { hasBrand, stamp } from "./brand.js";

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
