// Auth0: the API is named by `audience` as well as `resource`.
import type { ProviderProfile } from "./shape.js";

/**
 * Auth0 (`https://<tenant>.<region>.auth0.com/`). A token for an API is asked for with the
 * `audience` parameter (the API's identifier; here the MCP server's resource), without which
 * Auth0 issues a token for its own userinfo endpoint. Dynamic registration exists once a tenant
 * administrator turns it on.
 */
export const auth0: ProviderProfile = {
  name: "auth0",
  title: "Auth0",
  issuers: [/^https:\/\/[^/]+\.auth0\.com\/?$/],
  authorizationParams: { audience: "{resource}" },
  registration:
    "This Auth0 tenant has dynamic client registration turned off: turn it on (Settings → Advanced → OIDC Dynamic Application Registration), or create a Native application and set its client id as the server's oauth.clientId",
};
