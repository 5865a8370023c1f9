// The doctor's verdicts on what discovery found: the metadata documents, the server's profile
// (PKCE, client authentication, signing, DPoP, scopes) and the clocks, each with its spec clause.
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { BearerChallenge } from "./challenge.js";
import type { Discovery } from "./discovery.js";
import { step, type DoctorStep, type Probe } from "./doctor-step.js";
import type { Exchange } from "./doctor-trace.js";
import type { OAuthError } from "./errors.js";
import type { StoredClient } from "./token-store.js";

const wellKnown = (exchange: Exchange, name: string): boolean =>
  exchange.method === "GET" && new URL(exchange.url).pathname.includes(`/.well-known/${name}`);

/** Where the protected resource metadata was found, judged from the requests discovery made. */
export function resourceMetadataStep(
  serverUrl: string,
  fromChallenge: string | undefined,
  found: Discovery | undefined,
  failure: OAuthError | undefined,
  log: Exchange[],
): DoctorStep {
  if (failure?.step === "discovery")
    return step(
      "resource-metadata",
      "fail",
      `Publish protected resource metadata whose resource names this server (${redactUrl(serverUrl)}) and lists its authorization servers`,
      failure.message,
    );
  const named = fromChallenge === undefined ? undefined : new URL(fromChallenge, serverUrl).href;
  const answered = log.find((e) => e.status === 200 && (wellKnown(e, "oauth-protected-resource") || e.url === named));
  if (!found?.resourceMetadata) {
    const tried = log
      .filter((e) => wellKnown(e, "oauth-protected-resource"))
      .map((e) => `${redactUrl(e.url)} → ${e.status ?? "no answer"}`);
    return step(
      "resource-metadata",
      "warn",
      "The server publishes no protected resource metadata (required since MCP 2025-06-18): publish it at the path-aware well-known URL, or name it in WWW-Authenticate's resource_metadata; the client falls back to the 2025-03-26 rules (the authorization server at the server's origin)",
      `tried ${tried.join(", ")}`,
    );
  }
  const server = new URL(serverUrl);
  const url = answered ? new URL(answered.url) : undefined;
  const root =
    url?.pathname === "/.well-known/oauth-protected-resource" && server.pathname !== "/" && server.pathname !== "";
  const issuers = (found.resourceMetadata.authorization_servers ?? []).map(redactUrl).join(", ");
  const where = url ? redactUrl(url.href) : "the challenge's resource_metadata";
  if (root)
    return step(
      "resource-metadata",
      "warn",
      `Found only at the root URL ${where}: metadata only at the root is found by clients that fall back to it, but RFC 9728 §3.1 puts it at /.well-known/oauth-protected-resource${server.pathname}; publish it there (or name it in WWW-Authenticate)`,
      `metadata only at the root; authorization servers: ${issuers}`,
    );
  return step(
    "resource-metadata",
    "pass",
    `Found at ${where}`,
    `resource ${redactUrl(String(found.resourceMetadata.resource ?? found.resource))}; authorization servers: ${issuers}`,
  );
}

/** Which metadata document of the authorization server answered (RFC 8414 or OpenID), or why none did. */
export function authorizationServerStep(
  found: Discovery | undefined,
  failure: OAuthError | undefined,
  log: Exchange[],
): DoctorStep {
  if (failure?.step === "metadata")
    return step(
      "authorization-server-metadata",
      "fail",
      "Publish RFC 8414 metadata (or OpenID discovery) at the issuer's well-known URL, with the issuer exactly as the protected resource metadata names it; or choose the provider's profile (oauth.profile) if it publishes none",
      failure.message,
    );
  if (!found)
    return step("authorization-server-metadata", "skip", "Not reached: the protected resource metadata step failed");
  if (found.profile?.metadata)
    return step(
      "authorization-server-metadata",
      "pass",
      `${found.profile.title} publishes no metadata: its endpoints come from the ${found.profile.name} profile`,
      `issuer ${redactUrl(found.issuer)}`,
    );
  if (found.defaultEndpoints)
    return step(
      "authorization-server-metadata",
      "warn",
      "No authorization server metadata: the 2025-03-26 default endpoints (/authorize, /token, /register) are used; publish RFC 8414 metadata",
      `issuer ${redactUrl(found.issuer)}`,
    );
  const answered = log.find(
    (e) => e.status === 200 && (wellKnown(e, "oauth-authorization-server") || wellKnown(e, "openid-configuration")),
  );
  const oidc = answered !== undefined && wellKnown(answered, "openid-configuration");
  return step(
    "authorization-server-metadata",
    "pass",
    `Found at ${answered ? redactUrl(answered.url) : "the issuer"}${oidc ? " (OpenID Connect discovery: the RFC 8414 URL did not answer)" : " (RFC 8414)"}`,
    `issuer ${redactUrl(found.issuer)}`,
  );
}

export function profileStep(found: Discovery, chosen: boolean): DoctorStep {
  const profile = found.profile;
  if (!profile)
    return step(
      "profile",
      "skip",
      `No provider profile matches the issuer ${redactUrl(found.issuer)}; the spec's rules apply as they are`,
    );
  const changes = [
    profile.resourceParameter === false ? "no resource parameter" : "",
    profile.defaultScopes ? `scopes ${profile.defaultScopes.join(" ")}` : "",
    profile.metadata ? "its own endpoints" : "",
    profile.metadataDefaults ? `fills ${Object.keys(profile.metadataDefaults).join(", ")}` : "",
    profile.authorizationParams ? `adds ${Object.keys(profile.authorizationParams).join(", ")}` : "",
  ].filter(Boolean);
  return step(
    "profile",
    "pass",
    `${profile.title} (${chosen ? "chosen in the config" : "detected from the issuer"}): ${changes.join("; ") || "no change to the flow"}`,
  );
}

/** The largest clock difference between this machine and a server that answered with a `Date`. */
export function clockStep(log: Exchange[]): DoctorStep {
  let worst: { skew: number; url: string } | undefined;
  for (const exchange of log) {
    if (exchange.date === undefined) continue;
    // A Date has whole seconds: up to a second behind is no skew.
    const skew = exchange.date - exchange.at;
    const off = skew > 0 ? skew : Math.min(0, skew + 1000);
    if (!worst || Math.abs(off) > Math.abs(worst.skew)) worst = { skew: off, url: exchange.url };
  }
  if (!worst) return step("clock", "skip", "No server sent a Date header");
  const seconds = Math.round(worst.skew / 1000);
  const detail = `${new URL(worst.url).host} is ${Math.abs(seconds)} s ${seconds > 0 ? "ahead of" : "behind"} this machine`;
  const fix =
    "Servers check the times in tokens, DPoP proofs and client assertions with a tolerance of seconds to a minute: set this machine's clock (NTP), or tell the server's operator theirs is off";
  if (Math.abs(seconds) >= 120) return step("clock", "fail", fix, `clock off by ${Math.abs(seconds)} s: ${detail}`);
  if (Math.abs(seconds) >= 15) return step("clock", "warn", fix, detail);
  return step("clock", "pass", "The clocks agree", detail);
}

export function pkceStep(found: Discovery): DoctorStep {
  if (found.defaultEndpoints)
    return step("pkce", "warn", "No metadata to say so; PKCE S256 is sent anyway (2025-03-26 servers)");
  const methods = found.metadata.code_challenge_methods_supported;
  if (methods?.includes("S256"))
    return step(
      "pkce",
      "pass",
      "The authorization server lists S256",
      `code_challenge_methods_supported: ${methods.join(", ")}`,
    );
  const advice =
    "List S256 in code_challenge_methods_supported (MCP clients must refuse a server that does not); if the provider supports it without saying so, a provider profile can fill it in";
  return step(
    "pkce",
    "fail",
    advice,
    methods ? `code_challenge_methods_supported: ${methods.join(", ")}` : "code_challenge_methods_supported is missing",
  );
}

export function tokenAuthStep(found: Discovery, client: StoredClient | undefined): DoctorStep {
  if (!client) return step("token-endpoint-auth", "skip", "Not checked: no client");
  const method = client.tokenEndpointAuthMethod;
  const supported = found.metadata.token_endpoint_auth_methods_supported;
  if (!supported)
    return method === "client_secret_basic"
      ? step("token-endpoint-auth", "pass", `The client uses ${method}, RFC 8414's default when none is listed`)
      : step(
          "token-endpoint-auth",
          "warn",
          `The server lists no token_endpoint_auth_methods_supported (default: client_secret_basic only) and the client uses ${method}; list the methods it takes`,
        );
  if (supported.includes(method))
    return step(
      "token-endpoint-auth",
      "pass",
      `The client uses ${method}, which the server lists`,
      `supported: ${supported.join(", ")}`,
    );
  return step(
    "token-endpoint-auth",
    "fail",
    `The client would authenticate with ${method}, which the server does not list: configure tokenEndpointAuthMethod as one of ${supported.join(", ")} (or register the client so)`,
    `supported: ${supported.join(", ")}`,
  );
}

const symmetric = (algs: unknown): boolean =>
  Array.isArray(algs) && algs.length > 0 && algs.every((a) => typeof a === "string" && a.startsWith("HS"));

export function signingStep(
  found: Discovery,
  client: StoredClient | undefined,
  keyAlgorithm: string | undefined,
): DoctorStep {
  const assertionAlgs = found.metadata["token_endpoint_auth_signing_alg_values_supported"];
  const idAlgs = found.metadata["id_token_signing_alg_values_supported"];
  if (client?.tokenEndpointAuthMethod === "private_key_jwt" && Array.isArray(assertionAlgs)) {
    const ours = keyAlgorithm ? [keyAlgorithm] : ["ES256", "RS256"];
    if (!ours.some((a) => assertionAlgs.includes(a)))
      return step(
        "signing-algorithms",
        "fail",
        `The server takes client assertions signed with ${assertionAlgs.join(", ")} only; private_key_jwt here signs with ${ours.join(" or ")}: allow one of those for the client, or use a client secret`,
        `token_endpoint_auth_signing_alg_values_supported: ${assertionAlgs.join(", ")}`,
      );
  }
  if (symmetric(idAlgs))
    return step(
      "signing-algorithms",
      "warn",
      "The server signs ID tokens with HMAC only (HS256…), keyed with the client secret: a public client cannot check them. MCP access needs no ID token, but another client of this server may",
      `id_token_signing_alg_values_supported: ${(idAlgs as string[]).join(", ")}`,
    );
  if (Array.isArray(assertionAlgs) || Array.isArray(idAlgs))
    return step(
      "signing-algorithms",
      "pass",
      "Asymmetric algorithms are offered",
      [
        Array.isArray(assertionAlgs) ? `client assertions: ${assertionAlgs.join(", ")}` : "",
        Array.isArray(idAlgs) ? `ID tokens: ${idAlgs.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  return step("signing-algorithms", "skip", "The metadata lists no signing algorithms");
}

export function dpopStep(challenge: BearerChallenge, header: string | undefined, found: Discovery): DoctorStep {
  const algs = found.metadata.dpop_signing_alg_values_supported;
  const required = challenge.dpop === true && !/(?:^|[\s,])bearer(?=\s|,|$)/i.test(header ?? "");
  if (!algs && !challenge.dpop) return step("dpop", "skip", "Neither server advertises DPoP: Bearer tokens");
  if (!Array.isArray(algs) || !algs.includes("ES256")) {
    const advice = `This client makes ES256 DPoP proofs; the authorization server lists ${Array.isArray(algs) ? algs.join(", ") : "no dpop_signing_alg_values_supported"}`;
    return step(
      "dpop",
      required ? "fail" : "warn",
      required
        ? `${advice}, and the MCP server takes DPoP tokens only: list ES256`
        : `${advice}: tokens will be Bearer`,
    );
  }
  return step(
    "dpop",
    "pass",
    challenge.dpop
      ? "Both servers offer DPoP with ES256: tokens are bound to a key of this client"
      : "The authorization server offers DPoP (ES256); the MCP server's challenge does not ask for it, so tokens are Bearer unless dpop: true",
    `dpop_signing_alg_values_supported: ${algs.join(", ")}`,
  );
}

export function scopesStep(
  found: Discovery,
  challenge: BearerChallenge,
  scope: string | undefined,
  probe: Probe | undefined,
): DoctorStep {
  if (probe?.kind === "error" && probe.error === "invalid_scope")
    return step(
      "scopes",
      "fail",
      `The authorization server refused the scopes ${scope ?? "(none)"}: configure oauth.scopes with ones it knows`,
      probe.description,
    );
  const source = challenge.scope
    ? "the challenge's scope"
    : found.resourceMetadata?.scopes_supported
      ? "the resource's scopes_supported"
      : "no source";
  const listed = found.metadata.scopes_supported;
  const unknown = (scope ?? "")
    .split(" ")
    .filter((s) => s !== "" && listed !== undefined && !listed.includes(s) && !s.includes("/"));
  const detail = `asks for ${scope ?? "no scope"} (from ${source}); a 403 insufficient_scope asks again with the added scopes (step-up)`;
  if (unknown.length > 0)
    return step(
      "scopes",
      "warn",
      `The authorization server does not list ${unknown.join(", ")} in scopes_supported: the request may be refused or the scope dropped`,
      detail,
    );
  return step(
    "scopes",
    "pass",
    scope ? `Asks for ${scope}` : "No scope is asked for: the authorization server's default applies",
    detail,
  );
}
