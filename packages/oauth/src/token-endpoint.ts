import { redactUrl } from "@mcp/jsonrpc/internal";
import { isObject, type Discovery, type OAuthFetch } from "./discovery.js";
import { OAuthError } from "./errors.js";
import { readOAuthBody } from "./http.js";
import { clientAssertion } from "#node";
import type { DpopKey } from "./dpop.js";
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
export function preRegisteredClient(
  options: Pick<OAuthProviderOptions, "clientId" | "clientSecret" | "clientAssertionKey" | "tokenEndpointAuthMethod">,
  found: Discovery,
): StoredClient | undefined {
  const { clientId, clientSecret, clientAssertionKey, tokenEndpointAuthMethod } = options;
  if (!clientId) return undefined;
  const method =
    tokenEndpointAuthMethod ?? (clientAssertionKey ? "private_key_jwt" : clientSecret ? secretMethod(found) : "none");
  return { clientId, clientSecret, tokenEndpointAuthMethod: method };
}

/** `client_secret_basic` unless the server lists only `client_secret_post`. */
function secretMethod(found: Discovery): string {
  const supported = found.metadata.token_endpoint_auth_methods_supported;
  return supported && !supported.includes("client_secret_basic") && supported.includes("client_secret_post")
    ? "client_secret_post"
    : "client_secret_basic";
}

/**
 * One token request, authenticated as the client's method says. With a DPoP key it carries a
 * proof (RFC 9449 §5) and asks for a DPoP-bound token; a `use_dpop_nonce` answer is retried once
 * with the server's nonce (§8).
 */
export async function requestToken(
  fetch: OAuthFetch,
  found: Discovery,
  client: StoredClient,
  step: "token" | "refresh",
  params: Record<string, string>,
  scope: string | undefined,
  key: ClientAssertionKey | undefined,
  dpop?: DpopKey,
): Promise<StoredTokens> {
  const endpoint = found.metadata.token_endpoint;
  if (!endpoint)
    throw new OAuthError("metadata", `The authorization server ${redactUrl(found.issuer)} lists no token endpoint`);
  const body = new URLSearchParams(params);
  // A provider profile may say the server refuses `resource` (Entra ID, Google, GitHub).
  if (found.profile?.resourceParameter !== false) body.set("resource", found.resourceIndicator);
  const headers = authenticate(client, body, step, key, found.issuer);
  let answer: Record<string, unknown> & Record<"access_token", string>;
  if (dpop) {
    const proofHeaders = async (): Promise<Record<string, string>> => ({
      ...headers,
      dpop: await dpop.proof({ method: "POST", url: endpoint }),
    });
    let sent = await post(fetch, step, "token endpoint", endpoint, await proofHeaders(), body.toString());
    const nonce = sent.response.headers.get("dpop-nonce");
    if (nonce !== null) dpop.setNonce(endpoint, nonce);
    // One retry, with a fresh proof carrying the nonce; a second refusal is the answer.
    if (sent.response.status === 400 && sent.answer?.["error"] === "use_dpop_nonce" && nonce !== null)
      sent = await post(fetch, step, "token endpoint", endpoint, await proofHeaders(), body.toString());
    answer = accepted(step, "token endpoint", endpoint, sent, "access_token");
  } else {
    answer = await postForm(fetch, step, "token endpoint", endpoint, headers, body.toString(), "access_token");
  }
  const tokenType = typeof answer["token_type"] === "string" ? answer["token_type"] : "Bearer";
  const bound = dpop !== undefined && tokenType.toLowerCase() === "dpop";
  if (tokenType.toLowerCase() !== "bearer" && !bound)
    throw new OAuthError(
      step,
      `The token endpoint ${redactUrl(endpoint)} issued a ${tokenType} token; only Bearer${dpop ? " and DPoP" : ""} tokens are supported`,
    );
  const expiresIn = typeof answer["expires_in"] === "number" ? answer["expires_in"] : Number(answer["expires_in"]);
  return {
    accessToken: answer["access_token"],
    tokenType: bound ? "DPoP" : "Bearer",
    refreshToken: typeof answer["refresh_token"] === "string" ? answer["refresh_token"] : undefined,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
    scope: typeof answer["scope"] === "string" ? answer["scope"] : scope,
  };
}

/**
 * The client's authentication on a request to the token endpoint (or another endpoint that
 * authenticates clients the same way, such as the device authorization endpoint): Basic, the
 * secret or an assertion in `body`, or only `client_id`. Returns the request's headers.
 */
export function authenticate(
  client: StoredClient,
  body: URLSearchParams,
  step: "token" | "refresh",
  key: ClientAssertionKey | undefined,
  issuer: string,
): Record<string, string> {
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
      body.set("client_assertion", clientAssertion(key, client.clientId, issuer));
      break;
    }
    default:
      // A workload identity grant may have no client id at all.
      if (client.clientId !== "") body.set("client_id", client.clientId);
  }
  return headers;
}

/**
 * One POST to an endpoint of the authorization flow, answered with a JSON object holding the
 * string `field`. Anything else is an {@link OAuthError} for `step`, with the server's `error`.
 */
export async function postForm<F extends string>(
  fetch: OAuthFetch,
  step: Step,
  what: string,
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  field: F,
): Promise<Record<string, unknown> & Record<F, string>> {
  return accepted(step, what, endpoint, await post(fetch, step, what, endpoint, headers, body), field);
}

type Step = "registration" | "token" | "refresh";

/** One POST and its JSON answer (undefined when it is not a JSON object). */
async function post(
  fetch: OAuthFetch,
  step: Step,
  what: string,
  endpoint: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ response: Response; answer: Record<string, unknown> | undefined }> {
  let response: Response;
  try {
    // Never followed: fetch would take the body (a code and its verifier, a refresh token, a client secret) to wherever it points.
    response = await fetch(endpoint, { method: "POST", headers, body, redirect: "manual" });
  } catch (cause) {
    throw new OAuthError(
      step,
      `Could not reach the ${what} ${redactUrl(endpoint)}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { url: redactUrl(endpoint), cause },
    );
  }
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    void response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    const where = location === null ? "" : ` to ${redactUrl(location)}`;
    throw new OAuthError(
      step,
      `The ${what} ${redactUrl(endpoint)} answered with a redirect${where}, which is not followed: the request carries credentials`,
      { url: redactUrl(endpoint), status: response.status },
    );
  }
  let text: string;
  try {
    text = await readOAuthBody(response);
  } catch (cause) {
    throw new OAuthError(
      step,
      `Could not read the answer of the ${what} ${redactUrl(endpoint)}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { url: redactUrl(endpoint), status: response.status, cause },
    );
  }
  return { response, answer: jsonObject(text) };
}

/** The answer when it is a success holding the string `field`; else the refusal as an {@link OAuthError}. */
function accepted<F extends string>(
  step: Step,
  what: string,
  endpoint: string,
  sent: { response: Response; answer: Record<string, unknown> | undefined },
  field: F,
): Record<string, unknown> & Record<F, string> {
  const { response, answer } = sent;
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

/** `text` as a JSON object; undefined when it is not one. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An endpoint's refusal, with its `error` / `error_description` (never the request's secrets). */
function refused(
  step: Step,
  what: string,
  endpoint: string,
  status: number,
  body: Record<string, unknown> | undefined,
): OAuthError {
  const code = typeof body?.["error"] === "string" ? body["error"] : undefined;
  const description = typeof body?.["error_description"] === "string" ? body["error_description"] : undefined;
  const reason = code ? `${code}${description ? ` (${description})` : ""}` : `HTTP ${status}`;
  return new OAuthError(step, `The ${what} ${redactUrl(endpoint)} refused: ${reason}`, {
    url: redactUrl(endpoint),
    status,
    oauthError: code,
    oauthErrorDescription: description,
  });
}
