// Amazon Cognito user pools: OpenID discovery without the PKCE field, and no dynamic registration.
import type { ProviderProfile } from "./shape.js";

/**
 * Amazon Cognito user pools (issuer `https://cognito-idp.<region>.amazonaws.com/<pool id>`). The
 * pool's OpenID discovery document leaves out `code_challenge_methods_supported` although the
 * hosted UI takes PKCE S256, and a pool has no dynamic client registration.
 */
export const cognito: ProviderProfile = {
  name: "cognito",
  title: "Amazon Cognito",
  issuers: [/^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/[^/]+\/?$/],
  metadataDefaults: { code_challenge_methods_supported: ["S256"] },
  registration:
    "Amazon Cognito has no dynamic client registration: create an app client in the user pool (public client, authorization code grant, callback URL http://127.0.0.1:<port>/callback) and set its client id as the server's oauth.clientId",
};
