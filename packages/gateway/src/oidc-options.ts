// What `oidc` says (oidc.ts): the issuer the gateway trusts as a protected resource, what its
// tokens must hold, and the claim rules that make a token's holder a caller.

import type { IntrospectionOptions } from "./introspection.js";
import type { Caller } from "./policy.js";

/** One rule of {@link OidcOptions.rules}: a token whose `claim` holds `value` is this caller. */
export interface ClaimRule {
  /** The claim read: a string (a space-separated list for `scope`) or an array of strings (`groups`, `roles`). */
  claim: string;
  /** The value it must hold (one word of a `scope`, one member of an array, or the whole string). */
  value: string;
  /** What the caller may do: its lists, rates and view (`name` is for messages and the audit log). */
  caller: Omit<Caller, "id">;
}

/** Options of `oidcAuthenticate`: the issuer trusted and what its tokens must say. */
export interface OidcOptions {
  /** The issuer (its `iss`, exactly); its metadata is read from `<issuer>/.well-known/openid-configuration`, else RFC 8414's place. */
  issuer: string;
  /** The gateway's resource URL (RFC 8707), which a token's `aud` must name; several are accepted. */
  audience: string | readonly string[];
  /** The resource URL served in the metadata. Default: the (first) audience. */
  resource?: string | undefined;
  /** Scopes every token must carry (in its `scope` claim); one missing is answered `403 insufficient_scope`. */
  requiredScopes?: readonly string[] | undefined;
  /** Scopes named in the metadata's `scopes_supported`. Default: `requiredScopes`. */
  scopesSupported?: readonly string[] | undefined;
  /** The claim naming the user (the caller's id comes from the issuer and it). Default `sub`. */
  idClaim?: string | undefined;
  /**
   * Claim rules, first match wins: the matching rule's caller (lists, rates, view) is the token's.
   * With rules, a token matching none is refused (`403`). Without, every valid token is `defaults`.
   */
  rules?: readonly ClaimRule[] | undefined;
  /** The caller of a valid token when there are no rules (its lists, rates and view). Default: everything allowed. */
  defaults?: Omit<Caller, "id" | "name"> | undefined;
  /** Signature algorithms accepted: asymmetric only. Default RS256/384/512, PS256/384/512, ES256/384/512, EdDSA. */
  algorithms?: readonly string[] | undefined;
  /** Clock skew allowed on `exp`, `nbf` and `iat` (seconds). Default 30. */
  clockToleranceSeconds?: number | undefined;
  /** How long fetched keys are kept (ms). Default 10 minutes. */
  keysMaxAgeMs?: number | undefined;
  /** The least time between two fetches of the keys, for an unknown key id too (ms). Default 30 s. */
  keysCooldownMs?: number | undefined;
  /**
   * Opaque (non-JWT) access tokens are introspected at the issuer (RFC 7662) with these client
   * credentials, and their answer checked as a JWT's claims are (`active`, `iss`, `aud`, `exp`,
   * `nbf`, scopes, rules). A client's own token with no `sub` is its `client_id`. Without this, a
   * token that is not a JWT is refused.
   */
  introspection?: IntrospectionOptions | undefined;
}
