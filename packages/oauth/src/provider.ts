import { inspectCustom, redactUrl } from "@mcp/jsonrpc";
import { parseBearerChallenge, type BearerChallenge } from "./challenge.js";
import { canonicalResource, discover, isObject, sameIssuer, type Discovery, type OAuthFetch } from "./discovery.js";
import { OAuthError } from "./errors.js";
import { clientAssertion, type ClientAssertionKey } from "./jwt.js";
import { createPkce, createState } from "./pkce.js";
import { MemoryTokenStore, type StoredClient, type StoredCredentials, type StoredTokens, type TokenStore } from "./storage.js";

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

const FORM = "application/x-www-form-urlencoded";
const JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/**
 * MCP authorization (revisions 2025-03-26 to 2026-07-28) as an auth provider for
 * `@mcp/transport-http`: `headers()` adds the bearer token (refreshed shortly before it expires);
 * `onUnauthorized()` runs on a `401` (refresh once, else the whole flow) or a
 * `403 insufficient_scope` (step-up), then asks for the request to be retried.
 *
 * The flow: Protected Resource Metadata → authorization server metadata (issuer checked) →
 * client registration (pre-registered, Client ID Metadata Document, or Dynamic Client
 * Registration) → authorization code with PKCE `S256`, `state`, `resource` and the `iss` check →
 * tokens, stored per issuer and server. Concurrent callers share one flow and one refresh.
 */
export class OAuthProvider {
  readonly #options: OAuthProviderOptions;
  readonly #fetch: OAuthFetch;
  readonly #store: TokenStore;
  readonly #resource: string;
  #credentials: StoredCredentials | undefined;
  #loading: Promise<void> | undefined;
  #discovery: Discovery | undefined;
  #flight: Promise<boolean> | undefined;
  #refreshing: Promise<void> | undefined;
  /** The store's stamp of the credentials when we last read or wrote them. */
  #stamp: number | undefined;
  /** The access token the last full flow produced: a 401 for it means the flow cannot help. */
  #fromFlow: string | undefined;
  /** The access token the last refresh produced: a 401 for it goes to the whole flow. */
  #fromRefresh: string | undefined;
  readonly #steppedUpTo = new Set<string>();

  constructor(options: OAuthProviderOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#store = options.store ?? new MemoryTokenStore();
    this.#resource = canonicalResource(options.serverUrl);
  }

  /** The bearer token header, refreshed first when it is about to expire; `{}` before any flow. */
  async headers(): Promise<Record<string, string>> {
    await this.#load();
    await this.#reloadIfChanged();
    const tokens = this.#credentials?.tokens;
    if (!tokens) return {};
    const margin = this.#options.refreshMarginMs ?? 60_000;
    if (tokens.expiresAt !== undefined && tokens.refreshToken !== undefined && Date.now() > tokens.expiresAt - margin) {
      try {
        await this.#refresh();
      } catch {
        // The request goes out with the old token; its 401 starts the flow.
      }
    }
    const current = this.#credentials?.tokens;
    return current ? { authorization: `Bearer ${current.accessToken}` } : {};
  }

  /** Called by the transport on a refused request: true when it should be retried. */
  onUnauthorized(context: UnauthorizedContext): Promise<boolean> {
    // Callers refused at the same time share one answer.
    this.#flight ??= this.#handle(context).finally(() => {
      this.#flight = undefined;
    });
    return this.#flight;
  }

  /** Runs the whole flow now (a CLI's `auth <server>`), without waiting for a 401. */
  async authorizeNow(): Promise<void> {
    await this.#load();
    await this.#fullFlow({}, false);
  }

  /** Forgets this server's tokens (the registered client is kept). */
  async logout(): Promise<void> {
    await this.#load();
    if (!this.#credentials) return;
    this.#credentials = { ...this.#credentials, tokens: undefined };
    await this.#store.set(this.#credentials);
  }

  /** Whether a token is at hand (it may still be refused). */
  async hasTokens(): Promise<boolean> {
    await this.#load();
    return this.#credentials?.tokens !== undefined;
  }

  /** Never prints tokens or secrets. */
  [inspectCustom](): object {
    return { serverUrl: redactUrl(this.#options.serverUrl), grant: this.#options.grant ?? "authorization_code", issuer: this.#credentials?.issuer, hasTokens: this.#credentials?.tokens !== undefined };
  }

  toJSON(): object {
    return this[inspectCustom]();
  }

  /** Reads the stored credentials once; concurrent first callers wait for the same read. */
  #load(): Promise<void> {
    this.#loading ??= this.#store.find(this.#resource).then((found) => {
      this.#credentials ??= found;
    });
    return this.#loading;
  }

  /** Reads the credentials again when another process (or store user) wrote them since we last looked. */
  async #reloadIfChanged(): Promise<void> {
    const credentials = this.#credentials;
    if (!this.#store.stamp || credentials === undefined) return;
    const stamp = await this.#store.stamp(credentials.issuer, credentials.resource);
    if (stamp === this.#stamp) return;
    this.#stamp = stamp;
    const stored = await this.#store.get(credentials.issuer, credentials.resource);
    // Only if nothing of ours changed meanwhile: our own newer write wins.
    if (stored !== undefined && this.#credentials === credentials) this.#credentials = stored;
  }

  async #handle(context: UnauthorizedContext): Promise<boolean> {
    await this.#load();
    await this.#reloadIfChanged();
    const challenge = parseBearerChallenge(context.wwwAuthenticate);
    const sent = /^Bearer (.+)$/i.exec(context.sent?.["authorization"] ?? "")?.[1];
    const current = this.#credentials?.tokens?.accessToken;
    // Someone else already got a token other than the one this request carried (or it carried
    // none): just retry with the new one.
    if (current !== undefined && sent !== current) return true;

    if (context.status === 403) {
      if (challenge.error !== "insufficient_scope") return false;
      const wanted = this.#stepUpScope(challenge.scope);
      if (this.#steppedUpTo.has(wanted) || this.#steppedUpTo.size >= (this.#options.maxStepUps ?? 3)) return false;
      this.#steppedUpTo.add(wanted);
      await this.#fullFlow({ ...challenge, scope: wanted }, true);
      return true;
    }

    // Where does this server send us now? If its authorization server changed (SEP-2352), the
    // old one's token, refresh token and client are not used with the new one.
    const issuerBefore = this.#credentials?.issuer;
    const found = await this.#discover(challenge);
    const moved = issuerBefore !== undefined && !sameIssuer(issuerBefore, found.issuer);
    const tokens = this.#credentials?.tokens;
    const retried = (context.attempt ?? 0) > 0;
    // A token this same request just got from the whole flow was refused: another flow would be
    // refused the same way (and would open another browser window).
    if (!moved && retried && sent !== undefined && sent === this.#fromFlow) return false;
    const refreshable = !moved && sent !== undefined && sent === tokens?.accessToken && tokens.refreshToken !== undefined;
    // A refresh is tried once per request: a refreshed token refused at once goes to the whole flow.
    if (refreshable && !(retried && sent === this.#fromRefresh)) {
      try {
        await this.#refresh();
        return true;
      } catch {
        // A refused refresh token: the whole flow below.
      }
    }
    await this.#fullFlow(challenge, false, found);
    return true;
  }

  /** The scopes a step-up asks for: what the token has, plus what the challenge needs. */
  #stepUpScope(needed: string | undefined): string {
    const scopes = new Set([...(this.#credentials?.tokens?.scope ?? "").split(" "), ...(needed ?? "").split(" ")].filter(Boolean));
    return [...scopes].join(" ");
  }

  async #discover(challenge: BearerChallenge): Promise<Discovery> {
    const found = await discover(this.#fetch, this.#options.serverUrl, challenge.resourceMetadata, this.#options.protocolVersion);
    this.#discovery = found;
    // Credentials of another issuer are never used with this one.
    if (!this.#credentials || !sameIssuer(this.#credentials.issuer, found.issuer)) {
      this.#credentials = (await this.#store.get(found.issuer, found.resource)) ?? { issuer: found.issuer, resource: found.resource };
    }
    return found;
  }

  async #fullFlow(challenge: BearerChallenge, stepUp: boolean, discovered?: Discovery): Promise<void> {
    const found = discovered ?? (await this.#discover(challenge));
    const scope = this.#scopeFor(challenge, found, stepUp);
    const grant = this.#options.grant ?? "authorization_code";
    const tokens = grant === "client_credentials" ? await this.#clientCredentials(found, scope) : grant === "enterprise" ? await this.#enterprise(found, scope) : await this.#authorizationCode(found, scope);
    this.#fromFlow = tokens.accessToken;
    await this.#save({ tokens });
  }

  /** Scope selection (MCP 2025-11-25): the challenge's, else `scopes_supported`, else none; `offline_access` added when the server offers it. */
  #scopeFor(challenge: BearerChallenge, found: Discovery, stepUp: boolean): string | undefined {
    let scopes: string[];
    if (this.#options.scopes) scopes = [...this.#options.scopes];
    else if (challenge.scope) scopes = challenge.scope.split(" ").filter(Boolean);
    else if (!stepUp && found.resourceMetadata?.scopes_supported) scopes = [...found.resourceMetadata.scopes_supported];
    else scopes = [];
    if ((this.#options.grant ?? "authorization_code") === "authorization_code" && found.metadata.scopes_supported?.includes("offline_access") && !scopes.includes("offline_access")) scopes.push("offline_access");
    return scopes.length > 0 ? scopes.join(" ") : undefined;
  }

  async #authorizationCode(found: Discovery, scope: string | undefined): Promise<StoredTokens> {
    const { redirectUri, authorize } = this.#options;
    if (!redirectUri || !authorize) {
      throw new OAuthError("authorization", `MCP server ${redactUrl(this.#options.serverUrl)} needs authorization, and no user step is configured to get a token (the authorize and redirectUri options; in the mcp CLI: mcp auth <server>)`);
    }
    const metadata = found.metadata;
    if (!metadata.authorization_endpoint || !metadata.token_endpoint) throw new OAuthError("metadata", `The authorization server ${redactUrl(found.issuer)} lists no authorization or token endpoint`);
    if (!found.defaultEndpoints && !(metadata.code_challenge_methods_supported ?? []).includes("S256")) {
      throw new OAuthError("metadata", `The authorization server ${redactUrl(found.issuer)} does not advertise PKCE S256 (code_challenge_methods_supported); refusing to authorize`);
    }
    const client = await this.#client(found, redirectUri);
    const pkce = createPkce();
    const state = createState();
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.clientId);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("code_challenge", pkce.challenge);
    url.searchParams.set("code_challenge_method", pkce.method);
    url.searchParams.set("state", state);
    if (scope) url.searchParams.set("scope", scope);
    url.searchParams.set("resource", found.resource);

    const answer = await authorize({ url, state, redirectUri });
    if (answer.state !== state) throw new OAuthError("authorization", "The authorization response's state does not match the request's; refusing it");
    if (answer.iss !== undefined) {
      // RFC 9207 §2.4: compared exactly, without any URL normalization.
      if (answer.iss !== found.metadata.issuer) throw new OAuthError("authorization", `The authorization response came from issuer ${redactUrl(answer.iss)}, not ${redactUrl(found.metadata.issuer)}; refusing it`);
    } else if (metadata.authorization_response_iss_parameter_supported === true) {
      throw new OAuthError("authorization", `The authorization server ${redactUrl(found.issuer)} promises an iss parameter, and the response has none; refusing it`);
    }
    return this.#token(found, client, "token", { grant_type: "authorization_code", code: answer.code, redirect_uri: redirectUri, code_verifier: pkce.verifier }, scope);
  }

  async #clientCredentials(found: Discovery, scope: string | undefined): Promise<StoredTokens> {
    const client = this.#preRegistered(found);
    if (!client) throw new OAuthError("registration", "The client_credentials grant needs a clientId");
    const params: Record<string, string> = { grant_type: "client_credentials" };
    if (scope) params["scope"] = scope;
    return this.#token(found, client, "token", params, scope);
  }

  /**
   * SEP-990: the ID token is exchanged at the identity provider for an ID-JAG (RFC 8693, audience
   * = the authorization server, resource = this server), which the authorization server takes in
   * a JWT bearer grant (RFC 7523) from this client.
   */
  async #enterprise(found: Discovery, scope: string | undefined): Promise<StoredTokens> {
    const enterprise = this.#options.enterprise;
    const client = this.#preRegistered(found);
    if (!enterprise || !client) throw new OAuthError("registration", "The enterprise grant needs the enterprise options and a clientId");
    const idToken = typeof enterprise.idToken === "function" ? await enterprise.idToken() : enterprise.idToken;
    const exchange = new URLSearchParams({ grant_type: TOKEN_EXCHANGE, subject_token: idToken, subject_token_type: ID_TOKEN_TYPE, requested_token_type: ID_JAG_TYPE, audience: found.metadata.issuer, resource: found.resource });
    if (scope) exchange.set("scope", scope);
    const headers: Record<string, string> = { "content-type": FORM, accept: "application/json" };
    if (enterprise.clientSecret !== undefined) headers["authorization"] = basicAuth(enterprise.clientId, enterprise.clientSecret);
    else exchange.set("client_id", enterprise.clientId);
    const answer = await this.#post("token", "identity provider's token endpoint", enterprise.tokenEndpoint, headers, exchange.toString(), "access_token");
    if (answer["issued_token_type"] !== undefined && answer["issued_token_type"] !== ID_JAG_TYPE) throw new OAuthError("token", `The identity provider issued a ${JSON.stringify(answer["issued_token_type"])}, not an ID-JAG`);
    const params: Record<string, string> = { grant_type: JWT_BEARER_GRANT, assertion: answer["access_token"] };
    if (scope) params["scope"] = scope;
    return this.#token(found, client, "token", params, scope);
  }

  /**
   * The client of the options (`clientId`), when there is one, with its token endpoint
   * authentication: as configured, else `private_key_jwt` with a key, the server's secret method
   * with a secret, `none` without either. Every grant and the refresh use this one answer.
   */
  #preRegistered(found: Discovery): StoredClient | undefined {
    const { clientId, clientSecret, clientAssertionKey, tokenEndpointAuthMethod } = this.#options;
    if (!clientId) return undefined;
    const method = tokenEndpointAuthMethod ?? (clientAssertionKey ? "private_key_jwt" : clientSecret ? this.#secretMethod(found) : "none");
    return { clientId, clientSecret, tokenEndpointAuthMethod: method };
  }

  /** `client_secret_basic` unless the server lists only `client_secret_post`. */
  #secretMethod(found: Discovery): string {
    const supported = found.metadata.token_endpoint_auth_methods_supported;
    return supported && !supported.includes("client_secret_basic") && supported.includes("client_secret_post") ? "client_secret_post" : "client_secret_basic";
  }

  /** Registration in the spec's order: pre-registered, a Client ID Metadata Document, then Dynamic Client Registration. */
  async #client(found: Discovery, redirectUri: string): Promise<StoredClient> {
    const options = this.#options;
    const configured = this.#preRegistered(found);
    if (configured) return { ...configured, redirectUri };
    if (options.clientMetadataUrl && found.metadata.client_id_metadata_document_supported === true) {
      return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none", redirectUri };
    }
    const known = this.#credentials?.client;
    if (known && known.redirectUri === redirectUri) return known;
    const endpoint = found.metadata.registration_endpoint;
    if (!endpoint) {
      throw new OAuthError("registration", `The authorization server ${redactUrl(found.issuer)} offers no way to register this client (no Client ID Metadata Document support, no registration_endpoint); configure a clientId`);
    }
    const supported = found.metadata.token_endpoint_auth_methods_supported;
    const wanted = (supported ? ["client_secret_basic", "client_secret_post", "none"].find((m) => supported.includes(m)) : undefined) ?? "client_secret_basic";
    const registration = JSON.stringify({
      client_name: options.clientName ?? "mcp-client-stack",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: wanted,
      // SEP-837: a loopback redirect is a native application's; anything else a web one's.
      application_type: isLoopback(redirectUri) ? "native" : "web",
    });
    const body = await this.#post("registration", "registration endpoint", endpoint, { "content-type": "application/json", accept: "application/json" }, registration, "client_id");
    const client: StoredClient = {
      clientId: body["client_id"],
      clientSecret: typeof body["client_secret"] === "string" ? body["client_secret"] : undefined,
      tokenEndpointAuthMethod: typeof body["token_endpoint_auth_method"] === "string" ? body["token_endpoint_auth_method"] : wanted,
      redirectUri,
    };
    await this.#save({ client });
    return client;
  }

  async #refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      if (this.#credentials?.tokens?.refreshToken === undefined) throw new OAuthError("refresh", "No refresh token");
      const found = this.#discovery ?? (await this.#discover({}));
      const refreshOnce = async (): Promise<void> => {
        // Under the lock, what the store holds now: another process may have refreshed already
        // (and, with rotating refresh tokens, spent the one we hold).
        const spent = this.#credentials?.tokens?.accessToken;
        const stored = await this.#store.get(found.issuer, this.#resource);
        if (stored?.tokens !== undefined && stored.tokens.accessToken !== spent) {
          this.#credentials = stored;
          this.#stamp = await this.#store.stamp?.(found.issuer, this.#resource);
          return;
        }
        const refreshToken = this.#credentials?.tokens?.refreshToken;
        if (refreshToken === undefined) throw new OAuthError("refresh", "No refresh token");
        const client = this.#credentials?.client ?? this.#preRegistered(found);
        if (!client) throw new OAuthError("refresh", "No client to refresh the token with");
        const tokens = await this.#token(found, client, "refresh", { grant_type: "refresh_token", refresh_token: refreshToken }, this.#credentials?.tokens?.scope);
        // A server may keep the refresh token the same and not send it again.
        this.#fromRefresh = tokens.accessToken;
        await this.#save({ tokens: { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken } });
      };
      await (this.#store.lock ? this.#store.lock(found.issuer, this.#resource, refreshOnce) : refreshOnce());
    })().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** One token request, authenticated as the client's method says. */
  async #token(found: Discovery, client: StoredClient, step: "token" | "refresh", params: Record<string, string>, scope: string | undefined): Promise<StoredTokens> {
    const endpoint = found.metadata.token_endpoint;
    if (!endpoint) throw new OAuthError("metadata", `The authorization server ${redactUrl(found.issuer)} lists no token endpoint`);
    const body = new URLSearchParams(params);
    body.set("resource", found.resource);
    const headers: Record<string, string> = { "content-type": FORM, accept: "application/json" };
    switch (client.tokenEndpointAuthMethod) {
      case "client_secret_basic":
        headers["authorization"] = basicAuth(client.clientId, client.clientSecret ?? "");
        break;
      case "client_secret_post":
        body.set("client_id", client.clientId);
        body.set("client_secret", client.clientSecret ?? "");
        break;
      case "private_key_jwt": {
        const key = this.#options.clientAssertionKey;
        if (!key) throw new OAuthError(step, "private_key_jwt needs a clientAssertionKey");
        body.set("client_id", client.clientId);
        body.set("client_assertion_type", JWT_BEARER);
        body.set("client_assertion", clientAssertion(key, client.clientId, found.issuer));
        break;
      }
      default:
        body.set("client_id", client.clientId);
    }
    const answer = await this.#post(step, "token endpoint", endpoint, headers, body.toString(), "access_token");
    const tokenType = typeof answer["token_type"] === "string" ? answer["token_type"] : "Bearer";
    if (tokenType.toLowerCase() !== "bearer") throw new OAuthError(step, `The token endpoint ${redactUrl(endpoint)} issued a ${tokenType} token; only Bearer tokens are supported`);
    const expiresIn = typeof answer["expires_in"] === "number" ? answer["expires_in"] : Number(answer["expires_in"]);
    return {
      accessToken: answer["access_token"],
      tokenType: "Bearer",
      refreshToken: typeof answer["refresh_token"] === "string" ? answer["refresh_token"] : undefined,
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
      scope: typeof answer["scope"] === "string" ? answer["scope"] : scope,
    };
  }

  /**
   * One POST to an endpoint of the authorization flow, answered with a JSON object holding the
   * string `field`. Anything else is an {@link OAuthError} for `step`, with the server's `error`.
   */
  async #post<F extends string>(step: "registration" | "token" | "refresh", what: string, endpoint: string, headers: Record<string, string>, body: string, field: F): Promise<Record<string, unknown> & Record<F, string>> {
    let response: Response;
    try {
      response = await this.#fetch(endpoint, { method: "POST", headers, body });
    } catch (cause) {
      throw new OAuthError(step, `Could not reach the ${what} ${redactUrl(endpoint)}`, { url: redactUrl(endpoint), cause });
    }
    const answer = await readJson(response);
    if (!response.ok || typeof answer?.[field] !== "string") throw refused(step, what, endpoint, response.status, answer);
    return answer as Record<string, unknown> & Record<F, string>;
  }

  async #save(change: Partial<StoredCredentials>): Promise<void> {
    const found = this.#discovery;
    const base = this.#credentials ?? { issuer: found?.issuer ?? "", resource: this.#resource };
    this.#credentials = { ...base, ...change };
    await this.#store.set(this.#credentials);
    this.#stamp = await this.#store.stamp?.(this.#credentials.issuer, this.#credentials.resource);
  }
}

/** `client_secret_basic` (RFC 6749 §2.3.1): both parts form-encoded, then base64. */
function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

function isLoopback(uri: string): boolean {
  try {
    const host = new URL(uri).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.json();
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An endpoint's refusal, with its `error` / `error_description` (never the request's secrets). */
function refused(step: "registration" | "token" | "refresh", what: string, endpoint: string, status: number, body: Record<string, unknown> | undefined): OAuthError {
  const code = typeof body?.["error"] === "string" ? body["error"] : undefined;
  const description = typeof body?.["error_description"] === "string" ? body["error_description"] : undefined;
  const reason = code ? `${code}${description ? ` (${description})` : ""}` : `HTTP ${status}`;
  return new OAuthError(step, `The ${what} ${redactUrl(endpoint)} refused: ${reason}`, { url: redactUrl(endpoint), status, oauthError: code, oauthErrorDescription: description });
}
