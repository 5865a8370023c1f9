import { redactUrl } from "@mcp/jsonrpc";
import { isObject, type Discovery, type OAuthFetch } from "./discovery.js";
import { OAuthError } from "./errors.js";
import { clientAssertion } from "#node";
import type { ClientAssertionKey } from "./jwt.js";
import type { OAuthProviderOptions } from "./options.js";
import type { StoredClient, StoredTokens } from "./token-store.js";

// The authorization server's token and registration endpoints: who the client is, how it
// authenticates, and one POST answered with JSON.

export const FORM = "application/x-www-form-urlencoded";
export const JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
export const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/**
 * The client of the options (`clientId`), when there is one, with its token endpoint
 * authentication: as configured, else `private_key_jwt` with a key, the server's secret method
 * with a secret, `none` without either. Every grant and the refresh use this one answer.
 */
export function preRegisteredClient(options: OAuthProviderOptions, found: Discovery): StoredClient | undefined {
  const { clientId, clientSecret, clientAssertionKey, tokenEndpointAuthMethod } = options;
  if (!clientId) return undefined;
  const method = tokenEndpointAuthMethod ?? (clientAssertionKey ? "private_key_jwt" : clientSecret ? secretMethod(found) : "none");
  return { clientId, clientSecret, tokenEndpointAuthMethod: method };
}

/** `client_secret_basic` unless the server lists only `client_secret_post`. */
function secretMethod(found: Discovery): string {
  const supported = found.metadata.token_endpoint_auth_methods_supported;
  return supported && !supported.includes("client_secret_basic") && supported.includes("client_secret_post") ? "client_secret_post" : "client_secret_basic";
}

/** One token request, authenticated as the client's method says. */
export async function requestToken(fetch: OAuthFetch, found: Discovery, client: StoredClient, step: "token" | "refresh", params: Record<string, string>, scope: string | undefined, key: ClientAssertionKey | undefined): Promise<StoredTokens> {
  const endpoint = found.metadata.token_endpoint;
  if (!endpoint) throw new OAuthError("metadata", `The authorization server ${redactUrl(found.issuer)} lists no token endpoint`);
  const body = new URLSearchParams(params);
  body.set("resource", found.resourceIndicator);
  const headers: Record<string, string> = { "content-type": FORM, accept: "application/json" };
  switch (client.tokenEndpointAuthMethod) {
    case "client_secret_basic":
      headers["authorization"] = basicAuth(client.clientId, client.clientSecret ?? "");
      break;
    case "client_secret_post":
      body.set("client_id", client.clientId);
      body.set("client_secret", client.clientSecret ?? "");
      break;
    case "private_key_jwt": {
      if (!key) throw new OAuthError(step, "private_key_jwt needs a clientAssertionKey");
      body.set("client_id", client.clientId);
      body.set("client_assertion_type", JWT_BEARER);
      body.set("client_assertion", clientAssertion(key, client.clientId, found.issuer));
      break;
    }
    default:
      body.set("client_id", client.clientId);
  }
  const answer = await postForm(fetch, step, "token endpoint", endpoint, headers, body.toString(), "access_token");
  const tokenType = typeof answer["token_type"] === "string" ? answer["token_type"] : "Bearer";
  if (tokenType.toLowerCase() !== "bearer") throw new OAuthError(step, `The token endpoint ${redactUrl(endpoint)} issued a ${tokenType} token; only Bearer tokens are supported`);
  const expiresIn = typeof answer["expires_in"] === "number" ? answer["expires_in"] : Number(answer["expires_in"]);
  return {
    accessToken: answer["access_token"],
    tokenType: "Bearer",
    refreshToken: typeof answer["refresh_token"] === "string" ? answer["refresh_token"] : undefined,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
    scope: typeof answer["scope"] === "string" ? answer["scope"] : scope,
  };
}

/**
 * One POST to an endpoint of the authorization flow, answered with a JSON object holding the
 * string `field`. Anything else is an {@link OAuthError} for `step`, with the server's `error`.
 */
export async function postForm<F extends string>(fetch: OAuthFetch, step: "registration" | "token" | "refresh", what: string, endpoint: string, headers: Record<string, string>, body: string, field: F): Promise<Record<string, unknown> & Record<F, string>> {
  let response: Response;
  try {
    response = await fetch(endpoint, { method: "POST", headers, body });
  } catch (cause) {
    throw new OAuthError(step, `Could not reach the ${what} ${redactUrl(endpoint)}`, { url: redactUrl(endpoint), cause });
  }
  const answer = await readJson(response);
  if (!response.ok || typeof answer?.[field] !== "string") throw refused(step, what, endpoint, response.status, answer);
  return answer as Record<string, unknown> & Record<F, string>;
}

/** `client_secret_basic` (RFC 6749 §2.3.1): both parts form-encoded, then base64. */
export function basicAuth(id: string, secret: string): string {
  return `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`; // ASCII: form-encoded
}

export function isLoopback(uri: string): boolean {
  try {
    const host = new URL(uri).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.json();
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An endpoint's refusal, with its `error` / `error_description` (never the request's secrets). */
function refused(step: "registration" | "token" | "refresh", what: string, endpoint: string, status: number, body: Record<string, unknown> | undefined): OAuthError {
  const code = typeof body?.["error"] === "string" ? body["error"] : undefined;
  const description = typeof body?.["error_description"] === "string" ? body["error_description"] : undefined;
  const reason = code ? `${code}${description ? ` (${description})` : ""}` : `HTTP ${status}`;
  return new OAuthError(step, `The ${what} ${redactUrl(endpoint)} refused: ${reason}`, { url: redactUrl(endpoint), status, oauthError: code, oauthErrorDescription: description });
}
