// GitHub: no metadata document at all, its own endpoints, no `resource`, no dynamic registration.
import type { ProviderProfile } from "./shape.js";

/**
 * GitHub (`https://github.com/login/oauth`). It publishes no authorization server metadata, so
 * its endpoints are given here; it takes PKCE S256 and a client secret in the form or in Basic;
 * it knows no `resource` and has no dynamic registration.
 */
export const github: ProviderProfile = {
  name: "github",
  title: "GitHub",
  issuers: [/^https:\/\/github\.com(?:\/login\/oauth)?\/?$/],
  resourceParameter: false,
  metadata: {
    authorization_endpoint: "https://github.com/login/oauth/authorize",
    token_endpoint: "https://github.com/login/oauth/access_token",
    device_authorization_endpoint: "https://github.com/login/device/code",
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    grant_types_supported: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
  },
  registration:
    "GitHub has no dynamic client registration: create an OAuth app or GitHub App (Settings → Developer settings, callback URL http://127.0.0.1:<port>/callback) and set its client id and secret as the server's oauth.clientId and oauth.clientSecret",
};
