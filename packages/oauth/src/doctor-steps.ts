// The doctor's verdicts on the sign-in itself: the authorization request, the resource indicator,
// the issuer, the token, its refresh and the MCP server's answer to it, each with its spec clause.
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { Discovery } from "./discovery.js";
import { step, type DoctorStep, type Probe, type TokenOutcome } from "./doctor-step.js";
import type { StoredClient } from "./token-store.js";

export function authorizationStep(probe: Probe | undefined): DoctorStep {
  if (!probe) return step("authorization-request", "skip", "Not tried: no client id to ask with");
  switch (probe.kind) {
    case "response":
      return probe.stateMatches
        ? step("authorization-request", "pass", "The authorization endpoint answered with a code")
        : step(
            "authorization-request",
            "fail",
            "The redirect carried another state than the request's: the authorization server must return state unchanged",
          );
    case "user":
      return step(
        "authorization-request",
        "pass",
        "The authorization endpoint took the request and asks for a user; run `mcp auth <server>` (or pass a user step) to check the rest",
        `HTTP ${probe.status}`,
      );
    case "error":
      return step(
        "authorization-request",
        "fail",
        `The authorization server refused the request: ${probe.error}${probe.description ? ` (${probe.description})` : ""}`,
      );
    case "refused":
      return step(
        "authorization-request",
        "fail",
        `The authorization endpoint answered HTTP ${probe.status}${probe.error ? ` (${probe.error})` : ""} instead of a redirect: check that the client id and redirect URI are registered`,
      );
    case "failed":
      return step("authorization-request", "fail", "The authorization endpoint could not be reached", probe.message);
  }
}

const resourceRefused = (error: string | undefined, description: string | undefined): boolean =>
  error === "invalid_target" || /AADSTS9010010/.test(description ?? "");

export function resourceStep(found: Discovery, probe: Probe | undefined, token: TokenOutcome | undefined): DoctorStep {
  const advice =
    'The authorization server refused the RFC 8707 resource parameter: if it is one that never takes it (Entra ID, Google, GitHub), choose its profile (oauth: { profile: "entra" }); otherwise register the MCP server\'s resource identifier there';
  if (found.profile?.resourceParameter === false)
    return step(
      "resource-indicator",
      "skip",
      `Not sent: the ${found.profile.name} profile says ${found.profile.title} refuses it`,
    );
  const detail = `resource=${redactUrl(found.resourceIndicator)}`;
  if (probe?.kind === "error" && resourceRefused(probe.error, probe.description))
    return step(
      "resource-indicator",
      "fail",
      advice,
      `resource refused at the authorization endpoint (${probe.error}); ${detail}`,
    );
  if (token && "error" in token && resourceRefused(token.error.oauthError, token.error.oauthErrorDescription))
    return step(
      "resource-indicator",
      "fail",
      advice,
      `resource refused at the token endpoint (${token.error.oauthError}); ${detail}`,
    );
  if (token && "tokens" in token)
    return step("resource-indicator", "pass", "Accepted by the authorization and token endpoints", detail);
  if (probe?.kind === "response" || probe?.kind === "user")
    return step(
      "resource-indicator",
      "pass",
      "Not refused by the authorization endpoint (the token endpoint was not reached)",
      detail,
    );
  return step("resource-indicator", "skip", "Not checked: the authorization request did not get that far", detail);
}

export function issStep(found: Discovery, probe: Probe | undefined): DoctorStep {
  const promised = found.metadata.authorization_response_iss_parameter_supported === true;
  if (probe?.kind !== "response")
    return step(
      "iss",
      "skip",
      "Needs a completed authorization (a redirect with a code)",
      `authorization_response_iss_parameter_supported: ${promised}`,
    );
  const iss = probe.response.iss;
  if (iss === undefined) {
    if (promised)
      return step(
        "iss",
        "fail",
        "The server promises an iss parameter (authorization_response_iss_parameter_supported) and the redirect has none: the client refuses it; the server must add iss to every authorization response",
        "no iss in the redirect",
      );
    return step(
      "iss",
      "warn",
      "The redirect has no iss parameter: a mix-up between authorization servers cannot be detected; the server should send iss and set authorization_response_iss_parameter_supported",
      "no iss in the redirect",
    );
  }
  if (iss !== found.metadata.issuer)
    return step(
      "iss",
      "fail",
      `The redirect names issuer ${redactUrl(iss)}, not ${redactUrl(found.metadata.issuer)} (compared exactly): the client refuses it`,
    );
  return step("iss", "pass", "The redirect names the issuer", `iss ${redactUrl(iss)}`);
}

export function tokenStep(token: TokenOutcome | undefined, client: StoredClient | undefined): DoctorStep {
  if (!token) return step("token", "skip", "Needs an authorization code");
  if ("tokens" in token) {
    const t = token.tokens;
    return step(
      "token",
      "pass",
      `The token endpoint issued a ${t.tokenType} token`,
      [
        t.expiresAt ? `expires in ${Math.round((t.expiresAt - Date.now()) / 1000)} s` : "no expiry given",
        t.refreshToken ? "with a refresh token" : "no refresh token",
        t.scope ? `scope ${t.scope}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  }
  const code = token.error.oauthError;
  const why =
    code === "invalid_client"
      ? `the client's authentication (${client?.tokenEndpointAuthMethod ?? "?"}) was refused: check the client id, secret and token endpoint auth method`
      : code === "invalid_grant"
        ? "the code, its PKCE verifier or the redirect URI was refused"
        : code === "invalid_target"
          ? "the resource parameter was refused (see resource-indicator)"
          : "see the server's error";
  return step("token", "fail", `The token endpoint refused the code: ${why}`, token.error.message);
}

export function refreshStep(
  found: Discovery,
  token: TokenOutcome | undefined,
  refreshed: TokenOutcome | undefined,
): DoctorStep {
  const offline = found.metadata.scopes_supported?.includes("offline_access") === true;
  const grants = found.metadata.grant_types_supported;
  if (!token || "error" in token) {
    if (offline || grants?.includes("refresh_token"))
      return step(
        "refresh",
        "pass",
        "Refresh tokens are advertised (not tried without a token)",
        [
          offline ? "scopes_supported has offline_access" : "",
          grants?.includes("refresh_token") ? "grant_types_supported has refresh_token" : "",
        ]
          .filter(Boolean)
          .join("; "),
      );
    return step(
      "refresh",
      "skip",
      "Needs a token; the metadata says nothing of refresh tokens (no offline_access, no refresh_token grant)",
    );
  }
  if (!token.tokens.refreshToken)
    return step(
      "refresh",
      "warn",
      `No refresh token came with the token: the user signs in again when it expires${offline ? "" : "; the server does not list offline_access, which many servers need before they issue one"}`,
    );
  if (!refreshed) return step("refresh", "skip", "Not tried");
  if ("error" in refreshed)
    return step(
      "refresh",
      "fail",
      "The token endpoint refused the refresh token it had just issued",
      refreshed.error.message,
    );
  const rotates =
    refreshed.tokens.refreshToken !== undefined && refreshed.tokens.refreshToken !== token.tokens.refreshToken;
  return step(
    "refresh",
    "pass",
    `The refresh token works${rotates ? " and rotates (each use gives a new one; concurrent clients share one refresh)" : ""}`,
  );
}

export function acceptedStep(
  status: number | undefined,
  header: string | undefined,
  token: TokenOutcome | undefined,
): DoctorStep {
  if (!token || "error" in token) return step("token-accepted", "skip", "Needs a token");
  if (status === undefined) return step("token-accepted", "fail", "The MCP server could not be reached with the token");
  if (status === 401 || status === 403)
    return step(
      "token-accepted",
      "fail",
      "The MCP server refused the token the authorization server issued: it must accept tokens whose audience is its resource identifier (and the authorization server must issue them so)",
      `HTTP ${status}${header ? `; WWW-Authenticate: ${header}` : ""}`,
    );
  return step("token-accepted", "pass", "The MCP server took the token", `HTTP ${status}`);
}
