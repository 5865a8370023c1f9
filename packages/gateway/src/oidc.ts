// The gateway as an OAuth 2.1 protected resource (MCP authorization; RFC 9728, RFC 6750, RFC 8707):
// access tokens are JWTs of one issuer, checked against the issuer's keys (found through its
// metadata, cached, fetched again for an unknown key id no more often than a cool-down allows), or
// opaque tokens introspected at the issuer (RFC 7662), and each token's claims name the caller it
// is (its id from the issuer and subject).

import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type * as JoseModule from "jose";
import type { JWTPayload } from "jose";
import { InvalidConfigError } from "@mcp/client";
import type { Caller } from "./policy.js";
import { AuthRefusal } from "./refusal.js";
import { INTROSPECTION_CACHE_MS, introspect, looksLikeJwt, type IntrospectionOptions } from "./introspection.js";
import type { OidcOptions } from "./oidc-options.js";

export type { ClaimRule, OidcOptions } from "./oidc-options.js";

/** The asymmetric algorithms accepted by default: never `none`, never an HMAC (a public key is no secret). */
export const OIDC_ALGORITHMS: readonly string[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];

/** How many valid tokens are remembered (until each expires) so that they are not checked again on every request. */
export const OIDC_CHECKED_TOKENS = 1000;

/** Where RFC 9728 puts a resource's metadata: the well-known path, then the resource's own path. */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** A `WWW-Authenticate` quoted value: backslashes and quotes escaped, control characters dropped. */
function quoted(value: string): string {
  const printable = [...value].filter((char) => char >= " " && char !== "\u007f").join("");
  return `"${printable.replace(/[\\"]/g, "\\$&")}"`;
}

/** The id of the user `subject` of `issuer`: a hash, never equal to a static token caller's. */
export function oidcCallerId(issuer: string, subject: string): string {
  return createHash("sha256").update(`mcp-serve oidc caller\n${issuer}\n${subject}`).digest("hex").slice(0, 32);
}

/** Whether claim `value` holds `want`: a member of an array, a word of a space-separated `scope`, or the whole string. */
function holds(value: unknown, want: string, claim: string): boolean {
  if (Array.isArray(value)) return value.includes(want);
  if (typeof value !== "string") return false;
  return claim === "scope" || claim === "scp" ? value.split(" ").includes(want) : value === want;
}

/** A token's scopes: its `scope` (space-separated) or `scp` (an array, as some issuers send). */
function scopesOf(payload: Record<string, unknown>): Set<string> {
  const scope = payload["scope"] ?? payload["scp"];
  return new Set(
    Array.isArray(scope)
      ? scope.filter((s): s is string => typeof s === "string")
      : typeof scope === "string"
        ? scope.split(" ").filter(Boolean)
        : [],
  );
}

type Jose = typeof JoseModule;
let jose: Promise<Jose> | undefined;
/** jose, loaded once, when the first issuer's token is checked. */
function loadJose(): Promise<Jose> {
  return (jose ??= import("jose"));
}

interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string | undefined;
  introspection_endpoint?: string | undefined;
  token_endpoint?: string | undefined;
}

/** The issuer's metadata: OpenID discovery (the issuer's path, then `/.well-known/…`), else RFC 8414 (path inserted). */
async function discover(issuer: string, signal: AbortSignal): Promise<IssuerMetadata> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  const places = [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
  const problems: string[] = [];
  for (const place of places) {
    try {
      const response = await fetch(place, { signal, redirect: "error", headers: { accept: "application/json" } });
      if (!response.ok) {
        problems.push(`${place}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as Partial<IssuerMetadata>;
      // RFC 8414 §3.3: the metadata's issuer must be the one asked about, or it is another's.
      if (metadata.issuer !== issuer)
        throw new Error(`${place} names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
      if (typeof metadata.jwks_uri !== "string" && typeof metadata.introspection_endpoint !== "string")
        throw new Error(`${place} has no jwks_uri`);
      return {
        issuer,
        jwks_uri: metadata.jwks_uri,
        introspection_endpoint: metadata.introspection_endpoint,
        token_endpoint: metadata.token_endpoint,
      };
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throw new Error(`the issuer's metadata could not be read (${problems.join("; ")})`);
}

/** What {@link oidcAuthenticate} gives: the `authenticate` of the gateway and what the metadata endpoint serves. */
export interface OidcAuth {
  /** Checks a request's bearer token (an `Authenticate`); throws an {@link AuthRefusal} saying why it is refused. */
  authenticate: (req: IncomingMessage) => Promise<Caller>;
  /** The resource URL, and the URL of its metadata (RFC 9728). */
  readonly resource: string;
  readonly metadataUrl: string;
  /** The protected resource metadata document. */
  metadata(): Record<string, unknown>;
  /** The issuer's token endpoint (from its metadata), for token exchange. */
  tokenEndpoint(): Promise<string>;
}

/**
 * Accepts the JWT access tokens of one OAuth issuer (see {@link OidcOptions}): a missing token is
 * answered `401` with `WWW-Authenticate: Bearer resource_metadata="…"`, a bad one `401
 * invalid_token`, one without a required scope `403 insufficient_scope`. Keys are fetched on the
 * first request, not before.
 */
export function oidcAuthenticate(options: OidcOptions): OidcAuth {
  const audiences = typeof options.audience === "string" ? [options.audience] : [...options.audience];
  if (audiences.length === 0)
    throw new InvalidConfigError("oidc: an audience (the gateway's resource URL) is required", { field: "audience" });
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(options.issuer);
  } catch (error) {
    throw new InvalidConfigError(`oidc: the issuer "${options.issuer}" is not a URL`, {
      field: "issuer",
      cause: error,
    });
  }
  if (issuerUrl.protocol !== "https:" && !["127.0.0.1", "localhost", "[::1]"].includes(issuerUrl.hostname))
    throw new InvalidConfigError(`oidc: the issuer "${options.issuer}" must be https (http only on loopback)`, {
      field: "issuer",
    });
  const algorithms = [...(options.algorithms ?? OIDC_ALGORITHMS)];
  const weak = algorithms.filter((alg) => alg === "none" || /^HS/i.test(alg));
  if (weak.length > 0)
    throw new InvalidConfigError(
      `oidc: the algorithms ${weak.join(", ")} cannot be accepted (a token signed with none, or with an issuer's public key as an HMAC secret, proves nothing)`,
      { field: "algorithms" },
    );
  const settings = options.introspection;
  if (
    settings &&
    (typeof settings.clientId !== "string" ||
      settings.clientId === "" ||
      typeof settings.clientSecret !== "string" ||
      settings.clientSecret === "")
  )
    throw new InvalidConfigError("oidc: introspection needs the gateway's clientId and clientSecret at the issuer", {
      field: "introspection",
    });
  if (settings?.cacheMs !== undefined && !(Number.isFinite(settings.cacheMs) && settings.cacheMs >= 0))
    throw new InvalidConfigError(
      `oidc: introspection.cacheMs must be a number of milliseconds ≥ 0, not ${String(settings.cacheMs)}`,
      { field: "introspection.cacheMs" },
    );
  const resource = options.resource ?? audiences[0]!;
  const metadataUrl = resourceMetadataUrl(resource);
  const required = [...(options.requiredScopes ?? [])];
  const idClaim = options.idClaim ?? "sub";
  const cooldown = options.keysCooldownMs ?? 30_000;

  const challenge = (extra: string): string =>
    `Bearer ${extra ? `${extra}, ` : ""}resource_metadata=${quoted(metadataUrl)}${required.length > 0 && !extra.includes("scope=") ? `, scope=${quoted(required.join(" "))}` : ""}`;
  const invalid = (message: string, cause?: unknown): AuthRefusal =>
    new AuthRefusal(
      "invalid_token",
      401,
      message,
      challenge(`error="invalid_token", error_description=${quoted(message)}`),
      cause,
    );

  // The issuer's metadata, read once; a failed discovery is tried again after the cool-down.
  let metadata: IssuerMetadata | undefined;
  let finding: Promise<IssuerMetadata> | undefined;
  let failedAt = -Infinity;
  let failure: Error | undefined;
  const issuerMetadata = async (): Promise<IssuerMetadata> => {
    if (metadata) return metadata;
    if (failure && Date.now() - failedAt < cooldown) throw failure;
    finding ??= discover(options.issuer, AbortSignal.timeout(10_000)).then(
      (found) => (metadata = found),
      (error: Error) => {
        failedAt = Date.now();
        failure = error;
        finding = undefined;
        throw error;
      },
    );
    return finding;
  };
  // The keys, once the metadata says where they are. jose is loaded then, not with the package: a
  // gateway without an issuer never loads it.
  type KeySet = ReturnType<Jose["createRemoteJWKSet"]>;
  let keys: KeySet | undefined;
  const keySet = async (): Promise<KeySet> => {
    if (keys) return keys;
    const [{ jwks_uri }, { createRemoteJWKSet }] = await Promise.all([issuerMetadata(), loadJose()]);
    if (jwks_uri === undefined) throw new Error(`the issuer ${options.issuer} publishes no keys (jwks_uri)`);
    return (keys ??= createRemoteJWKSet(new URL(jwks_uri), {
      cacheMaxAge: options.keysMaxAgeMs ?? 600_000,
      cooldownDuration: cooldown,
      timeoutDuration: 10_000,
    }));
  };

  // Tokens already checked, until they expire: a caller sends the same token with every request,
  // and a signature check costs far more than a lookup. Bounded; the oldest goes first.
  const checked = new Map<string, { caller: Caller; expiresAt: number }>();
  const remember = (token: string, caller: Caller, expiresAt: number): Caller => {
    if (expiresAt <= Date.now()) return caller;
    if (checked.size >= OIDC_CHECKED_TOKENS) checked.delete(checked.keys().next().value!);
    checked.set(token, { caller, expiresAt });
    return caller;
  };

  // A token's claims (a JWT's, or an introspection's answer), checked: the caller it is, remembered until `expiresAt`.
  const admit = (token: string, payload: Record<string, unknown>, expiresAt: number): Caller => {
    const subject =
      payload[idClaim] ??
      (options.introspection && idClaim === "sub" && !looksLikeJwt(token) ? payload["client_id"] : undefined);
    if (typeof subject !== "string" || subject === "")
      throw invalid(`The access token's "${idClaim}" claim is not a string`);
    if (required.length > 0) {
      const have = scopesOf(payload);
      const missing = required.filter((scope) => !have.has(scope));
      if (missing.length > 0)
        throw new AuthRefusal(
          "insufficient_scope",
          403,
          `The access token lacks the scope ${missing.join(" ")}`,
          challenge(
            `error="insufficient_scope", scope=${quoted(required.join(" "))}, error_description=${quoted(`the scope ${missing.join(" ")} is required`)}`,
          ),
        );
    }
    const id = oidcCallerId(options.issuer, subject);
    if (!options.rules) return remember(token, { ...options.defaults, id, name: `oidc:${subject}` }, expiresAt);
    const rule = options.rules.find((r) => holds(payload[r.claim], r.value, r.claim));
    // No scope would help (a step-up cannot fix it): a plain refusal, no challenge to retry.
    if (!rule)
      throw new AuthRefusal("no_caller", 403, `No caller rule matches the access token of "${subject}"`, undefined);
    return remember(token, { ...rule.caller, id, name: `${rule.caller.name}:${subject}` }, expiresAt);
  };

  // An opaque token, introspected: an inactive answer is never remembered, an active one until its
  // exp or for `cacheMs` at most, whichever comes first (the delay before a revocation is seen).
  const introspection = options.introspection;
  const skew = (options.clockToleranceSeconds ?? 30) * 1000;
  const introspected = async (token: string, settings: IntrospectionOptions): Promise<Caller> => {
    let answer: Record<string, unknown>;
    try {
      const endpoint = settings.endpoint ?? (await issuerMetadata()).introspection_endpoint;
      if (endpoint === undefined) throw new Error(`the issuer ${options.issuer} has no introspection_endpoint`);
      answer = await introspect(endpoint, settings, token, AbortSignal.timeout(10_000));
    } catch (error) {
      throw new AuthRefusal(
        "unavailable",
        503,
        `The access token could not be introspected: ${(error as Error).message}`,
        undefined,
        error,
      );
    }
    if (answer["active"] !== true) throw invalid("The access token is not active");
    if (answer["iss"] !== undefined && answer["iss"] !== options.issuer)
      throw invalid(`The access token's "iss" is not ${options.issuer}`);
    const aud = answer["aud"];
    if (!(Array.isArray(aud) ? aud : [aud]).some((a) => typeof a === "string" && audiences.includes(a)))
      throw invalid(`The access token's "aud" does not name this resource`);
    const exp = answer["exp"];
    const now = Date.now();
    if (typeof exp !== "number") throw invalid(`The access token has no "exp"`);
    if (exp * 1000 + skew <= now) throw invalid(`The access token's "exp" has passed`);
    if (typeof answer["nbf"] === "number" && answer["nbf"] * 1000 - skew > now)
      throw invalid(`The access token's "nbf" is in the future`);
    return admit(token, answer, Math.min(exp * 1000, now + (settings.cacheMs ?? INTROSPECTION_CACHE_MS)));
  };

  const authenticate = async (req: IncomingMessage): Promise<Caller> => {
    const header = req.headers.authorization;
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
    if (!match)
      throw new AuthRefusal(
        "missing_token",
        401,
        header ? "The Authorization header is not a bearer token" : "A bearer token is required",
        challenge(header ? 'error="invalid_request"' : ""),
      );
    const known = checked.get(match[1]!);
    if (known) {
      if (known.expiresAt > Date.now()) return known.caller;
      checked.delete(match[1]!);
    }
    if (introspection && !looksLikeJwt(match[1]!)) return introspected(match[1]!, introspection);
    let jwks: KeySet;
    try {
      jwks = await keySet();
    } catch (error) {
      throw new AuthRefusal(
        "unavailable",
        503,
        `The issuer's keys could not be fetched: ${(error as Error).message}`,
        undefined,
        error,
      );
    }
    const { jwtVerify, errors: joseErrors } = await loadJose();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1]!, jwks, {
        issuer: options.issuer,
        audience: audiences,
        algorithms,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ["exp", idClaim],
      }));
    } catch (error) {
      // The issuer unreachable is not the token's fault.
      if (
        !(error instanceof joseErrors.JOSEError) ||
        error instanceof joseErrors.JWKSTimeout ||
        error.code === "ERR_JOSE_GENERIC"
      )
        throw new AuthRefusal(
          "unavailable",
          503,
          `The issuer's keys could not be fetched: ${(error as Error).message}`,
          undefined,
          error,
        );
      throw invalid(`The access token is not valid: ${(error as Error).message.replace(/"/g, "'")}`, error);
    }
    return admit(match[1]!, payload, payload.exp! * 1000);
  };

  return {
    authenticate,
    resource,
    metadataUrl,
    tokenEndpoint: async () => {
      const { token_endpoint } = await issuerMetadata();
      if (typeof token_endpoint !== "string") throw new Error(`the issuer ${options.issuer} names no token_endpoint`);
      return token_endpoint;
    },
    metadata: () => ({
      resource,
      authorization_servers: [options.issuer],
      bearer_methods_supported: ["header"],
      ...((options.scopesSupported ?? required).length > 0
        ? { scopes_supported: [...(options.scopesSupported ?? required)] }
        : {}),
    }),
  };
}
