export { OAuthProvider } from "./provider.js";
export type {
  AuthRequest,
  Authorize,
  AuthorizationRequest,
  AuthorizationResponse,
  DeviceCodePrompt,
  DeviceOptions,
  EnterpriseOptions,
  OAuthProviderOptions,
  UnauthorizedContext,
  WorkloadIdentityOptions,
} from "./options.js";
export { OAuthError, type OAuthErrorCode, type OAuthStep } from "./errors.js";
export { parseBearerChallenge, type BearerChallenge } from "./challenge.js";
export {
  authorizationServerFor,
  canonicalResource,
  discover,
  discoverAuthorizationServer,
  discoverResourceMetadata,
  metadataUrls,
  type AuthorizationServerMetadata,
  type Discovery,
  type OAuthFetch,
  type ProtectedResourceMetadata,
} from "./discovery.js";
export {
  diagnoseAuthorization,
  type DiagnoseOptions,
  type DoctorReport,
  type DoctorStatus,
  type DoctorStep,
  type DoctorTraceEntry,
} from "./doctor.js";
export { doctorReportLines, type DoctorReportStyle } from "./doctor-text.js";
export { createPkce, createState, type Pkce } from "./pkce.js";
export { PROVIDER_PROFILES, profileFor, profileNamed, type ProfileChoice, type ProviderProfile } from "./profile.js";
export type { ClientAssertionKey } from "./jwt.js";
export {
  MemoryTokenStore,
  type StoredClient,
  type StoredCredentials,
  type StoredTokens,
  type TokenStore,
} from "./token-store.js";
export { authorizationResponseOf, followRedirectAuthorize, loopbackRedirectUri } from "./user-step.js";
export { completeAuthorization, popupAuthorize, type PopupOptions } from "./popup.js";
// Node only (Node, Bun, Deno): in a browser or worker these names throw an OAuthError saying what
// to use instead, and no Node module enters the bundle (package.json "imports": #node).
export {
  clientAssertion,
  FileTokenStore,
  loopbackAuthorize,
  openInBrowser,
  pasteBackAuthorize,
  type FileTokenStoreOptions,
  type LoopbackOptions,
  type PasteBackOptions,
} from "#node";
