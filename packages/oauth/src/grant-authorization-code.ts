// The authorization code grant with PKCE: the user step, then the code exchanged for tokens.
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { Discovery } from "./discovery.js";
import { OAuthError } from "./errors.js";
import type { GrantContext } from "./options.js";
import { createPkce, createState, type Pkce } from "./pkce.js";
import { profileValue } from "./profile.js";
import type { StoredTokens } from "./token-store.js";
import { requestToken } from "./token-endpoint.js";

/**
 * The `authorization_code` grant with PKCE (S256): the user step opens the authorization URL, the
 * redirect's `state` and `iss` (RFC 9207) are checked, and the code is exchanged for tokens.
 */
export async function authorizationCodeGrant(
  ctx: GrantContext,
  found: Discovery,
  scope: string | undefined,
): Promise<StoredTokens> {
  const { redirectUri, authorize } = ctx.options;
  if (!redirectUri || !authorize) {
    throw new OAuthError(
      "authorization",
      `MCP server ${redactUrl(ctx.options.serverUrl)} needs authorization, and no user step is configured to get a token (the authorize and redirectUri options; in the mcp CLI: mcp auth <server>)`,
    );
  }
  const metadata = found.metadata;
  if (!metadata.authorization_endpoint || !metadata.token_endpoint)
    throw new OAuthError(
      "metadata",
      `The authorization server ${redactUrl(found.issuer)} lists no authorization or token endpoint`,
    );
  if (!found.defaultEndpoints && !(metadata.code_challenge_methods_supported ?? []).includes("S256")) {
    throw new OAuthError(
      "metadata",
      `The authorization server ${redactUrl(found.issuer)} does not advertise PKCE S256 (code_challenge_methods_supported); refusing to authorize`,
    );
  }
  const client = await ctx.client(found, redirectUri);
  const pkce = await createPkce();
  const state = createState();
  const url = authorizationUrl(found, client.clientId, redirectUri, pkce, state, scope);

  const answer = await authorize({ url, state, redirectUri });
  if (answer.state !== state)
    throw new OAuthError(
      "authorization",
      "The authorization response's state does not match the request's; refusing it",
    );
  if (answer.iss !== undefined) {
    // RFC 9207 §2.4: compared exactly, without any URL normalization.
    if (answer.iss !== found.metadata.issuer)
      throw new OAuthError(
        "authorization",
        `The authorization response came from issuer ${redactUrl(answer.iss)}, not ${redactUrl(found.metadata.issuer)}; refusing it`,
      );
  } else if (metadata.authorization_response_iss_parameter_supported === true) {
    throw new OAuthError(
      "authorization",
      `The authorization server ${redactUrl(found.issuer)} promises an iss parameter, and the response has none; refusing it`,
    );
  }
  return requestToken(
    ctx.fetch,
    found,
    client,
    "token",
    { grant_type: "authorization_code", code: answer.code, redirect_uri: redirectUri, code_verifier: pkce.verifier },
    scope,
    ctx.options.clientAssertionKey,
    ctx.dpopKey(),
  );
}

/**
 * The authorization request (RFC 6749 §4.1.1) as this flow sends it: PKCE S256, `state`, the
 * scope, `resource` (RFC 8707) unless the provider profile says the server refuses it, and the
 * profile's extra parameters.
 */
export function authorizationUrl(
  found: Discovery,
  clientId: string,
  redirectUri: string,
  pkce: Pkce,
  state: string,
  scope: string | undefined,
): URL {
  const url = new URL(found.metadata.authorization_endpoint ?? "");
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", pkce.challenge);
  url.searchParams.set("code_challenge_method", pkce.method);
  url.searchParams.set("state", state);
  if (scope) url.searchParams.set("scope", scope);
  if (found.profile?.resourceParameter !== false) url.searchParams.set("resource", found.resourceIndicator);
  for (const [name, value] of Object.entries(found.profile?.authorizationParams ?? {}))
    url.searchParams.set(name, profileValue(value, found.resourceIndicator));
  return url;
}
