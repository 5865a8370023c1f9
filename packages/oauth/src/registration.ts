// What the flow asks for, shared by the provider and the doctor: the scopes, and a Dynamic Client Registration (RFC 7591).
import type { BearerChallenge } from "./challenge.js";
import type { Discovery, OAuthFetch } from "./discovery.js";
import { OAuthError } from "./errors.js";
import type { OAuthProviderOptions } from "./options.js";
import { profileScopes } from "./profile.js";
import type { StoredClient } from "./token-store.js";
import { isLoopback, postForm } from "./token-endpoint.js";

/** RFC 8628's grant type. */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * Scope selection (MCP 2025-11-25): the configured scopes, else the challenge's, else the
 * protected resource's `scopes_supported` (not for a step-up), else none; `offline_access` added
 * when the authorization server offers it (authorization code only); then the provider profile's
 * `defaultScopes` when nothing names a resource.
 */
export function chooseScope(
  options: Pick<OAuthProviderOptions, "scopes" | "grant">,
  challenge: BearerChallenge,
  found: Discovery,
  stepUp: boolean,
): string | undefined {
  let scopes: string[];
  if (options.scopes) scopes = [...options.scopes];
  else if (challenge.scope) scopes = challenge.scope.split(" ").filter(Boolean);
  else if (!stepUp && found.resourceMetadata?.scopes_supported) scopes = [...found.resourceMetadata.scopes_supported];
  else scopes = [];
  if (
    (options.grant ?? "authorization_code") === "authorization_code" &&
    found.metadata.scopes_supported?.includes("offline_access") &&
    !scopes.includes("offline_access")
  )
    scopes.push("offline_access");
  scopes = profileScopes(scopes, found.profile, found.resourceIndicator);
  return scopes.length > 0 ? scopes.join(" ") : undefined;
}

/**
 * Registers this client at the authorization server's `registration_endpoint` (RFC 7591): a
 * public or confidential client, as the server's `token_endpoint_auth_methods_supported` allows,
 * for the authorization code and refresh grants and this one redirect URI (or, with none, for
 * the device code and refresh grants).
 */
export async function registerClient(
  fetch: OAuthFetch,
  found: Discovery,
  clientName: string | undefined,
  redirectUri: string | undefined,
): Promise<StoredClient> {
  const endpoint = found.metadata.registration_endpoint;
  if (!endpoint) throw new OAuthError("registration", "The authorization server has no registration_endpoint");
  const supported = found.metadata.token_endpoint_auth_methods_supported;
  const wanted =
    (supported
      ? ["client_secret_basic", "client_secret_post", "none"].find((m) => supported.includes(m))
      : undefined) ?? "client_secret_basic";
  // Without a redirect URI: a device flow client (RFC 8628), which has no redirect and no response type.
  const registration = JSON.stringify({
    client_name: clientName ?? "mcp-client-stack",
    ...(redirectUri === undefined
      ? { redirect_uris: [], grant_types: [DEVICE_CODE_GRANT, "refresh_token"], response_types: [] }
      : {
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
        }),
    token_endpoint_auth_method: wanted,
    // SEP-837: a loopback redirect is a native application's; anything else a web one's.
    application_type: redirectUri === undefined || isLoopback(redirectUri) ? "native" : "web",
  });
  const body = await postForm(
    fetch,
    "registration",
    "registration endpoint",
    endpoint,
    { "content-type": "application/json", accept: "application/json" },
    registration,
    "client_id",
  );
  return {
    clientId: body["client_id"],
    clientSecret: typeof body["client_secret"] === "string" ? body["client_secret"] : undefined,
    tokenEndpointAuthMethod:
      typeof body["token_endpoint_auth_method"] === "string" ? body["token_endpoint_auth_method"] : wanted,
    redirectUri,
  };
}
