export { OAuthProvider } from "./provider.js";
export type { Authorize, AuthorizationRequest, AuthorizationResponse, EnterpriseOptions, OAuthProviderOptions, UnauthorizedContext } from "./options.js";
export { OAuthError, type OAuthStep } from "./errors.js";
export { parseBearerChallenge, type BearerChallenge } from "./challenge.js";
export { canonicalResource, discover, discoverAuthorizationServer, discoverResourceMetadata, metadataUrls, type AuthorizationServerMetadata, type Discovery, type OAuthFetch, type ProtectedResourceMetadata } from "./discovery.js";
export { createPkce, createState, type Pkce } from "./pkce.js";
export { clientAssertion, type ClientAssertionKey } from "./jwt.js";
export { FileTokenStore, MemoryTokenStore, type StoredClient, type StoredCredentials, type StoredTokens, type TokenStore } from "./storage.js";
export { authorizationResponseOf, followRedirectAuthorize, loopbackAuthorize, loopbackRedirectUri, openInBrowser, type LoopbackOptions } from "./user-step.js";
