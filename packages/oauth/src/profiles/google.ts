// Google: no `resource`, refresh tokens only with `access_type=offline`, no dynamic registration.
import type { ProviderProfile } from "./shape.js";

/**
 * Google (`https://accounts.google.com`). Its authorization endpoint refuses parameters it does
 * not know, `resource` among them; it gives a refresh token only when asked with
 * `access_type=offline` (and again only with `prompt=consent`); it has no dynamic registration.
 */
export const google: ProviderProfile = {
  name: "google",
  title: "Google",
  issuers: [/^https:\/\/accounts\.google\.com\/?$/],
  resourceParameter: false,
  authorizationParams: { access_type: "offline", prompt: "consent" },
  registration:
    'Google has no dynamic client registration: create an OAuth client ID (type "Desktop app") in the Google Cloud console and set its id and secret as the server\'s oauth.clientId and oauth.clientSecret',
};
