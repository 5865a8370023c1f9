// Errors the peer sent: `RpcError`, one class per JSON-RPC and MCP code, and `ErrorCodes`.
import { hasBrand, stamp } from "./brand.js";

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

/** The error class of each code that has one (see {@link RpcError.fromError}). */
const RPC_ERROR_CLASSES = new Map<number, new (message: string, data?: unknown) => RpcError>();

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
    super(
      message.startsWith(prefix) ? message : `${prefix}${message}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
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

/** The class of one code's errors: an {@link RpcError} with that code, told apart by `instanceof` and `isInstance`. */
export interface RpcErrorClass {
  new (message: string, data?: unknown): RpcError;
  readonly brand: string;
  /** True for an error of this class from any installed copy of this package. */
  isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T;
}

/**
 * An `RpcError` class for one code whose error carries nothing beyond its message and `data`,
 * registered so that {@link RpcError.fromError} builds it for that code.
 */
function rpcErrorClass(code: number, brand: string): RpcErrorClass {
  const Typed = class extends RpcError {
    static override readonly brand: string = brand;
    constructor(message: string, data?: unknown) {
      super(code, message, data);
    }
  };
  RPC_ERROR_CLASSES.set(code, Typed);
  return Typed;
}

/** `-32700`: the peer could not parse what we sent. */
export const RpcParseError = rpcErrorClass(ErrorCodes.ParseError, "RpcParseError");
export type RpcParseError = InstanceType<typeof RpcParseError>;
/** `-32600`: the peer found our message not a valid request. */
export const InvalidRequestError = rpcErrorClass(ErrorCodes.InvalidRequest, "InvalidRequestError");
export type InvalidRequestError = InstanceType<typeof InvalidRequestError>;
/** `-32601`: the peer does not know the method. */
export const MethodNotFoundError = rpcErrorClass(ErrorCodes.MethodNotFound, "MethodNotFoundError");
export type MethodNotFoundError = InstanceType<typeof MethodNotFoundError>;
/** `-32602`: the peer refused the params (also an unknown tool or prompt on many servers). */
export const InvalidParamsError = rpcErrorClass(ErrorCodes.InvalidParams, "InvalidParamsError");
export type InvalidParamsError = InstanceType<typeof InvalidParamsError>;
/** `-32603`: the peer failed while handling the request. */
export const InternalRpcError = rpcErrorClass(ErrorCodes.InternalError, "InternalRpcError");
export type InternalRpcError = InstanceType<typeof InternalRpcError>;
/** `-32002` (MCP): the resource does not exist. */
export const ResourceNotFoundError = rpcErrorClass(ErrorCodes.ResourceNotFound, "ResourceNotFoundError");
export type ResourceNotFoundError = InstanceType<typeof ResourceNotFoundError>;
/** `-32042` (MCP): the server needs the user to open a URL first (`data.elicitations`). */
export const UrlElicitationRequiredError = rpcErrorClass(
  ErrorCodes.UrlElicitationRequired,
  "UrlElicitationRequiredError",
);
export type UrlElicitationRequiredError = InstanceType<typeof UrlElicitationRequiredError>;
/** `-32020` (MCP 2026-07-28): an HTTP header did not match the body (e.g. `MCP-Protocol-Version` vs `_meta`). */
export const HeaderMismatchError = rpcErrorClass(ErrorCodes.HeaderMismatch, "HeaderMismatchError");
export type HeaderMismatchError = InstanceType<typeof HeaderMismatchError>;

/** `-32021` (MCP 2026-07-28): the request needs a client capability we did not declare (`requiredCapabilities`). */
export class MissingClientCapabilityError extends RpcError {
  static override readonly brand: string = "MissingClientCapabilityError";
  /** What the server says it needs, from `data.requiredCapabilities`. */
  declare readonly requiredCapabilities: unknown;
  constructor(message: string, data?: unknown) {
    super(ErrorCodes.MissingRequiredClientCapability, message, data);
    this.requiredCapabilities = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  }
}

/** `-32022` (MCP 2026-07-28): the server does not speak the requested protocol version (`supported`, `requested`). */
export class UnsupportedVersionError extends RpcError {
  static override readonly brand: string = "UnsupportedVersionError";
  declare readonly supported: string[];
  declare readonly requested: string | undefined;
  constructor(message: string, data?: unknown) {
    super(ErrorCodes.UnsupportedProtocolVersion, message, data);
    const d = (data ?? {}) as { supported?: unknown; requested?: unknown };
    this.supported = Array.isArray(d.supported) ? d.supported.filter((v): v is string => typeof v === "string") : [];
    this.requested = typeof d.requested === "string" ? d.requested : undefined;
  }
}

/** The JSON-RPC codes MCP 2026-07-28 reserves for itself (a server that sends one speaks the 2026-07-28 era). */
export const STATELESS_ERROR_CODES: readonly number[] = [
  ErrorCodes.HeaderMismatch,
  ErrorCodes.MissingRequiredClientCapability,
  ErrorCodes.UnsupportedProtocolVersion,
];

RPC_ERROR_CLASSES.set(ErrorCodes.MissingRequiredClientCapability, MissingClientCapabilityError);
RPC_ERROR_CLASSES.set(ErrorCodes.UnsupportedProtocolVersion, UnsupportedVersionError);
