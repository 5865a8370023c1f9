// `RegistryError`: what failed talking to the registry, and where.
import { McpError, type McpErrorCode } from "@mcp/jsonrpc";

/** Every `code` of an error this package gives: its own (`"registry_error"`) and `@mcp/jsonrpc`'s. */
export type RegistryErrorCode = "registry_error" | McpErrorCode;

/**
 * What went wrong with the registry or one of its documents:
 * - `invalid_url`: the registry's base URL is not an http(s) URL (or carries a user name or password);
 * - `network`, `timeout`, `http`, `not_found`, `too_large`, `invalid_response`: asking the registry;
 * - `unsupported_package`: no package or remote we can run (or not the one asked for); `available` lists what there is;
 * - `invalid_server`: a `server.json` we will not turn into a config (a field we need is missing or unsafe);
 * - `secret_value`, `invalid_value`, `unknown_input`: a value given for one of the server's inputs;
 * - `retired`: the version asked for is deprecated or deleted (`installFromRegistry` without `force`).
 */
export type RegistryFailure =
  | "invalid_url"
  | "network"
  | "timeout"
  | "http"
  | "not_found"
  | "too_large"
  | "invalid_response"
  | "unsupported_package"
  | "invalid_server"
  | "secret_value"
  | "invalid_value"
  | "unknown_input"
  | "retired";

/** A failure of the registry client or of {@link configFromRegistry}; `code` is `"registry_error"`, `reason` says which. */
export class RegistryError extends McpError<"registry_error"> {
  static override readonly brand: string = "RegistryError";
  declare readonly reason: RegistryFailure;
  /** The registry asked (its base URL, any password removed), when one was. */
  declare readonly registry: string | undefined;
  /** The HTTP status, for `http` and `not_found`. */
  declare readonly status: number | undefined;
  /** For `unsupported_package`: what the server offers (`npm`, `pypi`, `oci`, `nuget`, `mcpb`, `remote`, …). */
  declare readonly available: string[] | undefined;

  constructor(
    reason: RegistryFailure,
    message: string,
    details: {
      registry?: string | undefined;
      status?: number | undefined;
      available?: string[] | undefined;
      cause?: unknown;
    } = {},
  ) {
    super("registry_error", message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.registry = details.registry;
    this.status = details.status;
    this.available = details.available;
  }

  /**
   * Whether what the caller asked for was wrong (`not_found`, `unsupported_package`, a value:
   * `secret_value`, `invalid_value`, `unknown_input`; `invalid_url`; `retired`) rather than the registry or its
   * document failing: a CLI's usage error.
   */
  get usage(): boolean {
    return USAGE.has(this.reason);
  }
}

const USAGE = new Set<RegistryFailure>([
  "not_found",
  "unsupported_package",
  "secret_value",
  "invalid_value",
  "unknown_input",
  "invalid_url",
  "retired",
]);
