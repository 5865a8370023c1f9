import { createHash, randomBytes } from "node:crypto";

/** A PKCE pair (RFC 7636, `S256` only): the verifier stays here, the challenge goes out. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: "S256";
}

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Buffer): string {
  return bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A fresh verifier of 43 characters (32 random bytes) and its SHA-256 challenge. */
export function createPkce(): Pkce {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash("sha256").update(verifier).digest()), method: "S256" };
}

/** An unguessable `state` value. */
export function createState(): string {
  return base64url(randomBytes(24));
}
