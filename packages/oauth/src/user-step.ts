// The user step's answer from a redirect, the no-user step that follows a redirect itself, and the loopback redirect URI.
import { OAuthError } from "./errors.js";
import type { OAuthFetch } from "./discovery.js";
import type { Authorize, AuthorizationResponse } from "./options.js";

/** The parameters of a redirect back to the client; an `error` there becomes an {@link OAuthError}. */
export function authorizationResponseOf(redirect: URL): AuthorizationResponse {
  const params = redirect.searchParams;
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description") ?? undefined;
    throw new OAuthError(
      "authorization",
      `The authorization server refused: ${error}${description ? ` (${description})` : ""}`,
      { oauthError: error, oauthErrorDescription: description },
    );
  }
  const code = params.get("code");
  if (code === null) throw new OAuthError("authorization", "The redirect back carried no authorization code");
  return { code, state: params.get("state") ?? undefined, iss: params.get("iss") ?? undefined };
}

/**
 * A user step with no user: requests the authorization URL and takes the redirect it answers
 * with (for servers that approve at once, such as test servers and some machine setups).
 */
export function followRedirectAuthorize(fetchImpl: OAuthFetch = (input, init) => fetch(input, init)): Authorize {
  return async (request) => {
    let response: Response;
    try {
      response = await fetchImpl(request.url.href, { redirect: "manual" });
    } catch (cause) {
      throw new OAuthError("authorization", "Could not reach the authorization endpoint", { cause });
    }
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) {
      throw new OAuthError(
        "authorization",
        `The authorization endpoint answered ${response.status} without a redirect; a browser is needed`,
        { status: response.status },
      );
    }
    const target = new URL(location, request.url);
    if (!target.href.startsWith(request.redirectUri.split("?")[0]!))
      throw new OAuthError(
        "authorization",
        "The authorization endpoint redirected somewhere other than the redirect URI",
      );
    return authorizationResponseOf(target);
  };
}

/** The redirect URI a loopback step listens on. */
export function loopbackRedirectUri(port: number, path = "/callback"): string {
  return `http://127.0.0.1:${port}${path}`;
}
