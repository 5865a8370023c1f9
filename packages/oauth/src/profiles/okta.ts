// Okta: dynamic registration only with an admin token, so a client is configured by hand.
import type { ProviderProfile } from "./shape.js";

/**
 * Okta (an org authorization server `https://<org>.okta.com`, or a custom one at
 * `https://<org>.okta.com/oauth2/<id>`). Its registration endpoint needs an API token of an
 * administrator, so a client cannot register itself.
 */
export const okta: ProviderProfile = {
  name: "okta",
  title: "Okta",
  issuers: [/^https:\/\/[^/]+\.(?:okta|oktapreview|okta-emea)\.com(?:\/oauth2\/[^/]+)?\/?$/],
  registration:
    "Okta's registration endpoint needs an administrator's API token: create an app integration (OIDC, native application, PKCE, redirect URI http://127.0.0.1:<port>/callback) and set its client id as the server's oauth.clientId",
};
