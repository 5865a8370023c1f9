// Metadata discovery: the protected resource's (RFC 9728), then its authorization server's (RFC 8414, OpenID).
import { redactUrl } from "@mcp/jsonrpc/internal";
import { OAuthError } from "./errors.js";
import { readOAuthBody } from "./http.js";
import type { AuthorizationServerMetadata, OAuthFetch, ProtectedResourceMetadata } from "./metadata.js";
import { profileFor, profileIssuer, profileMetadata, type ProfileChoice, type ProviderProfile } from "./profile.js";

export type { AuthorizationServerMetadata, OAuthFetch, ProtectedResourceMetadata } from "./metadata.js";

/** What discovery found for one MCP server. */
export interface Discovery {
  /** The canonical URI of the MCP server: the key its credentials are stored under. */
  resource: string;
  /**
   * The `resource` parameter sent to the authorization server (RFC 8707): the protected resource
   * metadata's `resource` exactly as published (it was checked to cover this server), else
   * {@link Discovery.resource}. A URL parser would add `/` to a pathless identifier; it is not
   * re-serialised.
   */
  resourceIndicator: string;
  /** The Protected Resource Metadata, when the server has it (not before 2025-06-18). */
  resourceMetadata: ProtectedResourceMetadata | undefined;
  /** The authorization server's issuer (or, for a 2025-03-26 server, its base URL). */
  issuer: string;
  metadata: AuthorizationServerMetadata;
  /** True when no metadata document was found and the 2025-03-26 default endpoints are used. */
  defaultEndpoints: boolean;
  /** The identity-provider profile the flow applies (chosen, or detected from the issuer). */
  profile?: ProviderProfile | undefined;
}

/** The MCP server URL without fragment (and without a lone trailing slash): RFC 8707's resource. */
export function canonicalResource(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hash = "";
  const text = url.href;
  return url.pathname === "/" && url.search === "" ? text.slice(0, -1) : text;
}

/** Strips one trailing slash, so `https://a.example/` and `https://a.example` compare equal. */
function trimSlash(value: string): string {
  return value.endsWith("/") ? value.slice(0, -1) : value;
}

/** True when `issuer` (from a metadata document or an `iss` parameter) names `expected`. */
export function sameIssuer(issuer: string, expected: string): boolean {
  return trimSlash(issuer) === trimSlash(expected);
}

async function getJson(
  fetchImpl: OAuthFetch,
  url: string,
  step: "discovery" | "metadata",
  protocolVersion: string | undefined,
): Promise<{ status: number; body: unknown } | undefined> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { accept: "application/json", ...(protocolVersion ? { "mcp-protocol-version": protocolVersion } : {}) },
      redirect: "follow",
    });
  } catch (cause) {
    throw new OAuthError(
      step,
      `Could not fetch ${redactUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { url: redactUrl(url), cause },
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, body: undefined };
  }
  let text: string;
  try {
    text = await readOAuthBody(response);
  } catch (cause) {
    throw new OAuthError(
      step,
      `Could not read ${redactUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { url: redactUrl(url), status: response.status, cause },
    );
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch (cause) {
    throw new OAuthError(step, `${redactUrl(url)} did not answer with JSON`, {
      url: redactUrl(url),
      status: response.status,
      cause,
    });
  }
}

/** A JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Protected Resource Metadata discovery (RFC 9728; MCP 2025-06-18 on): the `resource_metadata`
 * URL of the challenge, then `/.well-known/oauth-protected-resource` + the server's path, then the
 * root well-known URL. `undefined` when none answers (a 2025-03-26 server). Its `resource` must
 * name this server (the server's URL or a prefix of it, same origin), else {@link OAuthError}.
 */
export async function discoverResourceMetadata(
  fetchImpl: OAuthFetch,
  serverUrl: string,
  fromChallenge: string | undefined,
  protocolVersion?: string,
): Promise<ProtectedResourceMetadata | undefined> {
  const server = new URL(serverUrl);
  const candidates: string[] = [];
  if (fromChallenge) candidates.push(new URL(fromChallenge, server).href);
  if (server.pathname !== "/" && server.pathname !== "")
    candidates.push(`${server.origin}/.well-known/oauth-protected-resource${trimSlash(server.pathname)}`);
  candidates.push(`${server.origin}/.well-known/oauth-protected-resource`);
  for (const url of [...new Set(candidates)]) {
    let answer: Awaited<ReturnType<typeof getJson>>;
    try {
      answer = await getJson(fetchImpl, url, "discovery", protocolVersion);
    } catch {
      continue; // unreachable or not JSON: the next place may have it
    }
    if (!answer || answer.body === undefined) continue;
    if (
      !isObject(answer.body) ||
      !Array.isArray(answer.body["authorization_servers"]) ||
      answer.body["authorization_servers"].length === 0
    ) {
      throw new OAuthError(
        "discovery",
        `The protected resource metadata at ${redactUrl(url)} names no authorization server`,
        { url: redactUrl(url) },
      );
    }
    const metadata = answer.body as ProtectedResourceMetadata;
    if (typeof metadata.resource === "string" && !resourceCovers(metadata.resource, serverUrl)) {
      throw new OAuthError(
        "discovery",
        `The protected resource metadata at ${redactUrl(url)} is for ${redactUrl(metadata.resource)}, not for ${redactUrl(canonicalResource(serverUrl))}; refusing to authorize`,
        { url: redactUrl(url) },
      );
    }
    return metadata;
  }
  return undefined;
}

/** True when the metadata's `resource` is this server's URL, or a path prefix of it on the same origin. */
function resourceCovers(resource: string, serverUrl: string): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  const server = new URL(serverUrl);
  if (named.origin !== server.origin) return false;
  const prefix = trimSlash(named.pathname);
  const path = trimSlash(server.pathname);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The metadata URLs of an issuer, in the order MCP 2025-11-25 gives (RFC 8414 §3.1, OIDC Discovery). */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = trimSlash(url.pathname);
  if (path === "")
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Authorization Server Metadata for `issuer`, trying each well-known URL in order. Its `issuer`
 * must be the one asked for (RFC 8414 §3.3), else {@link OAuthError}, unless `checkIssuer` is
 * false (the 2025-03-26 root document). `undefined` when none answers.
 */
export async function discoverAuthorizationServer(
  fetchImpl: OAuthFetch,
  issuer: string,
  protocolVersion?: string,
  checkIssuer = true,
): Promise<AuthorizationServerMetadata | undefined> {
  for (const url of metadataUrls(issuer)) {
    const answer = await getJson(fetchImpl, url, "metadata", protocolVersion);
    if (!answer || answer.body === undefined) continue;
    if (!isObject(answer.body) || typeof answer.body["issuer"] !== "string") {
      throw new OAuthError("metadata", `The authorization server metadata at ${redactUrl(url)} has no issuer`, {
        url: redactUrl(url),
      });
    }
    const metadata = answer.body as AuthorizationServerMetadata;
    if (checkIssuer && !sameIssuer(metadata.issuer, issuer)) {
      throw new OAuthError(
        "metadata",
        `The authorization server metadata at ${redactUrl(url)} names issuer ${redactUrl(metadata.issuer)}, not ${redactUrl(issuer)}; refusing it`,
        { url: redactUrl(url) },
      );
    }
    return metadata;
  }
  return undefined;
}

/**
 * The metadata of the authorization server `named` (the first of the protected resource
 * metadata's `authorization_servers`), as the provider profile that applies to it gives it: the
 * issuer it rewrites to, the endpoints of a provider with no metadata document (no request made),
 * and the fields it fills in. {@link OAuthError} when the server publishes none.
 */
export async function authorizationServerFor(
  fetchImpl: OAuthFetch,
  named: string,
  protocolVersion?: string,
  choice?: ProfileChoice,
): Promise<{ issuer: string; metadata: AuthorizationServerMetadata; profile: ProviderProfile | undefined }> {
  const profile = profileFor(named, choice);
  const issuer = profileIssuer(named, profile);
  const metadata = profile?.metadata
    ? { ...profile.metadata, issuer }
    : await discoverAuthorizationServer(fetchImpl, issuer, protocolVersion);
  if (!metadata)
    throw new OAuthError(
      "metadata",
      `The authorization server ${redactUrl(issuer)} publishes no metadata (tried ${metadataUrls(issuer).map(redactUrl).join(", ")})`,
    );
  return { issuer, metadata: profileMetadata(metadata, profile), profile };
}

/**
 * Everything needed to authorize against `serverUrl`: Protected Resource Metadata (from the
 * challenge's URL or the well-known ones), then its first authorization server's metadata, as
 * the provider profile that applies gives it (`profile`: see {@link ProfileChoice}). A server
 * without Protected Resource Metadata is treated as MCP 2025-03-26 describes: the authorization
 * server is the server's origin, with `/authorize`, `/token` and `/register` when it publishes
 * no metadata either.
 */
export async function discover(
  fetchImpl: OAuthFetch,
  serverUrl: string,
  resourceMetadataUrl: string | undefined,
  protocolVersion?: string,
  profile?: ProfileChoice,
): Promise<Discovery> {
  const resource = canonicalResource(serverUrl);
  const resourceMetadata = await discoverResourceMetadata(fetchImpl, serverUrl, resourceMetadataUrl, protocolVersion);
  if (resourceMetadata) {
    const server = await authorizationServerFor(
      fetchImpl,
      resourceMetadata.authorization_servers![0]!,
      protocolVersion,
      profile,
    );
    const resourceIndicator = typeof resourceMetadata.resource === "string" ? resourceMetadata.resource : resource;
    return {
      resource,
      resourceIndicator,
      resourceMetadata,
      issuer: server.issuer,
      metadata: server.metadata,
      defaultEndpoints: false,
      profile: server.profile,
    };
  }
  const origin = new URL(serverUrl).origin;
  // 2025-03-26 had no issuer rule for this document (it lives at the server's root whatever the
  // issuer): take the issuer it names.
  const metadata = await discoverAuthorizationServer(fetchImpl, origin, protocolVersion, false);
  if (metadata) {
    const found = profileFor(metadata.issuer, profile);
    return {
      resource,
      resourceIndicator: resource,
      resourceMetadata: undefined,
      issuer: metadata.issuer,
      metadata: profileMetadata(metadata, found),
      defaultEndpoints: false,
      profile: found,
    };
  }
  return {
    resource,
    resourceIndicator: resource,
    resourceMetadata: undefined,
    issuer: origin,
    metadata: {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
    },
    defaultEndpoints: true,
    profile: undefined,
  };
}
