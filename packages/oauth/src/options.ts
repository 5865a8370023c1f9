import type { Discovery, OAuthFetch } from "./discovery.js";
import type { ClientAssertionKey } from "./jwt.js";
import type { StoredClient, TokenStore } from "./token-store.js";

// The provider's options and the shapes of its user step.

/** The user step: what to open, and where the answer will come back. */
export interface AuthorizationRequest {
  /** The authorization URL to open in a browser. */
  url: URL;
  /** The `state` sent; the answer must carry it back. */
  state: string;
  redirectUri: string;
}

/** What came back to the redirect URI. */
export interface AuthorizationResponse {
  code: string;
  state?: string | undefined;
  /** The `iss` parameter (RFC 9207), when the server sent one. */
  iss?: string | undefined;
}

/** Runs the user step: open `request.url`, wait for the redirect, return its parameters. */
export type Authorize = (request: AuthorizationRequest) => Promise<AuthorizationResponse>;

/** What the HTTP transport tells the provider about a refused request. */
export interface UnauthorizedContext {
  url: string;
  /** `401`, or `403` with an `insufficient_scope` challenge. */
  status: number;
  wwwAuthenticate: string | undefined;
  /** The provider's headers that request carried. */
  sent?: Record<string, string> | undefined;
  /** How many times this request was already retried after `onUnauthorized` (0 the first time). */
  attempt?: number | undefined;
}

/** The identity provider side of the `enterprise` grant (SEP-990). */
export interface EnterpriseOptions {
  /** The user's ID token from the enterprise identity provider (or a function that gets a fresh one). */
  idToken: string | (() => string | Promise<string>);
  /** The identity provider's token endpoint, where the token exchange happens. */
  tokenEndpoint: string;
  /** This client's id at the identity provider. */
  clientId: string;
  clientSecret?: string | undefined;
}

/** Options of {@link OAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server's URL: the protected resource. */
  serverUrl: string;
  /**
   * `authorization_code` (default, a user in a browser), `client_credentials` (machine to
   * machine), or `enterprise` (SEP-990 Enterprise-Managed Authorization: the user's identity
   * provider ID token is exchanged for an ID-JAG, which the authorization server takes in a JWT
   * bearer grant; see `enterprise`).
   */
  grant?: "authorization_code" | "client_credentials" | "enterprise" | undefined;
  /** For the `enterprise` grant: where and how to exchange the ID token (RFC 8693). */
  enterprise?: EnterpriseOptions | undefined;
  /** Where the authorization server sends the user back (a loopback URL for a CLI). Needed for `authorization_code`. */
  redirectUri?: string | undefined;
  /** The user step (see `loopbackAuthorize`, `printAuthorize`). Needed for `authorization_code`. */
  authorize?: Authorize | undefined;
  /** A pre-registered client id; used before anything else. */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** Forces the token endpoint authentication; by default it follows the server's metadata. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt" | undefined;
  /** A key for `private_key_jwt` (with `clientId`). */
  clientAssertionKey?: ClientAssertionKey | undefined;
  /** An HTTPS URL hosting this client's Client ID Metadata Document, used when the server supports them. */
  clientMetadataUrl?: string | undefined;
  /** The name registered with Dynamic Client Registration. */
  clientName?: string | undefined;
  /** Scopes to ask for instead of choosing them from the challenge and the metadata. */
  scopes?: string[] | undefined;
  /** Where credentials are kept (default: memory only). `FileTokenStore` keeps them between runs. */
  store?: TokenStore | undefined;
  fetch?: OAuthFetch | undefined;
  /** How many `403 insufficient_scope` step-ups in a row before a request fails (default 3). */
  maxStepUps?: number | undefined;
  /** Refresh this long before the access token expires (default 60 s). */
  refreshMarginMs?: number | undefined;
  /** Sent as `MCP-Protocol-Version` on discovery requests. */
  protocolVersion?: string | undefined;
}

/** What a grant needs from the provider. */
export interface GrantContext {
  readonly options: OAuthProviderOptions;
  readonly fetch: OAuthFetch;
  /** The client for this redirect URI: pre-registered, a metadata document, or registered now. */
  client(found: Discovery, redirectUri: string): Promise<StoredClient>;
}
