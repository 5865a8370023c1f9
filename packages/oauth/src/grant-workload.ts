// Workload identity federation (RFC 7523): a platform-issued JWT exchanged for an access token.
import type { Discovery } from "./discovery.js";
import { OAuthError } from "./errors.js";
import type { GrantContext } from "./options.js";
import type { StoredTokens } from "./token-store.js";
import { JWT_BEARER_GRANT, preRegisteredClient, requestToken } from "./token-endpoint.js";

/**
 * Workload Identity Federation (the MCP extension `io.modelcontextprotocol/auth/wif`, SEP-1933):
 * the workload's own JWT (from Kubernetes, SPIFFE, a cloud platform) is the grant (RFC 7523
 * §2.1). No registration and no secret; a `clientId` is sent only when configured. A refusal
 * (`invalid_grant`, `invalid_scope`, `unauthorized_client`) is the answer: it is not retried and
 * no other grant is tried.
 */
export async function workloadIdentityGrant(
  ctx: GrantContext,
  found: Discovery,
  scope: string | undefined,
): Promise<StoredTokens> {
  const source = ctx.options.workloadIdentity?.token;
  if (source === undefined)
    throw new OAuthError(
      "token",
      "The workload_identity grant needs workloadIdentity.token (the workload's JWT, or a function that reads it)",
    );
  const assertion = typeof source === "function" ? await source() : source;
  if (typeof assertion !== "string" || assertion.split(".").length !== 3)
    throw new OAuthError("token", "workloadIdentity.token did not give a JWT (three dot-separated parts)");
  const client = preRegisteredClient(ctx.options, found) ?? { clientId: "", tokenEndpointAuthMethod: "none" };
  const params: Record<string, string> = { grant_type: JWT_BEARER_GRANT, assertion };
  if (scope) params["scope"] = scope;
  return requestToken(ctx.fetch, found, client, "token", params, scope, ctx.options.clientAssertionKey, ctx.dpopKey());
}
