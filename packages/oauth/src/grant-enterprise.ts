// The enterprise-managed grant (SEP-990): the ID token exchanged at the identity provider for an ID-JAG, which the authorization server takes in a JWT bearer grant.
import type { Discovery } from "./discovery.js";
import { OAuthError } from "./errors.js";
import type { GrantContext } from "./options.js";
import type { StoredTokens } from "./token-store.js";
import {
  basicAuth,
  FORM,
  ID_JAG_TYPE,
  ID_TOKEN_TYPE,
  JWT_BEARER_GRANT,
  postForm,
  preRegisteredClient,
  requestToken,
  TOKEN_EXCHANGE,
} from "./token-endpoint.js";

/**
 * SEP-990: the ID token is exchanged at the identity provider for an ID-JAG (RFC 8693, audience
 * = the authorization server, resource = this server), which the authorization server takes in
 * a JWT bearer grant (RFC 7523) from this client.
 */
export async function enterpriseGrant(
  ctx: GrantContext,
  found: Discovery,
  scope: string | undefined,
): Promise<StoredTokens> {
  const enterprise = ctx.options.enterprise;
  const client = preRegisteredClient(ctx.options, found);
  if (!enterprise || !client)
    throw new OAuthError("registration", "The enterprise grant needs the enterprise options and a clientId");
  const idToken = typeof enterprise.idToken === "function" ? await enterprise.idToken() : enterprise.idToken;
  const exchange = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
    requested_token_type: ID_JAG_TYPE,
    audience: found.metadata.issuer,
    resource: found.resourceIndicator,
  });
  if (scope) exchange.set("scope", scope);
  const headers: Record<string, string> = { "content-type": FORM, accept: "application/json" };
  if (enterprise.clientSecret !== undefined)
    headers["authorization"] = basicAuth(enterprise.clientId, enterprise.clientSecret);
  else exchange.set("client_id", enterprise.clientId);
  const answer = await postForm(
    ctx.fetch,
    "token",
    "identity provider's token endpoint",
    enterprise.tokenEndpoint,
    headers,
    exchange.toString(),
    "access_token",
  );
  if (answer["issued_token_type"] !== undefined && answer["issued_token_type"] !== ID_JAG_TYPE)
    throw new OAuthError(
      "token",
      `The identity provider issued a ${JSON.stringify(answer["issued_token_type"])}, not an ID-JAG`,
    );
  const params: Record<string, string> = { grant_type: JWT_BEARER_GRANT, assertion: answer["access_token"] };
  if (scope) params["scope"] = scope;
  return requestToken(ctx.fetch, found, client, "token", params, scope, ctx.options.clientAssertionKey, ctx.dpopKey());
}
