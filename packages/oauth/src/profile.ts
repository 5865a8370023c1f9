// Identity-provider profiles: what a provider does differently, as data the flow reads (src/profiles/*.ts holds one each).
import type { AuthorizationServerMetadata } from "./metadata.js";
import type { ProviderProfile } from "./profiles/shape.js";
import { OAuthError } from "./errors.js";
import { auth0 } from "./profiles/auth0.js";
import { cognito } from "./profiles/cognito.js";
import { entra } from "./profiles/entra.js";
import { github } from "./profiles/github.js";
import { google } from "./profiles/google.js";
import { keycloak } from "./profiles/keycloak.js";
import { okta } from "./profiles/okta.js";

export type { ProviderProfile };

/** Every built-in profile, in detection order. */
export const PROVIDER_PROFILES: readonly ProviderProfile[] = [entra, cognito, okta, auth0, keycloak, google, github];

/** A profile by name, or an {@link OAuthError} naming the known ones. */
export function profileNamed(name: string): ProviderProfile {
  const found = PROVIDER_PROFILES.find((p) => p.name === name);
  if (!found)
    throw new OAuthError(
      "discovery",
      `Unknown OAuth provider profile ${JSON.stringify(name)} (known: ${PROVIDER_PROFILES.map((p) => p.name).join(", ")})`,
    );
  return found;
}

/** The `profile` option: a name, a profile of one's own, `false` (none, not even a detected one), or `undefined` (detected from the issuer). */
export type ProfileChoice = string | ProviderProfile | false | undefined;

/** The profile that applies to `issuer`: the chosen one, else the first whose `issuers` match. */
export function profileFor(issuer: string, choice: ProfileChoice): ProviderProfile | undefined {
  if (choice === false) return undefined;
  if (typeof choice === "string") return profileNamed(choice);
  if (choice) return choice;
  return PROVIDER_PROFILES.find((p) => p.issuers.some((pattern) => pattern.test(issuer)));
}

/** The issuer the flow uses: the profile's rewrite of it, when there is one that matches. */
export function profileIssuer(issuer: string, profile: ProviderProfile | undefined): string {
  const rewrite = profile?.issuerRewrite;
  return rewrite && rewrite.from.test(issuer) ? issuer.replace(rewrite.from, rewrite.to) : issuer;
}

/** Metadata with the profile's missing fields filled in. */
export function profileMetadata(
  metadata: AuthorizationServerMetadata,
  profile: ProviderProfile | undefined,
): AuthorizationServerMetadata {
  if (!profile?.metadataDefaults) return metadata;
  const filled: AuthorizationServerMetadata = { ...metadata };
  for (const [key, value] of Object.entries(profile.metadataDefaults))
    if (filled[key] === undefined) filled[key] = value;
  return filled;
}

/** `{resource}` replaced. */
export function profileValue(template: string, resource: string): string {
  return template.replaceAll("{resource}", resource);
}

const OPENID_SCOPES = new Set(["openid", "profile", "email", "address", "phone", "offline_access"]);

/** The scopes with the profile's `defaultScopes` added when none of them names a resource. */
export function profileScopes(scopes: string[], profile: ProviderProfile | undefined, resource: string): string[] {
  const defaults = profile?.defaultScopes;
  if (!defaults || scopes.some((scope) => !OPENID_SCOPES.has(scope))) return scopes;
  return [...defaults.map((scope) => profileValue(scope, resource)), ...scopes];
}
