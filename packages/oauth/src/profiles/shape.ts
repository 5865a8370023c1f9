// The shape of a provider profile: how one identity provider departs from the MCP authorization spec.
import type { AuthorizationServerMetadata } from "../metadata.js";

/**
 * How one identity provider departs from the MCP authorization spec, as data: the OAuth flow
 * reads these fields and never asks which provider it talks to. `{resource}` in a string value
 * stands for the `resource` the flow would send (the protected resource metadata's `resource`).
 */
export interface ProviderProfile {
  /** The name a config uses: `oauth: { profile: "entra" }`. */
  name: string;
  /** The provider's name in messages. */
  title: string;
  /** Issuer URLs of this provider: the profile applies by itself to an issuer one of these matches. */
  issuers: RegExp[];
  /** The issuer the flow uses instead of a matching one (`$1`… from `from`), e.g. a v1 issuer's v2 form. */
  issuerRewrite?: { from: RegExp; to: string } | undefined;
  /** `false`: the provider refuses the RFC 8707 `resource` parameter, so it is not sent. Default `true`. */
  resourceParameter?: boolean | undefined;
  /** The provider's endpoints when it publishes no metadata document: no discovery request is made. */
  metadata?: Partial<AuthorizationServerMetadata> | undefined;
  /** Fields the provider's metadata leaves out although the provider supports them (its own values win). */
  metadataDefaults?: Partial<AuthorizationServerMetadata> | undefined;
  /** Scopes added when the chosen ones name no resource (none, or only OpenID ones such as `openid`, `offline_access`). */
  defaultScopes?: string[] | undefined;
  /** Extra parameters of the authorization request. */
  authorizationParams?: Record<string, string> | undefined;
  /** What to do when the client cannot register itself (no Client ID Metadata Document, no dynamic registration). */
  registration: string;
}
