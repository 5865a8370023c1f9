// `OAuthProvider`: the 401/403 policy, registration order, refresh and storage of tokens.
import { inspectCustom, redactUrl } from "@mcp/jsonrpc/internal";
import { parseBearerChallenge, type BearerChallenge } from "./challenge.js";
import { canonicalResource, discover, sameIssuer, type Discovery, type OAuthFetch } from "./discovery.js";
import { OAuthError } from "./errors.js";
import { DEFAULT_OAUTH_TIMEOUT_MS, withDeadline } from "./http.js";
import { authorizationCodeGrant } from "./grant-authorization-code.js";
import { clientCredentialsGrant } from "./grant-client-credentials.js";
import { deviceCodeGrant } from "./grant-device.js";
import { enterpriseGrant } from "./grant-enterprise.js";
import { workloadIdentityGrant } from "./grant-workload.js";
import { DpopKey, type EcJwk } from "./dpop.js";
import type { AuthRequest, GrantContext, OAuthProviderOptions, UnauthorizedContext } from "./options.js";
import { profileNamed } from "./profile.js";
import { chooseScope, registerClient } from "./registration.js";
import { MemoryTokenStore, type StoredClient, type StoredCredentials, type TokenStore } from "./token-store.js";
import { preRegisteredClient, requestToken } from "./token-endpoint.js";

/** Each grant of the `grant` option, one file each. */
const GRANTS = {
  authorization_code: authorizationCodeGrant,
  client_credentials: clientCredentialsGrant,
  device_code: deviceCodeGrant,
  enterprise: enterpriseGrant,
  workload_identity: workloadIdentityGrant,
} as const;

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
  /** The DPoP key of the stored credentials, imported once (it holds the servers' nonces). */
  #dpop: { jwk: EcJwk; key: Promise<DpopKey | undefined> } | undefined;
  /** The DPoP key the flow under way binds its tokens to. */
  #flowKey: DpopKey | undefined;
  /** What the grants (one file each) get from the provider. */
  readonly #grants: GrantContext;

  constructor(options: OAuthProviderOptions) {
    // An unknown profile name is a mistake in the config: said now, not at the first 401.
    if (typeof options.profile === "string") profileNamed(options.profile);
    this.#options = options;
    this.#fetch = withDeadline(
      options.fetch ?? ((input, init) => fetch(input, init)),
      options.timeoutMs ?? DEFAULT_OAUTH_TIMEOUT_MS,
    );
    this.#store = options.store ?? new MemoryTokenStore();
    this.#resource = canonicalResource(options.serverUrl);
    this.#grants = {
      options,
      fetch: this.#fetch,
      client: (found, redirectUri) => this.#client(found, redirectUri),
      dpopKey: () => this.#flowKey,
    };
  }

  /**
   * The token header, refreshed first when it is about to expire; `{}` before any flow. A
   * DPoP-bound token goes as `Authorization: DPoP …` with a fresh `DPoP` proof of `request`.
   */
  async headers(request?: AuthRequest): Promise<Record<string, string>> {
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
    if (!current) return {};
    if (current.tokenType !== "DPoP") return { authorization: `Bearer ${current.accessToken}` };
    const key = await this.#storedKey();
    if (!key) {
      // Without its key a bound token is useless: forget it (here; the flow's result replaces it
      // in the store), send none, and the 401 starts a new flow with a new key.
      if (this.#credentials) this.#credentials = { ...this.#credentials, tokens: undefined, dpopKey: undefined };
      return {};
    }
    if (!request)
      throw new OAuthError(
        "token",
        "A DPoP-bound token needs the request it is for: the transport must pass it to headers()",
      );
    return {
      authorization: `DPoP ${current.accessToken}`,
      dpop: await key.proof({
        method: request.method,
        url: request.url,
        accessToken: current.accessToken,
        body: request.body ?? "",
      }),
    };
  }

  /** The stored credentials' DPoP key, if they have a usable one (a damaged one is as none: the next flow makes a new key). */
  #storedKey(): Promise<DpopKey | undefined> {
    const jwk = this.#credentials?.dpopKey;
    if (!jwk) return Promise.resolve(undefined);
    if (this.#dpop?.jwk !== jwk) this.#dpop = { jwk, key: DpopKey.from(jwk).catch(() => undefined) };
    return this.#dpop.key;
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
    return {
      serverUrl: redactUrl(this.#options.serverUrl),
      grant: this.#options.grant ?? "authorization_code",
      issuer: this.#credentials?.issuer,
      hasTokens: this.#credentials?.tokens !== undefined,
    };
  }

  toJSON(): object {
    return this[inspectCustom]();
  }

  /** Reads the stored credentials once; concurrent first callers wait for the same read (a failed read is tried again by the next caller). */
  #load(): Promise<void> {
    this.#loading ??= this.#store.find(this.#resource).then(
      (found) => {
        this.#credentials ??= found;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
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
    const sent = /^(?:Bearer|DPoP) (.+)$/i.exec(context.sent?.["authorization"] ?? "")?.[1];
    // RFC 9449 §9: the server wants its nonce in the proof. The request was refused, not run:
    // once more with a proof that carries it.
    const nonce = context.header?.("dpop-nonce");
    if (challenge.error === "use_dpop_nonce" && nonce !== undefined && context.sent?.["dpop"] !== undefined) {
      const key = await this.#storedKey();
      if (!key || key.nonce(context.url) === nonce) return false;
      key.setNonce(context.url, nonce);
      return true;
    }
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
    const refreshable =
      !moved && sent !== undefined && sent === tokens?.accessToken && tokens.refreshToken !== undefined;
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
    const scopes = new Set(
      [...(this.#credentials?.tokens?.scope ?? "").split(" "), ...(needed ?? "").split(" ")].filter(Boolean),
    );
    return [...scopes].join(" ");
  }

  async #discover(challenge: BearerChallenge): Promise<Discovery> {
    const found = await discover(
      this.#fetch,
      this.#options.serverUrl,
      challenge.resourceMetadata,
      this.#options.protocolVersion,
      this.#options.profile,
    );
    this.#discovery = found;
    // Credentials of another issuer are never used with this one.
    if (!this.#credentials || !sameIssuer(this.#credentials.issuer, found.issuer)) {
      this.#credentials = (await this.#store.get(found.issuer, found.resource)) ?? {
        issuer: found.issuer,
        resource: found.resource,
      };
    }
    return found;
  }

  async #fullFlow(challenge: BearerChallenge, stepUp: boolean, discovered?: Discovery): Promise<void> {
    const found = discovered ?? (await this.#discover(challenge));
    const scope = chooseScope(this.#options, challenge, found, stepUp);
    const grant = this.#options.grant ?? "authorization_code";
    this.#flowKey = this.#usesDpop(challenge, found)
      ? ((await this.#storedKey()) ?? (await DpopKey.generate()))
      : undefined;
    try {
      const run = Object.hasOwn(GRANTS, grant) ? GRANTS[grant] : undefined;
      if (!run)
        throw new OAuthError(
          "token",
          `Unknown grant ${JSON.stringify(grant)} (expected one of ${Object.keys(GRANTS).join(", ")})`,
        );
      const tokens = await run(this.#grants, found, scope);
      this.#fromFlow = tokens.accessToken;
      const key = tokens.tokenType === "DPoP" ? this.#flowKey : undefined;
      if (key) this.#dpop = { jwk: key.jwk, key: Promise.resolve(key) };
      await this.#save({ tokens, dpopKey: key?.jwk });
    } finally {
      this.#flowKey = undefined;
    }
  }

  /** Whether this flow asks for DPoP-bound tokens: the `dpop` option, else what both servers offer. */
  #usesDpop(challenge: BearerChallenge, found: Discovery): boolean {
    const wanted = this.#options.dpop;
    if (wanted === false) return false;
    const algorithms: unknown = found.metadata.dpop_signing_alg_values_supported;
    const supported = Array.isArray(algorithms) && algorithms.includes("ES256");
    if (wanted === true && !supported)
      throw new OAuthError(
        "metadata",
        `The authorization server ${redactUrl(found.issuer)} does not offer DPoP with ES256 (dpop_signing_alg_values_supported), and the dpop option requires it`,
      );
    return supported && (wanted === true || challenge.dpop === true);
  }

  /** Registration in the spec's order: pre-registered, a Client ID Metadata Document, then Dynamic Client Registration. */
  async #client(found: Discovery, redirectUri: string | undefined): Promise<StoredClient> {
    const options = this.#options;
    const configured = preRegisteredClient(options, found);
    if (configured) return { ...configured, redirectUri };
    if (options.clientMetadataUrl && found.metadata.client_id_metadata_document_supported === true) {
      return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none", redirectUri };
    }
    const known = this.#credentials?.client;
    if (known && known.redirectUri === redirectUri) return known;
    const endpoint = found.metadata.registration_endpoint;
    if (!endpoint) {
      throw new OAuthError(
        "registration",
        `The authorization server ${redactUrl(found.issuer)} offers no way to register this client (no Client ID Metadata Document support, no registration_endpoint); ${found.profile?.registration ?? "configure a clientId"}`,
      );
    }
    const client = await registerClient(this.#fetch, found, options.clientName, redirectUri);
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
        const client = this.#credentials?.client ?? preRegisteredClient(this.#options, found);
        if (!client) throw new OAuthError("refresh", "No client to refresh the token with");
        // A DPoP-bound token is refreshed with a proof of the same key (RFC 9449 §5).
        const key = this.#credentials?.tokens?.tokenType === "DPoP" ? await this.#storedKey() : undefined;
        const tokens = await requestToken(
          this.#fetch,
          found,
          client,
          "refresh",
          { grant_type: "refresh_token", refresh_token: refreshToken },
          this.#credentials?.tokens?.scope,
          this.#options.clientAssertionKey,
          key,
        );
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

  async #save(change: Partial<StoredCredentials>): Promise<void> {
    const found = this.#discovery;
    const base = this.#credentials ?? { issuer: found?.issuer ?? "", resource: this.#resource };
    this.#credentials = { ...base, ...change };
    await this.#store.set(this.#credentials);
    this.#stamp = await this.#store.stamp?.(this.#credentials.issuer, this.#credentials.resource);
  }
}
