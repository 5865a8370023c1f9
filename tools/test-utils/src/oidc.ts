// A real OpenID provider (`oidc-provider`, a certified implementation) on loopback, in front of a protected MCP endpoint, with switches that mimic identity providers' quirks.
import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** The quirks a test can turn on; each mimics a real provider's behaviour. */
export interface OidcServerOptions {
  /** Dynamic Client Registration (RFC 7591); default true. `false` is Entra ID's, Google's, Cognito's case. */
  registration?: boolean;
  /** `refuse`: every `resource` (RFC 8707) is refused with `invalid_target`, as Entra ID does since March 2026. Default `accept` (the MCP endpoint's). */
  resource?: "accept" | "refuse";
  /** `false`: the `iss` parameter (RFC 9207) is taken off every redirect, while the metadata still promises it. */
  iss?: boolean;
  /** `HS256`: the only JWS algorithm for ID tokens and client assertions. */
  signing?: "default" | "HS256";
  /** The authorization server's `Date` headers are this far off (ms). */
  clockSkewMs?: number;
  /** Where the MCP endpoint's protected resource metadata lives: `path` (RFC 9728, named in the challenge, default) or `root` only (and not named). */
  prm?: "path" | "root";
  /** DPoP (RFC 9449) offered by the authorization server. */
  dpop?: boolean;
  /** The device authorization grant (RFC 8628) offered. */
  deviceFlow?: boolean;
  /** Pre-registered clients: `{ client_id, client_secret?, redirect_uris, token_endpoint_auth_method? }`. */
  clients?: Record<string, unknown>[];
}

export interface OidcServer {
  /** The issuer (the provider's root URL, no trailing slash). */
  issuer: string;
  /** The protected MCP endpoint: 401 without a token of this issuer for it. */
  mcpUrl: string;
  /**
   * The user step without a browser: follows the authorization URL through the provider's login
   * and consent (approved as `user-1`, with cookies as a browser keeps them) and resolves with
   * the redirect to the client (or rejects when the provider answers otherwise).
   */
  approve(authorizationUrl: string): Promise<URL>;
  /** The user's side of the device flow: enters `userCode` at the verification page, confirms, logs in and consents, as a browser would. */
  approveDevice(userCode: string): Promise<void>;
  stop(): Promise<void>;
}

/** The parts of oidc-provider's Provider this helper uses (the package ships no types). */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    grantId?: string;
  }>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  };
  AccessToken: { find(token: string): Promise<{ aud?: string | string[] } | undefined> };
  proxy: boolean;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** Imported by name at run time: the package ships no types, and only the tests that use it load it. */
const OIDC_PROVIDER = "oidc-provider";

/** Starts the provider and the MCP endpoint on free loopback ports. Stop it with `stop()`. */
export async function startOidcServer(options: OidcServerOptions = {}): Promise<OidcServer> {
  // oidc-provider's own error class, so that it answers invalid_target as it does for its own checks.
  const { default: ProviderClass, errors } = (await import(OIDC_PROVIDER)) as {
    default: new (issuer: string, configuration: object) => Provider;
    errors: { InvalidTarget: new () => Error };
  };
  const asServer = createServer();
  const mcpServer = createServer();
  const issuer = await listen(asServer);
  const mcpOrigin = await listen(mcpServer);
  const mcpUrl = `${mcpOrigin}/mcp`;
  const scopes = ["mcp:tools"];
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const hs256 = options.signing === "HS256";
  const provider = new ProviderClass(issuer, {
    clients: options.clients ?? [],
    jwks: { keys: [{ ...rsa, kid: "test-rsa", use: "sig" }] },
    cookies: { keys: ["oidc-test-only-key"] },
    // Set, so that oidc-provider does not print a notice for each default it falls back to.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 3600,
    },
    scopes: ["openid", "offline_access", ...scopes],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // Refresh tokens for any client allowed the grant (oidc-provider otherwise wants offline_access with prompt=consent).
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    ...(hs256
      ? {
          enabledJWA: { idTokenSigningAlgValues: ["HS256"], clientAuthSigningAlgValues: ["HS256"] },
          clientDefaults: {
            id_token_signed_response_alg: "HS256",
            grant_types: ["authorization_code"],
            response_types: ["code"],
          },
        }
      : {}),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.registration !== false },
      dPoP: { enabled: options.dpop === true },
      deviceFlow: { enabled: options.deviceFlow === true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (options.resource === "refuse" || resource !== mcpUrl) throw new errors.InvalidTarget();
          return { scope: scopes.join(" "), audience: mcpUrl, accessTokenFormat: "opaque" };
        },
      },
    },
  });
  provider.proxy = false;
  const handle = provider.callback();

  asServer.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (options.clockSkewMs) res.setHeader("date", new Date(Date.now() + options.clockSkewMs).toUTCString());
    if (options.iss === false) {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = (name, value) => {
        if (name.toLowerCase() === "location" && typeof value === "string" && value.includes("iss=")) {
          const url = new URL(value);
          url.searchParams.delete("iss");
          return setHeader(name, url.href);
        }
        return setHeader(name, value);
      };
    }
    if (req.url?.startsWith("/interaction/"))
      return void finishInteraction(provider, req, res).catch((error: unknown) =>
        res.writeHead(500).end(String(error)),
      );
    handle(req, res);
  });

  const prm = { resource: mcpUrl, authorization_servers: [issuer], scopes_supported: scopes };
  const prmPath =
    options.prm === "root" ? "/.well-known/oauth-protected-resource" : "/.well-known/oauth-protected-resource/mcp";
  mcpServer.on("request", (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = new URL(req.url ?? "/", mcpOrigin).pathname;
      if (path === prmPath)
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(prm));
      if (path !== "/mcp") return void res.writeHead(404).end();
      for await (const _chunk of req); // the body is not needed
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const found = token ? await provider.AccessToken.find(token) : undefined;
      const audience = found?.aud === undefined ? [] : [found.aud].flat();
      if (!found || !audience.includes(mcpUrl)) {
        const challenge = options.prm === "root" ? "Bearer" : `Bearer resource_metadata="${mcpOrigin}${prmPath}"`;
        return void res
          .writeHead(401, { "www-authenticate": challenge, "content-type": "application/json" })
          .end(JSON.stringify({ error: "invalid_token" }));
      }
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            serverInfo: { name: "oidc-protected", version: "1.0.0" },
          },
        }),
      );
    })();
  });

  const approve = async (authorizationUrl: string): Promise<URL> => {
    const left = await browse(new URL(authorizationUrl), issuer);
    if (!left) throw new Error("the provider ended on a page of its own instead of redirecting to the client");
    return left;
  };
  const approveDevice = async (userCode: string): Promise<void> => {
    const url = new URL(`${issuer}/device`);
    url.searchParams.set("user_code", userCode);
    const left = await browse(url, issuer);
    if (left) throw new Error(`the device flow left the provider for ${left.href}`);
  };

  return {
    issuer,
    mcpUrl,
    approve,
    approveDevice,
    stop: async () => void (await Promise.all([close(asServer), close(mcpServer)])),
  };
}

/** Logs in as `user-1`, then grants every scope and resource asked for. */
async function finishInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login")
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: "user-1" } },
      { mergeWithLastSubmission: false },
    );
  const grant = new provider.Grant({
    accountId: details.session?.accountId ?? "user-1",
    clientId: String(details.params["client_id"]),
  });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [resource, wanted] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(resource, wanted.join(" "));
  return provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

/**
 * A browser without a user: from `start`, follows redirects and submits each page's form (its
 * hidden fields, as the provider's auto-submitting and confirmation pages have), keeping cookies,
 * until a redirect leaves `origin` (returned) or a page has no form (undefined).
 */
async function browse(start: URL, origin: string): Promise<URL | undefined> {
  const cookies = new Map<string, string>();
  let request: { url: URL; form?: URLSearchParams } = { url: start };
  for (let hops = 0; hops < 20; hops++) {
    const headers: Record<string, string> = {
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    };
    if (request.form) headers["content-type"] = "application/x-www-form-urlencoded";
    const response = await fetch(request.url, {
      method: request.form ? "POST" : "GET",
      redirect: "manual",
      headers,
      ...(request.form ? { body: request.form.toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    const location = response.headers.get("location");
    const text = await response.text();
    if (location !== null) {
      const next = new URL(location, request.url);
      if (next.origin !== origin) return next;
      request = { url: next };
      continue;
    }
    const form = /<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(text);
    if (!form) {
      if (response.status >= 400) throw new Error(`the provider answered ${response.status}: ${text.slice(0, 500)}`);
      return undefined;
    }
    const fields = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g))
      fields.set(
        input[1]!,
        input[2]!
          .replaceAll("&amp;", "&")
          .replaceAll("&quot;", '"')
          .replaceAll("&#39;", "'")
          .replaceAll("&lt;", "<")
          .replaceAll("&gt;", ">"),
      );
    request = { url: new URL(form[1]!.replaceAll("&amp;", "&"), request.url), form: fields };
  }
  throw new Error("too many redirects and forms");
}
