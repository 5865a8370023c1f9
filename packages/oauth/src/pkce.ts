// PKCE verifiers and challenges, and the `state` value, with WebCrypto.
import { base64url, randomBytes, sha256 } from "./encoding.js";

/** A PKCE pair (RFC 7636, `S256` only): the verifier stays here, the challenge goes out. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: "S256";
}

/** A fresh verifier of 43 characters (32 random bytes) and its SHA-256 challenge (WebCrypto: any runtime). */
export async function createPkce(): Promise<Pkce> {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(await sha256(verifier)), method: "S256" };
}

/** An unguessable `state` value. */
export function createState(): string {
  return base64url(randomBytes(24));
}
