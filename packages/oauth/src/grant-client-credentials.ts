// The client credentials grant: tokens for a client acting as itself, no user involved.
import type { Discovery } from "./discovery.js";
import { OAuthError } from "./errors.js";
import type { GrantContext } from "./options.js";
import type { StoredTokens } from "./token-store.js";
import { preRegisteredClient, requestToken } from "./token-endpoint.js";

/** The `client_credentials` grant (machine to machine): a pre-registered client asks for tokens itself. */
export function clientCredentialsGrant(
  ctx: GrantContext,
  found: Discovery,
  scope: string | undefined,
): Promise<StoredTokens> {
  const client = preRegisteredClient(ctx.options, found);
  if (!client) throw new OAuthError("registration", "The client_credentials grant needs a clientId");
  const params: Record<string, string> = { grant_type: "client_credentials" };
  if (scope) params["scope"] = scope;
  return requestToken(ctx.fetch, found, client, "token", params, scope, ctx.options.clientAssertionKey, ctx.dpopKey());
}
