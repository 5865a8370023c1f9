// A consent server's own authorization server, as the gateway's consent flows (consent.ts) use it:
// finding it, registering the gateway there, its token requests (bounded answers), and what a
// started flow and a user's tokens remember.

import { authorizationServerFor, discover, type AuthorizationServerMetadata } from "@mcp/oauth";
import type { ConsentCredentials } from "./consent-config.js";
import { boundedJson } from "./introspection.js";

/** What a started consent remembers until its callback (encrypted in the store). */
export interface Pending {
  caller: string;
  server: string;
  verifier: string;
  clientId: string;
  clientSecret?: string | undefined;
  tokenEndpoint: string;
  resource: string;
  issuer: string;
  /** The hash of the browser's cookie: set once the user opening the link was verified as `caller`. */
  binding?: string | undefined;
}

/** A user's tokens for one upstream (encrypted in the store). */
export interface Tokens {
  access: string;
  refresh?: string | undefined;
  /** When the access token stops being used (ms since epoch), if it says. */
  until?: number | undefined;
  clientId: string;
  clientSecret?: string | undefined;
  tokenEndpoint: string;
  resource: string;
}

/** The authorization server of a consent server: the configured issuer's, else discovered from the upstream's protected resource metadata (RFC 9728). */
export async function authorizationServerOf(
  settings: ConsentCredentials,
  upstream: string,
): Promise<{ issuer: string; metadata: AuthorizationServerMetadata; resource: string }> {
  if (settings.issuer) {
    const found = await authorizationServerFor(fetch, settings.issuer);
    return { issuer: found.issuer, metadata: found.metadata, resource: settings.resource ?? upstream };
  }
  const found = await discover(fetch, upstream, undefined);
  return { issuer: found.issuer, metadata: found.metadata, resource: settings.resource ?? found.resourceIndicator };
}

/** Whether `url` is https, or http to a loopback host. */
export function secure(url: string): boolean {
  const parsed = URL.parse(url);
  return (
    parsed !== null &&
    (parsed.protocol === "https:" ||
      (parsed.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname)))
  );
}

export function untilOf(expiresIn: unknown): number | undefined {
  if (typeof expiresIn !== "number" || expiresIn <= 0) return undefined;
  const lifeMs = expiresIn * 1000;
  return Date.now() + lifeMs - Math.min(30_000, lifeMs / 10);
}

/** A token endpoint request; its answer's tokens, or an error naming the server's `error` (never a token). */
export async function tokenRequest(
  endpoint: string,
  clientId: string,
  clientSecret: string | undefined,
  body: URLSearchParams,
): Promise<{ access_token: string; refresh_token?: string | undefined; expires_in?: unknown }> {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (clientSecret)
    headers["authorization"] =
      `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`;
  else body.set("client_id", clientId);
  const response = await fetch(endpoint, {
    method: "POST",
    redirect: "error",
    signal: AbortSignal.timeout(10_000),
    headers,
    body,
  });
  const answer = (await boundedJson(response)) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
    error?: unknown;
  };
  if (!response.ok || typeof answer.access_token !== "string" || answer.access_token === "")
    throw new Error(typeof answer.error === "string" ? answer.error.slice(0, 100) : `HTTP ${response.status}`);
  return {
    access_token: answer.access_token,
    refresh_token: typeof answer.refresh_token === "string" ? answer.refresh_token : undefined,
    expires_in: answer.expires_in,
  };
}

/** Registers the gateway as a public client with `redirectUri` (RFC 7591). */
export async function register(
  server: string,
  metadata: AuthorizationServerMetadata,
  redirectUri: string,
): Promise<{ clientId: string; clientSecret?: string | undefined }> {
  if (!metadata.registration_endpoint)
    throw new Error(
      `the authorization server of "${server}" offers no dynamic client registration: configure credentials.${server}.clientId`,
    );
  const response = await fetch(metadata.registration_endpoint, {
    method: "POST",
    redirect: "error",
    signal: AbortSignal.timeout(10_000),
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      client_name: "MCP gateway",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  const answer = (await boundedJson(response)) as { client_id?: unknown; client_secret?: unknown; error?: unknown };
  if (!response.ok || typeof answer.client_id !== "string")
    throw new Error(
      `the authorization server of "${server}" refused to register the gateway (${typeof answer.error === "string" ? answer.error : `HTTP ${response.status}`})`,
    );
  return {
    clientId: answer.client_id,
    clientSecret: typeof answer.client_secret === "string" ? answer.client_secret : undefined,
  };
}
