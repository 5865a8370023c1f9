// A real OpenID provider on loopback for the gateway's sign-in tests: `oidc-provider` (a certified
// implementation) issuing JWT access tokens (RFC 9068), or opaque ones it introspects (RFC 7662)
// and revokes (RFC 7009), for resource indicators (RFC 8707), with
// client credentials for machine callers, authorization code + PKCE with dynamic client
// registration for people (its development login pages), and its signing key kept by the test.

import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

/** A private signing key as a JWK (with `kid` and `alg`). */
export type PrivateJwk = Record<string, unknown> & { kid: string; alg: string };

/** A running identity provider. */
export interface TestIdp {
  /** Its issuer URL (`http://127.0.0.1:<port>`). */
  issuer: string;
  /** The key it signs with now: a test may sign its own tokens with it (expired, for the wrong issuer, …). */
  readonly key: PrivateJwk;
  /** Rotates its signing key: a new one signs from now on, and the old one stays published. */
  rotate(): PrivateJwk;
  /** The scopes it knows. */
  scopes: readonly string[];
  /** A client registered for client credentials: `id` is the `sub` of its tokens. */
  client(id: string): { id: string; secret: string };
  /** An access token of client `id` for `resource` (`aud`), with `scope` (space-separated). */
  clientToken(id: string, resource: string, scope?: string): Promise<string>;
  /**
   * A person's sign-in at its login pages, as a browser would do it: given an authorization
   * request URL, logs in as `login` (any password), consents, and returns the URL it redirected
   * to at last (the client's redirect URI with `code`, `state` and `iss`).
   */
  signIn(login: string): (authorizationUrl: URL) => Promise<URL>;
  /** How many times its keys (`jwks_uri`) were fetched. */
  readonly keyFetches: number;
  /** How many times its introspection endpoint was asked. */
  readonly introspections: number;
  /** How many token exchanges (RFC 8693) it answered with a token. */
  readonly exchanges: number;
  /** Revokes `token` of client `id` at its revocation endpoint (RFC 7009). */
  revoke(id: string, token: string): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startIdp}. */
export interface IdpOptions {
  /** Client ids registered for client credentials (secret `<id>-secret-0123456789`). Default `["machine"]`. */
  clients?: readonly string[];
  /** Scopes it grants. Default `["mcp:tools", "mcp:admin"]`. */
  scopes?: readonly string[];
  /** Signing algorithm: ES256 (default) or RS256. */
  alg?: "ES256" | "RS256";
  /** Access token lifetime (s). Default 300. */
  ttlSeconds?: number;
  /** Accounts that may sign in at its login page: any login name is accepted; this adds groups to the id. */
  groups?: Record<string, readonly string[]>;
  /** Issue opaque access tokens (introspected) instead of JWTs. */
  opaque?: boolean;
  /**
   * Client ids allowed RFC 8693 token exchange (secret as for `clients`): an active access token
   * of this provider (`subject_token`) for a JWT access token of the same subject for `audience`
   * (or `resource`), with `act.sub` the exchanging client, living `ttlSeconds` (default 120 s).
   */
  exchange?: { clients: readonly string[]; ttlSeconds?: number };
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

interface ProviderModels {
  AccessToken: { find(value: string): Promise<{ accountId?: string; clientId?: string } | undefined> } & (new (
    values: Record<string, unknown>,
  ) => { resourceServer: unknown; expiration: number; save(): Promise<string> });
  ClientCredentials: { find(value: string): Promise<{ clientId?: string } | undefined> };
  ResourceServer: new (identifier: string, info: Record<string, unknown>) => unknown;
  Client: { adapter: { upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> } };
  registerGrantType(name: string, handler: (ctx: ExchangeContext) => Promise<void>, params: string[]): void;
}
interface ExchangeContext {
  oidc: { params: Record<string, string | undefined>; client: { clientId: string } };
  status: number;
  body: unknown;
}

type ProviderClass = new (
  issuer: string,
  config: Record<string, unknown>,
) => ProviderModels & { callback(): (req: unknown, res: unknown) => void };

/**
 * Follows the provider's redirects with a cookie jar, answering its login form (as `login`) and
 * its consent form, until it redirects off its own origin: that URL is returned.
 */
async function browse(start: URL, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      redirect: "manual",
      method: form ? "POST" : "GET",
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(form ? { body: form } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url);
      form = undefined;
      if (url.origin !== start.origin) return url;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt)
      throw new Error(`the IdP answered ${response.status} with no form to fill: ${page.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, "&"), url);
    form = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
  }
  throw new Error("the sign-in did not end within 20 steps");
}

/** A fresh signing key. */
export function signingKey(alg: "ES256" | "RS256" = "ES256"): PrivateJwk {
  const pair =
    alg === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    ...(pair.privateKey.export({ format: "jwk" }) as Record<string, unknown>),
    kid: randomBytes(8).toString("hex"),
    alg,
    use: "sig",
  };
}

/** Starts an OpenID provider on 127.0.0.1 (a free port); `stop()` ends it. */
export async function startIdp(options: IdpOptions = {}): Promise<TestIdp> {
  // Imported by name at run time: the package ships no types, and only these tests load it.
  const name = "oidc-provider";
  const { default: Provider } = (await import(name)) as { default: ProviderClass };
  const scopes = options.scopes ?? ["mcp:tools", "mcp:admin"];
  const clients = options.clients ?? ["machine"];
  const key = signingKey(options.alg);
  let keyFetches = 0;
  let introspections = 0;
  let exchanges = 0;
  const ref: { handler?: (req: unknown, res: unknown) => void } = {};
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith("/jwks")) keyFetches++;
    if (req.url?.startsWith("/token/introspection")) introspections++;
    ref.handler!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const secretOf = (id: string): string => `${id}-secret-0123456789`;
  const make = (keys: PrivateJwk[]) =>
    withExchange(
      keys[0]!.alg,
      new Provider(issuer, {
        jwks: { keys },
        cookies: { keys: [randomBytes(16).toString("hex")] },
        // Registered clients (dynamic registration) sign ID tokens with the one key there is.
        clientDefaults: {
          id_token_signed_response_alg: keys[0]!.alg,
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
        },
        scopes: ["openid", "offline_access", ...scopes],
        clients: clients.map((id) => ({
          client_id: id,
          client_secret: secretOf(id),
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
          scope: scopes.join(" "),
          id_token_signed_response_alg: keys[0]!.alg,
        })),
        findAccount: (_ctx: unknown, sub: string) => ({
          accountId: sub,
          claims: () => ({ sub, groups: options.groups?.[sub] ?? [] }),
        }),
        features: {
          clientCredentials: { enabled: true },
          devInteractions: { enabled: true },
          // Any authenticated client may introspect; a client revokes its own tokens.
          introspection: { enabled: true, allowedPolicy: () => true },
          revocation: {
            enabled: true,
            allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
              client.clientId === token.clientId,
          },
          registration: { enabled: true },
          resourceIndicators: {
            enabled: true,
            defaultResource: () => undefined,
            useGrantedResource: () => true,
            getResourceServerInfo: (_ctx: unknown, resource: string) => ({
              scope: scopes.join(" "),
              audience: resource,
              accessTokenTTL: options.ttlSeconds ?? 300,
              ...(options.opaque
                ? { accessTokenFormat: "opaque" }
                : { accessTokenFormat: "jwt", jwt: { sign: { alg: keys[0]!.alg } } }),
            }),
          },
        },
        // An exchanged token names the client that acted for its subject (RFC 8693 §4.1).
        extraTokenClaims: (_ctx: unknown, token: { accountId?: string; gty?: string; clientId?: string }) =>
          token.accountId
            ? {
                groups: options.groups?.[token.accountId] ?? [],
                ...(token.gty === "token-exchange" ? { act: { sub: token.clientId } } : {}),
              }
            : undefined,
        pkce: { required: () => true },
        ttl: {
          ClientCredentials: options.ttlSeconds ?? 300,
          AccessToken: options.ttlSeconds ?? 300,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          RefreshToken: 3600,
          Session: 600,
        },
      }),
    );
  // RFC 8693 is no built-in grant of oidc-provider: it is registered here, as its docs show for extension grants.
  const withExchange = (alg: string, provider: InstanceType<ProviderClass>): InstanceType<ProviderClass> => {
    if (!options.exchange) return provider;
    const ttl = options.exchange.ttlSeconds ?? 120;
    provider.registerGrantType(
      TOKEN_EXCHANGE,
      async (ctx) => {
        const { subject_token: subjectToken, subject_token_type: type, audience, resource } = ctx.oidc.params;
        const refuse = (error: string, description: string): void => {
          ctx.status = 400;
          ctx.body = { error, error_description: description };
        };
        if (type !== "urn:ietf:params:oauth:token-type:access_token" || !subjectToken)
          return refuse("invalid_request", "subject_token must be an access token");
        const target = audience ?? resource;
        if (!target) return refuse("invalid_target", "audience or resource is required");
        const subject =
          (await provider.AccessToken.find(subjectToken)) ?? (await provider.ClientCredentials.find(subjectToken));
        const sub = subject && ("accountId" in subject && subject.accountId ? subject.accountId : subject.clientId);
        if (!sub) return refuse("invalid_grant", "subject_token is not active");
        const token = new provider.AccessToken({
          accountId: sub,
          client: ctx.oidc.client,
          scope: scopes.join(" "),
          gty: "token-exchange",
          grantId: `exchange-${randomBytes(8).toString("hex")}`,
        });
        token.resourceServer = new provider.ResourceServer(target, {
          scope: scopes.join(" "),
          audience: target,
          accessTokenTTL: ttl,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg } },
        });
        const value = await token.save();
        exchanges++;
        ctx.body = {
          access_token: value,
          issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
          token_type: "Bearer",
          expires_in: token.expiration,
        };
      },
      [
        "subject_token",
        "subject_token_type",
        "actor_token",
        "actor_token_type",
        "requested_token_type",
        "audience",
        "resource",
        "scope",
      ],
    );
    return provider;
  };
  let current = key;
  const first = make([key]);
  // Registered after the grant exists (a client naming an unknown grant type is refused); the in-memory store outlives a key rotation.
  for (const id of options.exchange?.clients ?? [])
    await first.Client.adapter.upsert(id, {
      client_id: id,
      client_secret: secretOf(id),
      grant_types: [TOKEN_EXCHANGE],
      redirect_uris: [],
      response_types: [],
      scope: scopes.join(" "),
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: key.alg,
    });
  ref.handler = first.callback();
  return {
    issuer,
    get key() {
      return current;
    },
    rotate() {
      const next = signingKey(current.alg as "ES256" | "RS256");
      // The new key signs; the old one is still published, for the tokens it signed.
      ref.handler = make([next, current]).callback();
      current = next;
      return next;
    },
    scopes,
    client: (id) => ({ id, secret: secretOf(id) }),
    async clientToken(id, resource, scope = scopes.join(" ")) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${id}:${secretOf(id)}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!body.access_token) throw new Error(`the IdP refused a token: ${body.error}: ${body.error_description}`);
      return body.access_token;
    },
    async revoke(id, token) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${id}:${secretOf(id)}`).toString("base64")}`,
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      });
      if (!response.ok)
        throw new Error(`the IdP refused the revocation: HTTP ${response.status} ${await response.text()}`);
    },
    get exchanges() {
      return exchanges;
    },
    get introspections() {
      return introspections;
    },
    signIn: (login) => (authorizationUrl) => browse(authorizationUrl, login),
    get keyFetches() {
      return keyFetches;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
