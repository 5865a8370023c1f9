// `OAuthError`: which step of authorization failed, and why.
import { McpError, type McpErrorCode } from "@mcp/jsonrpc";

/** Every `code` of an error this package gives: its own (`"oauth_error"`) and `@mcp/jsonrpc`'s. */
export type OAuthErrorCode = "oauth_error" | McpErrorCode;

/** The step of the authorization flow an {@link OAuthError} happened in. */
export type OAuthStep = "discovery" | "metadata" | "registration" | "authorization" | "token" | "refresh" | "storage";

/**
 * Authorization against an MCP server failed. `step` says where; `oauthError` and
 * `oauthErrorDescription` carry the authorization server's `error` / `error_description` when it
 * sent them. Messages never contain tokens, codes, secrets or verifiers.
 */
export class OAuthError extends McpError<"oauth_error"> {
  static override readonly brand: string = "OAuthError";
  declare readonly step: OAuthStep;
  /** The URL of the request that failed, when one did (query values that look like secrets hidden). */
  declare readonly url: string | undefined;
  /** The HTTP status of that request's answer. */
  declare readonly status: number | undefined;
  /** The authorization server's `error` code (RFC 6749 §5.2), e.g. `invalid_grant`. */
  declare readonly oauthError: string | undefined;
  declare readonly oauthErrorDescription: string | undefined;

  constructor(
    step: OAuthStep,
    message: string,
    options: {
      url?: string | undefined;
      status?: number | undefined;
      oauthError?: string | undefined;
      oauthErrorDescription?: string | undefined;
      cause?: unknown;
    } = {},
  ) {
    super("oauth_error", message, options);
    this.step = step;
    this.url = options.url;
    this.status = options.status;
    this.oauthError = options.oauthError;
    this.oauthErrorDescription = options.oauthErrorDescription;
  }
}
