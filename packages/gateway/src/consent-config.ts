// The consent servers' configuration (consent.ts): what a `consent` server and the gateway's
// consent options say, their checks, and the sealing (AES-256-GCM) of what the store keeps.

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { InvalidConfigError } from "@mcp/client";
import type { ConsentSignIn, Sealer } from "./connect.js";
import type { ConsentStore } from "./consent-store.js";

/** Per-user OAuth consent at the upstream's own authorization server (see {@link CreateGatewayOptions.credentials}). */
export interface ConsentCredentials {
  mode: "consent";
  /** The gateway's client id at the upstream's authorization server. Default: one registered dynamically (RFC 7591) at first use. */
  clientId?: string | undefined;
  /** Its secret, if it is a confidential client (sent with HTTP Basic); read it from the environment. */
  clientSecret?: string | undefined;
  /** The authorization server's issuer. Default: discovered from the upstream's protected resource metadata (RFC 9728). */
  issuer?: string | undefined;
  /** The `scope` asked for (space-separated). Default: none (the server's default). */
  scope?: string | undefined;
  /** The `resource` asked for (RFC 8707). Default: the upstream's URL. */
  resource?: string | undefined;
}

/** Options shared by every consent server: see {@link CreateGatewayOptions.consent}. */
export interface ConsentOptions {
  /** The gateway's callback URL as users' browsers reach it (its path is served by the gateway's handler), registered as the redirect URI. */
  redirectUri: string;
  /** The AES-256-GCM key the stored tokens and states are encrypted with: 32 bytes, or their base64. The same on every replica. */
  key: string | Uint8Array;
  /** Where tokens and pending consents are kept. Default: in memory (one replica). */
  store?: ConsentStore | undefined;
  /** The gateway's client at the callers' issuer (`oidc.issuer`): whoever opens a consent link signs in there first, and only the caller it was made for goes on. */
  signIn: ConsentSignIn;
}

/** Checks the `consent` option and each consent server's parameters. */
export function checkConsent(
  credentials: Readonly<Record<string, { mode: string }>>,
  consent: ConsentOptions | undefined,
  issuer: string | undefined,
): Buffer | undefined {
  const servers = Object.entries(credentials).filter(([, c]) => c.mode === "consent");
  if (servers.length === 0) return undefined;
  if (!consent)
    throw new InvalidConfigError(
      `credentials.${servers[0]![0]}: "consent" needs the gateway's consent options (redirectUri, key)`,
      { field: "consent" },
    );
  let url: URL;
  try {
    url = new URL(consent.redirectUri);
  } catch {
    throw new InvalidConfigError(
      `consent.redirectUri must be an absolute URL, not ${JSON.stringify(consent.redirectUri)}`,
      { field: "consent.redirectUri" },
    );
  }
  if (url.protocol !== "https:" && !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname))
    throw new InvalidConfigError(`consent.redirectUri must be https (or loopback http): ${consent.redirectUri}`, {
      field: "consent.redirectUri",
    });
  const key = typeof consent.key === "string" ? Buffer.from(consent.key, "base64") : Buffer.from(consent.key);
  if (key.length !== 32)
    throw new InvalidConfigError("consent.key must be 32 bytes (AES-256), or their base64", { field: "consent.key" });
  if (issuer === undefined)
    throw new InvalidConfigError(
      `credentials.${servers[0]![0]}: "consent" needs callers signed in at an issuer (oidc): who opens a consent link proves there that they are its caller`,
      { field: "oidc" },
    );
  const signIn = consent.signIn as Partial<ConsentSignIn> | undefined;
  if (typeof signIn?.clientId !== "string" || signIn.clientId === "")
    throw new InvalidConfigError(
      "consent.signIn.clientId (the gateway's client at the callers' issuer) must be a non-empty string",
      { field: "consent.signIn.clientId" },
    );
  if (signIn.clientSecret !== undefined && (typeof signIn.clientSecret !== "string" || signIn.clientSecret === ""))
    throw new InvalidConfigError("consent.signIn.clientSecret must be a non-empty string", {
      field: "consent.signIn.clientSecret",
    });
  for (const [server, given] of servers) {
    const c = given as ConsentCredentials;
    for (const field of ["clientId", "clientSecret", "issuer", "scope", "resource"] as const) {
      if (c[field] !== undefined && (typeof c[field] !== "string" || c[field] === ""))
        throw new InvalidConfigError(`credentials.${server}.${field} must be a non-empty string`, {
          field: `credentials.${server}.${field}`,
        });
    }
    if (c.clientSecret !== undefined && c.clientId === undefined)
      throw new InvalidConfigError(`credentials.${server}: a clientSecret needs its clientId`, {
        field: `credentials.${server}`,
      });
  }
  return key;
}

/** Seals values under `key` (AES-256-GCM, a fresh IV each), and opens them: undefined when absent, damaged or sealed under another key. */
export function sealerOf(key: Buffer): Sealer {
  return {
    seal(value: unknown): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open<T>(stored: unknown): T | undefined {
      if (typeof stored !== "string" || !stored.startsWith("v1.")) return undefined;
      try {
        const raw = Buffer.from(stored.slice(3), "base64url");
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as T;
      } catch {
        return undefined;
      }
    },
  };
}
