// Microsoft Entra ID: v2 endpoints, no `resource`, `.default` scopes, no dynamic registration.
import type { ProviderProfile } from "./shape.js";

/**
 * Microsoft Entra ID (Azure AD). Since March 2026 it refuses the RFC 8707 `resource` parameter
 * (AADSTS9010010): the token's audience comes from a resource-qualified scope instead
 * (`<app id URI>/.default`). It publishes OpenID discovery only (at `<issuer>/.well-known/openid-configuration`),
 * without `code_challenge_methods_supported` although it takes PKCE S256, and it has no dynamic
 * client registration. A v1 issuer (`sts.windows.net/<tenant>/`, `login.microsoftonline.com/<tenant>`)
 * is moved to the v2 one.
 */
export const entra: ProviderProfile = {
  name: "entra",
  title: "Microsoft Entra ID",
  issuers: [
    /^https:\/\/login\.microsoftonline\.(?:com|us)\/[^/]+(?:\/v2\.0)?\/?$/,
    /^https:\/\/sts\.windows\.net\/[^/]+\/?$/,
  ],
  issuerRewrite: {
    from: /^https:\/\/(?:login\.microsoftonline\.com|sts\.windows\.net)\/([^/]+?)\/?$/,
    to: "https://login.microsoftonline.com/$1/v2.0",
  },
  resourceParameter: false,
  metadataDefaults: { code_challenge_methods_supported: ["S256"] },
  defaultScopes: ["{resource}/.default"],
  registration:
    'Microsoft Entra ID has no dynamic client registration: register an application (App registrations → New registration, platform "Mobile and desktop", redirect URI http://127.0.0.1:<port>/callback) and set its Application (client) ID as the server\'s oauth.clientId',
};
