import type { Discovery, OAuthFetch } from "./discovery.js";
import type { DpopKey } from "./dpop.js";
import type { ClientAssertionKey } from "./jwt.js";
import type { ProfileChoice } from "./profile.js";
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
  /** A header of the refusal, such as `dpop-nonce`. */
  header?: ((name: string) => string | undefined) | undefined;
}

/** The request a provider's headers are for (a DPoP proof signs its method, URL and body). */
export interface AuthRequest {
  method: string;
  url: string;
  body?: string | undefined;
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

/** What the user is told: where to go and which code to enter (RFC 8628 §3.2–3.3). */
export interface DeviceCodePrompt {
  userCode: string;
  verificationUri: string;
  /** The verification URI with the code in it, when the server gives one (for a QR code or a link). */
  verificationUriComplete?: string | undefined;
  /** Seconds until the code expires. */
  expiresIn: number;
}

/** The user's side of the `device_code` grant. */
export interface DeviceOptions {
  /** Tells the user where to go and which code to enter; the grant then polls until they have. */
  onCode(prompt: DeviceCodePrompt): void;
  /** Aborts the polling (the grant rejects with an `OAuthError`). */
  signal?: AbortSignal | undefined;
}

/** The workload's credential for the `workload_identity` grant. */
export interface WorkloadIdentityOptions {
  /**
   * The workload's JWT (audience: the authorization server), or a function that gets a fresh
   * one each time a token is needed, e.g. reading the file a Kubernetes projected service
   * account token is rotated into.
   */
  token: string | (() => string | Promise<string>);
}

/** Options of {@link OAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server's URL: the protected resource. */
  serverUrl: string;
  /**
   * `authorization_code` (default, a user in a browser), `client_credentials` (machine to
   * machine), `enterprise` (SEP-990 Enterprise-Managed Authorization: the user's identity
   * provider ID token is exchanged for an ID-JAG, which the authorization server takes in a JWT
   * bearer grant; see `enterprise`), or `workload_identity` (Workload Identity Federation: the
   * workload's own JWT from its platform is the grant, RFC 7523; see `workloadIdentity`).
   */
  grant?: "authorization_code" | "client_credentials" | "device_code" | "enterprise" | "workload_identity" | undefined;
  /**
   * For the `device_code` grant (RFC 8628; a machine with no browser, or no keyboard): `onCode`
   * shows the user the code to enter and where; `signal` stops the polling.
   */
  device?: DeviceOptions | undefined;
  /** For the `enterprise` grant: where and how to exchange the ID token (RFC 8693). */
  enterprise?: EnterpriseOptions | undefined;
  /** For the `workload_identity` grant: the workload's JWT. */
  workloadIdentity?: WorkloadIdentityOptions | undefined;
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
  /**
   * How long one request of the flow (discovery, metadata, registration, token, refresh) may take,
   * its answer's body included, in ms (default 30 000). One that takes longer fails the flow with
   * `OAuthError` "no answer within …"; the next `401` starts again. Answers are also read up to
   * 1 MiB only.
   */
  timeoutMs?: number | undefined;
  /** How many `403 insufficient_scope` step-ups in a row before a request fails (default 3). */
  maxStepUps?: number | undefined;
  /** Refresh this long before the access token expires (default 60 s). */
  refreshMarginMs?: number | undefined;
  /**
   * DPoP (RFC 9449; the MCP extension `io.modelcontextprotocol/auth/dpop`): tokens bound to a
   * key of this client, presented with a fresh signed proof on every request, so a leaked token
   * is useless alone. `true` requires it (an authorization server that does not list `ES256` in
   * `dpop_signing_alg_values_supported` is an error); `false` never uses it. By default
   * (`undefined`) it is used when the MCP server's challenge offers the `DPoP` scheme and the
   * authorization server lists `ES256`. The key is stored with the tokens.
   */
  dpop?: boolean | undefined;
  /**
   * The identity-provider profile (`"entra"`, `"cognito"`, `"okta"`, `"auth0"`, `"keycloak"`,
   * `"google"`, `"github"`, or a `ProviderProfile` of one's own): what that provider does
   * differently (no `resource`, `.default` scopes, no metadata document…). By default it is
   * detected from the authorization server's issuer; `false` applies none.
   */
  profile?: ProfileChoice;
  /** Sent as `MCP-Protocol-Version` on discovery requests. */
  protocolVersion?: string | undefined;
}

/** What a grant needs from the provider. */
export interface GrantContext {
  readonly options: OAuthProviderOptions;
  readonly fetch: OAuthFetch;
  /** The client for this redirect URI: pre-registered, a metadata document, or registered now. */
  client(found: Discovery, redirectUri: string | undefined): Promise<StoredClient>;
  /** The DPoP key this flow binds its tokens to, when it uses DPoP. */
  dpopKey(): DpopKey | undefined;
}
