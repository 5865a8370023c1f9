// The doctor's verdicts: each step of a sign-in judged from what the servers answered, with its spec clause and what to do.
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { BearerChallenge } from "./challenge.js";
import type { Discovery } from "./discovery.js";
import type { Exchange } from "./doctor-trace.js";
import type { OAuthError } from "./errors.js";
import type { AuthorizationResponse } from "./options.js";
import type { StoredClient, StoredTokens } from "./token-store.js";

/** How a step went: `warn` works but is worth fixing; `skip` could not be checked (the reason is in `advice`). */
export type DoctorStatus = "pass" | "fail" | "skip" | "warn";

/** One step of a diagnosis. Never holds a token, code, secret or verifier. */
export interface DoctorStep {
  /** The step's name (`challenge`, `resource-metadata`, … `token-accepted`). */
  step: string;
  status: DoctorStatus;
  /** The spec clauses the step checks. */
  clause: string;
  /** What to do about it (or, for a pass, what was found). */
  advice: string;
  /** What the servers answered, in more detail. */
  detail?: string | undefined;
}

/** The spec clause of each step, in the order of the report. */
export const DOCTOR_STEPS = {
  challenge: "MCP 2025-11-25 Authorization, Authorization Server Discovery; RFC 9728 §5.1; RFC 6750 §3",
  "resource-metadata": "RFC 9728 §3, §3.1 (path-aware well-known URI); MCP 2025-11-25, Protected Resource Metadata Discovery",
  "authorization-server-metadata": "RFC 8414 §3, §3.3 (issuer); OpenID Connect Discovery 1.0 §4; MCP 2025-11-25, Authorization Server Metadata Discovery",
  profile: "@mcp/oauth provider profiles (what a provider does differently from the spec)",
  clock: "RFC 9110 §6.6.1 (Date); RFC 7519 §4.1.4-4.1.6 (exp, nbf, iat); RFC 9449 §11.1 (DPoP iat)",
  pkce: "RFC 7636 §4.2, §4.3; MCP 2025-11-25, Authorization Code Protection (S256, refuse without it)",
  "client-identification": "MCP 2025-11-25, Client Registration Approaches: pre-registered, Client ID Metadata Document, RFC 7591 §3",
  "token-endpoint-auth": "RFC 8414 §2 (token_endpoint_auth_methods_supported); RFC 6749 §2.3; RFC 7591 §2",
  "signing-algorithms": "RFC 8414 §2 (token_endpoint_auth_signing_alg_values_supported); RFC 7523 §2.2; OpenID Connect Discovery 1.0 §3",
  scopes: "MCP 2025-11-25, Scope Selection Strategy and Step-Up Authorization Flow; RFC 9728 §2 (scopes_supported)",
  "authorization-request": "RFC 6749 §4.1.1, §4.1.2.1; OAuth 2.1 §4.1",
  "resource-indicator": "RFC 8707 §2 (resource, invalid_target); MCP 2025-11-25, Resource Parameter Implementation",
  iss: "RFC 9207 §2, §2.4 (authorization_response_iss_parameter_supported)",
  token: "RFC 6749 §4.1.3, §5.1, §5.2; RFC 7636 §4.5",
  refresh: "RFC 6749 §6; OAuth 2.1 §4.3.1 (refresh token rotation); OpenID Connect Core 1.0 §11 (offline_access)",
  dpop: "RFC 9449 §5.1 (dpop_signing_alg_values_supported), §7.1 (DPoP challenge)",
  "token-accepted": "RFC 6750 §2.1, §3.1; MCP 2025-11-25, Token Audience Binding and Validation",
} as const;

export type DoctorStepName = keyof typeof DOCTOR_STEPS;

export function step(name: DoctorStepName, status: DoctorStatus, advice: string, detail?: string): DoctorStep {
  return { step: name, status, clause: DOCTOR_STEPS[name], advice, ...(detail !== undefined ? { detail } : {}) };
}

/** What the authorization endpoint did with the doctor's request. */
export type Probe =
  | { kind: "response"; response: AuthorizationResponse; stateMatches: boolean }
  | { kind: "error"; error: string; description: string | undefined }
  | { kind: "user"; status: number }
  | { kind: "refused"; status: number; error: string | undefined }
  | { kind: "failed"; message: string };

/** A token request's outcome. */
export type TokenOutcome = { tokens: StoredTokens } | { error: OAuthError };

const wellKnown = (exchange: Exchange, name: string): boolean => exchange.method === "GET" && new URL(exchange.url).pathname.includes(`/.well-known/${name}`);

/** Where the protected resource metadata was found, judged from the requests discovery made. */
export function resourceMetadataStep(serverUrl: string, fromChallenge: string | undefined, found: Discovery | undefined, failure: OAuthError | undefined, log: Exchange[]): DoctorStep {
  if (failure?.step === "discovery") return step("resource-metadata", "fail", `Publish protected resource metadata whose resource names this server (${redactUrl(serverUrl)}) and lists its authorization servers`, failure.message);
  const named = fromChallenge === undefined ? undefined : new URL(fromChallenge, serverUrl).href;
  const answered = log.find((e) => e.status === 200 && (wellKnown(e, "oauth-protected-resource") || e.url === named));
  if (!found?.resourceMetadata) {
    const tried = log.filter((e) => wellKnown(e, "oauth-protected-resource")).map((e) => `${redactUrl(e.url)} → ${e.status ?? "no answer"}`);
    return step("resource-metadata", "warn", "The server publishes no protected resource metadata (required since MCP 2025-06-18): publish it at the path-aware well-known URL, or name it in WWW-Authenticate's resource_metadata; the client falls back to the 2025-03-26 rules (the authorization server at the server's origin)", `tried ${tried.join(", ")}`);
  }
  const server = new URL(serverUrl);
  const url = answered ? new URL(answered.url) : undefined;
  const root = url?.pathname === "/.well-known/oauth-protected-resource" && server.pathname !== "/" && server.pathname !== "";
  const issuers = (found.resourceMetadata.authorization_servers ?? []).map(redactUrl).join(", ");
  const where = url ? redactUrl(url.href) : "the challenge's resource_metadata";
  if (root) return step("resource-metadata", "warn", `Found only at the root URL ${where}: metadata only at the root is found by clients that fall back to it, but RFC 9728 §3.1 puts it at /.well-known/oauth-protected-resource${server.pathname}; publish it there (or name it in WWW-Authenticate)`, `metadata only at the root; authorization servers: ${issuers}`);
  return step("resource-metadata", "pass", `Found at ${where}`, `resource ${redactUrl(String(found.resourceMetadata.resource ?? found.resource))}; authorization servers: ${issuers}`);
}

/** Which metadata document of the authorization server answered (RFC 8414 or OpenID), or why none did. */
export function authorizationServerStep(found: Discovery | undefined, failure: OAuthError | undefined, log: Exchange[]): DoctorStep {
  if (failure?.step === "metadata") return step("authorization-server-metadata", "fail", "Publish RFC 8414 metadata (or OpenID discovery) at the issuer's well-known URL, with the issuer exactly as the protected resource metadata names it; or choose the provider's profile (oauth.profile) if it publishes none", failure.message);
  if (!found) return step("authorization-server-metadata", "skip", "Not reached: the protected resource metadata step failed");
  if (found.profile?.metadata) return step("authorization-server-metadata", "pass", `${found.profile.title} publishes no metadata: its endpoints come from the ${found.profile.name} profile`, `issuer ${redactUrl(found.issuer)}`);
  if (found.defaultEndpoints) return step("authorization-server-metadata", "warn", "No authorization server metadata: the 2025-03-26 default endpoints (/authorize, /token, /register) are used; publish RFC 8414 metadata", `issuer ${redactUrl(found.issuer)}`);
  const answered = log.find((e) => e.status === 200 && (wellKnown(e, "oauth-authorization-server") || wellKnown(e, "openid-configuration")));
  const oidc = answered !== undefined && wellKnown(answered, "openid-configuration");
  return step("authorization-server-metadata", "pass", `Found at ${answered ? redactUrl(answered.url) : "the issuer"}${oidc ? " (OpenID Connect discovery: the RFC 8414 URL did not answer)" : " (RFC 8414)"}`, `issuer ${redactUrl(found.issuer)}`);
}

export function profileStep(found: Discovery, chosen: boolean): DoctorStep {
  const profile = found.profile;
  if (!profile) return step("profile", "skip", `No provider profile matches the issuer ${redactUrl(found.issuer)}; the spec's rules apply as they are`);
  const changes = [profile.resourceParameter === false ? "no resource parameter" : "", profile.defaultScopes ? `scopes ${profile.defaultScopes.join(" ")}` : "", profile.metadata ? "its own endpoints" : "", profile.metadataDefaults ? `fills ${Object.keys(profile.metadataDefaults).join(", ")}` : "", profile.authorizationParams ? `adds ${Object.keys(profile.authorizationParams).join(", ")}` : ""].filter(Boolean);
  return step("profile", "pass", `${profile.title} (${chosen ? "chosen in the config" : "detected from the issuer"}): ${changes.join("; ") || "no change to the flow"}`);
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
  const fix = "Servers check the times in tokens, DPoP proofs and client assertions with a tolerance of seconds to a minute: set this machine's clock (NTP), or tell the server's operator theirs is off";
  if (Math.abs(seconds) >= 120) return step("clock", "fail", fix, `clock off by ${Math.abs(seconds)} s: ${detail}`);
  if (Math.abs(seconds) >= 15) return step("clock", "warn", fix, detail);
  return step("clock", "pass", "The clocks agree", detail);
}

export function pkceStep(found: Discovery): DoctorStep {
  if (found.defaultEndpoints) return step("pkce", "warn", "No metadata to say so; PKCE S256 is sent anyway (2025-03-26 servers)");
  const methods = found.metadata.code_challenge_methods_supported;
  if (methods?.includes("S256")) return step("pkce", "pass", "The authorization server lists S256", `code_challenge_methods_supported: ${methods.join(", ")}`);
  const advice = "List S256 in code_challenge_methods_supported (MCP clients must refuse a server that does not); if the provider supports it without saying so, a provider profile can fill it in";
  return step("pkce", "fail", advice, methods ? `code_challenge_methods_supported: ${methods.join(", ")}` : "code_challenge_methods_supported is missing");
}

export function tokenAuthStep(found: Discovery, client: StoredClient | undefined): DoctorStep {
  if (!client) return step("token-endpoint-auth", "skip", "Not checked: no client");
  const method = client.tokenEndpointAuthMethod;
  const supported = found.metadata.token_endpoint_auth_methods_supported;
  if (!supported) return method === "client_secret_basic" ? step("token-endpoint-auth", "pass", `The client uses ${method}, RFC 8414's default when none is listed`) : step("token-endpoint-auth", "warn", `The server lists no token_endpoint_auth_methods_supported (default: client_secret_basic only) and the client uses ${method}; list the methods it takes`);
  if (supported.includes(method)) return step("token-endpoint-auth", "pass", `The client uses ${method}, which the server lists`, `supported: ${supported.join(", ")}`);
  return step("token-endpoint-auth", "fail", `The client would authenticate with ${method}, which the server does not list: configure tokenEndpointAuthMethod as one of ${supported.join(", ")} (or register the client so)`, `supported: ${supported.join(", ")}`);
}

const symmetric = (algs: unknown): boolean => Array.isArray(algs) && algs.length > 0 && algs.every((a) => typeof a === "string" && a.startsWith("HS"));

export function signingStep(found: Discovery, client: StoredClient | undefined, keyAlgorithm: string | undefined): DoctorStep {
  const assertionAlgs = found.metadata["token_endpoint_auth_signing_alg_values_supported"];
  const idAlgs = found.metadata["id_token_signing_alg_values_supported"];
  if (client?.tokenEndpointAuthMethod === "private_key_jwt" && Array.isArray(assertionAlgs)) {
    const ours = keyAlgorithm ? [keyAlgorithm] : ["ES256", "RS256"];
    if (!ours.some((a) => assertionAlgs.includes(a))) return step("signing-algorithms", "fail", `The server takes client assertions signed with ${assertionAlgs.join(", ")} only; private_key_jwt here signs with ${ours.join(" or ")}: allow one of those for the client, or use a client secret`, `token_endpoint_auth_signing_alg_values_supported: ${assertionAlgs.join(", ")}`);
  }
  if (symmetric(idAlgs)) return step("signing-algorithms", "warn", "The server signs ID tokens with HMAC only (HS256…), keyed with the client secret: a public client cannot check them. MCP access needs no ID token, but another client of this server may", `id_token_signing_alg_values_supported: ${(idAlgs as string[]).join(", ")}`);
  if (Array.isArray(assertionAlgs) || Array.isArray(idAlgs)) return step("signing-algorithms", "pass", "Asymmetric algorithms are offered", [Array.isArray(assertionAlgs) ? `client assertions: ${assertionAlgs.join(", ")}` : "", Array.isArray(idAlgs) ? `ID tokens: ${idAlgs.join(", ")}` : ""].filter(Boolean).join("; "));
  return step("signing-algorithms", "skip", "The metadata lists no signing algorithms");
}

export function dpopStep(challenge: BearerChallenge, header: string | undefined, found: Discovery): DoctorStep {
  const algs = found.metadata.dpop_signing_alg_values_supported;
  const required = challenge.dpop === true && !/(?:^|[\s,])bearer(?=\s|,|$)/i.test(header ?? "");
  if (!algs && !challenge.dpop) return step("dpop", "skip", "Neither server advertises DPoP: Bearer tokens");
  if (!Array.isArray(algs) || !algs.includes("ES256")) {
    const advice = `This client makes ES256 DPoP proofs; the authorization server lists ${Array.isArray(algs) ? algs.join(", ") : "no dpop_signing_alg_values_supported"}`;
    return step("dpop", required ? "fail" : "warn", required ? `${advice}, and the MCP server takes DPoP tokens only: list ES256` : `${advice}: tokens will be Bearer`);
  }
  return step("dpop", "pass", challenge.dpop ? "Both servers offer DPoP with ES256: tokens are bound to a key of this client" : "The authorization server offers DPoP (ES256); the MCP server's challenge does not ask for it, so tokens are Bearer unless dpop: true", `dpop_signing_alg_values_supported: ${algs.join(", ")}`);
}

export function scopesStep(found: Discovery, challenge: BearerChallenge, scope: string | undefined, probe: Probe | undefined): DoctorStep {
  if (probe?.kind === "error" && probe.error === "invalid_scope") return step("scopes", "fail", `The authorization server refused the scopes ${scope ?? "(none)"}: configure oauth.scopes with ones it knows`, probe.description);
  const source = challenge.scope ? "the challenge's scope" : found.resourceMetadata?.scopes_supported ? "the resource's scopes_supported" : "no source";
  const listed = found.metadata.scopes_supported;
  const unknown = (scope ?? "").split(" ").filter((s) => s !== "" && listed !== undefined && !listed.includes(s) && !s.includes("/"));
  const detail = `asks for ${scope ?? "no scope"} (from ${source}); a 403 insufficient_scope asks again with the added scopes (step-up)`;
  if (unknown.length > 0) return step("scopes", "warn", `The authorization server does not list ${unknown.join(", ")} in scopes_supported: the request may be refused or the scope dropped`, detail);
  return step("scopes", "pass", scope ? `Asks for ${scope}` : "No scope is asked for: the authorization server's default applies", detail);
}

export function authorizationStep(probe: Probe | undefined): DoctorStep {
  if (!probe) return step("authorization-request", "skip", "Not tried: no client id to ask with");
  switch (probe.kind) {
    case "response":
      return probe.stateMatches ? step("authorization-request", "pass", "The authorization endpoint answered with a code") : step("authorization-request", "fail", "The redirect carried another state than the request's: the authorization server must return state unchanged");
    case "user":
      return step("authorization-request", "pass", "The authorization endpoint took the request and asks for a user; run `mcp auth <server>` (or pass a user step) to check the rest", `HTTP ${probe.status}`);
    case "error":
      return step("authorization-request", "fail", `The authorization server refused the request: ${probe.error}${probe.description ? ` (${probe.description})` : ""}`);
    case "refused":
      return step("authorization-request", "fail", `The authorization endpoint answered HTTP ${probe.status}${probe.error ? ` (${probe.error})` : ""} instead of a redirect: check that the client id and redirect URI are registered`);
    case "failed":
      return step("authorization-request", "fail", "The authorization endpoint could not be reached", probe.message);
  }
}

const resourceRefused = (error: string | undefined, description: string | undefined): boolean => error === "invalid_target" || /AADSTS9010010/.test(description ?? "");

export function resourceStep(found: Discovery, probe: Probe | undefined, token: TokenOutcome | undefined): DoctorStep {
  const advice = "The authorization server refused the RFC 8707 resource parameter: if it is one that never takes it (Entra ID, Google, GitHub), choose its profile (oauth: { profile: \"entra\" }); otherwise register the MCP server's resource identifier there";
  if (found.profile?.resourceParameter === false) return step("resource-indicator", "skip", `Not sent: the ${found.profile.name} profile says ${found.profile.title} refuses it`);
  const detail = `resource=${redactUrl(found.resourceIndicator)}`;
  if (probe?.kind === "error" && resourceRefused(probe.error, probe.description)) return step("resource-indicator", "fail", advice, `resource refused at the authorization endpoint (${probe.error}); ${detail}`);
  if (token && "error" in token && resourceRefused(token.error.oauthError, token.error.oauthErrorDescription)) return step("resource-indicator", "fail", advice, `resource refused at the token endpoint (${token.error.oauthError}); ${detail}`);
  if (token && "tokens" in token) return step("resource-indicator", "pass", "Accepted by the authorization and token endpoints", detail);
  if (probe?.kind === "response" || probe?.kind === "user") return step("resource-indicator", "pass", "Not refused by the authorization endpoint (the token endpoint was not reached)", detail);
  return step("resource-indicator", "skip", "Not checked: the authorization request did not get that far", detail);
}

export function issStep(found: Discovery, probe: Probe | undefined): DoctorStep {
  const promised = found.metadata.authorization_response_iss_parameter_supported === true;
  if (probe?.kind !== "response") return step("iss", "skip", "Needs a completed authorization (a redirect with a code)", `authorization_response_iss_parameter_supported: ${promised}`);
  const iss = probe.response.iss;
  if (iss === undefined) {
    if (promised) return step("iss", "fail", "The server promises an iss parameter (authorization_response_iss_parameter_supported) and the redirect has none: the client refuses it; the server must add iss to every authorization response", "no iss in the redirect");
    return step("iss", "warn", "The redirect has no iss parameter: a mix-up between authorization servers cannot be detected; the server should send iss and set authorization_response_iss_parameter_supported", "no iss in the redirect");
  }
  if (iss !== found.metadata.issuer) return step("iss", "fail", `The redirect names issuer ${redactUrl(iss)}, not ${redactUrl(found.metadata.issuer)} (compared exactly): the client refuses it`);
  return step("iss", "pass", "The redirect names the issuer", `iss ${redactUrl(iss)}`);
}

export function tokenStep(token: TokenOutcome | undefined, client: StoredClient | undefined): DoctorStep {
  if (!token) return step("token", "skip", "Needs an authorization code");
  if ("tokens" in token) {
    const t = token.tokens;
    return step("token", "pass", `The token endpoint issued a ${t.tokenType} token`, [t.expiresAt ? `expires in ${Math.round((t.expiresAt - Date.now()) / 1000)} s` : "no expiry given", t.refreshToken ? "with a refresh token" : "no refresh token", t.scope ? `scope ${t.scope}` : ""].filter(Boolean).join("; "));
  }
  const code = token.error.oauthError;
  const why = code === "invalid_client" ? `the client's authentication (${client?.tokenEndpointAuthMethod ?? "?"}) was refused: check the client id, secret and token endpoint auth method` : code === "invalid_grant" ? "the code, its PKCE verifier or the redirect URI was refused" : code === "invalid_target" ? "the resource parameter was refused (see resource-indicator)" : "see the server's error";
  return step("token", "fail", `The token endpoint refused the code: ${why}`, token.error.message);
}

export function refreshStep(found: Discovery, token: TokenOutcome | undefined, refreshed: TokenOutcome | undefined): DoctorStep {
  const offline = found.metadata.scopes_supported?.includes("offline_access") === true;
  const grants = found.metadata.grant_types_supported;
  if (!token || "error" in token) {
    if (offline || grants?.includes("refresh_token")) return step("refresh", "pass", "Refresh tokens are advertised (not tried without a token)", [offline ? "scopes_supported has offline_access" : "", grants?.includes("refresh_token") ? "grant_types_supported has refresh_token" : ""].filter(Boolean).join("; "));
    return step("refresh", "skip", "Needs a token; the metadata says nothing of refresh tokens (no offline_access, no refresh_token grant)");
  }
  if (!token.tokens.refreshToken) return step("refresh", "warn", `No refresh token came with the token: the user signs in again when it expires${offline ? "" : "; the server does not list offline_access, which many servers need before they issue one"}`);
  if (!refreshed) return step("refresh", "skip", "Not tried");
  if ("error" in refreshed) return step("refresh", "fail", "The token endpoint refused the refresh token it had just issued", refreshed.error.message);
  const rotates = refreshed.tokens.refreshToken !== undefined && refreshed.tokens.refreshToken !== token.tokens.refreshToken;
  return step("refresh", "pass", `The refresh token works${rotates ? " and rotates (each use gives a new one; concurrent clients share one refresh)" : ""}`);
}

export function acceptedStep(status: number | undefined, header: string | undefined, token: TokenOutcome | undefined): DoctorStep {
  if (!token || "error" in token) return step("token-accepted", "skip", "Needs a token");
  if (status === undefined) return step("token-accepted", "fail", "The MCP server could not be reached with the token");
  if (status === 401 || status === 403) return step("token-accepted", "fail", "The MCP server refused the token the authorization server issued: it must accept tokens whose audience is its resource identifier (and the authorization server must issue them so)", `HTTP ${status}${header ? `; WWW-Authenticate: ${header}` : ""}`);
  return step("token-accepted", "pass", "The MCP server took the token", `HTTP ${status}`);
}
