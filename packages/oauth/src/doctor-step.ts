// The doctor's vocabulary: a step's status and report line, the spec clause of each step, and
// what the authorization and token requests came back with.
import type { OAuthError } from "./errors.js";
import type { AuthorizationResponse } from "./options.js";
import type { StoredTokens } from "./token-store.js";

/** How a step went: `warn` works but is worth fixing; `skip` could not be checked (the reason is in `advice`). */
export type DoctorStatus = "pass" | "fail" | "skip" | "warn";

/** One step of a diagnosis. Never holds a token, code, secret or verifier. */
export interface DoctorStep {
  /** The step's name (`challenge`, `resource-metadata`, … `token-accepted`). */
  step: string;
  status: DoctorStatus;
  /** The spec clauses the step checks. */
  clause: string;
  /** What to do about it (or, for a pass, what was found). */
  advice: string;
  /** What the servers answered, in more detail. */
  detail?: string | undefined;
}

/** The spec clause of each step, in the order of the report. */
export const DOCTOR_STEPS = {
  challenge: "MCP 2025-11-25 Authorization, Authorization Server Discovery; RFC 9728 §5.1; RFC 6750 §3",
  "resource-metadata":
    "RFC 9728 §3, §3.1 (path-aware well-known URI); MCP 2025-11-25, Protected Resource Metadata Discovery",
  "authorization-server-metadata":
    "RFC 8414 §3, §3.3 (issuer); OpenID Connect Discovery 1.0 §4; MCP 2025-11-25, Authorization Server Metadata Discovery",
  profile: "@mcp/oauth provider profiles (what a provider does differently from the spec)",
  clock: "RFC 9110 §6.6.1 (Date); RFC 7519 §4.1.4-4.1.6 (exp, nbf, iat); RFC 9449 §11.1 (DPoP iat)",
  pkce: "RFC 7636 §4.2, §4.3; MCP 2025-11-25, Authorization Code Protection (S256, refuse without it)",
  "client-identification":
    "MCP 2025-11-25, Client Registration Approaches: pre-registered, Client ID Metadata Document, RFC 7591 §3",
  "token-endpoint-auth": "RFC 8414 §2 (token_endpoint_auth_methods_supported); RFC 6749 §2.3; RFC 7591 §2",
  "signing-algorithms":
    "RFC 8414 §2 (token_endpoint_auth_signing_alg_values_supported); RFC 7523 §2.2; OpenID Connect Discovery 1.0 §3",
  scopes: "MCP 2025-11-25, Scope Selection Strategy and Step-Up Authorization Flow; RFC 9728 §2 (scopes_supported)",
  "authorization-request": "RFC 6749 §4.1.1, §4.1.2.1; OAuth 2.1 §4.1",
  "resource-indicator": "RFC 8707 §2 (resource, invalid_target); MCP 2025-11-25, Resource Parameter Implementation",
  iss: "RFC 9207 §2, §2.4 (authorization_response_iss_parameter_supported)",
  token: "RFC 6749 §4.1.3, §5.1, §5.2; RFC 7636 §4.5",
  refresh: "RFC 6749 §6; OAuth 2.1 §4.3.1 (refresh token rotation); OpenID Connect Core 1.0 §11 (offline_access)",
  dpop: "RFC 9449 §5.1 (dpop_signing_alg_values_supported), §7.1 (DPoP challenge)",
  "token-accepted": "RFC 6750 §2.1, §3.1; MCP 2025-11-25, Token Audience Binding and Validation",
} as const;

export type DoctorStepName = keyof typeof DOCTOR_STEPS;

export function step(name: DoctorStepName, status: DoctorStatus, advice: string, detail?: string): DoctorStep {
  return { step: name, status, clause: DOCTOR_STEPS[name], advice, ...(detail !== undefined ? { detail } : {}) };
}

/** What the authorization endpoint did with the doctor's request. */
export type Probe =
  | { kind: "response"; response: AuthorizationResponse; stateMatches: boolean }
  | { kind: "error"; error: string; description: string | undefined }
  | { kind: "user"; status: number }
  | { kind: "refused"; status: number; error: string | undefined }
  | { kind: "failed"; message: string };

/** A token request's outcome. */
export type TokenOutcome = { tokens: StoredTokens } | { error: OAuthError };
