// `private_key_jwt` client assertions, signed with node:crypto (Node only).
import { createPrivateKey, randomUUID, sign } from "node:crypto";
import { base64url } from "./encoding.js";

/** A private key for `private_key_jwt` client authentication (RFC 7523 §2.2). */
export interface ClientAssertionKey {
  /** PKCS#8 (or any PEM node reads) private key. */
  privateKeyPem: string;
  /** `ES256` (P-256) or `RS256`. */
  algorithm: "ES256" | "RS256";
  /** The key id to put in the JWT header, when the server knows several keys. */
  keyId?: string | undefined;
}

/**
 * A signed client assertion: `iss` = `sub` = the client id, `aud` = the authorization server's
 * issuer, a fresh `jti`, valid for 5 minutes.
 */
export function clientAssertion(key: ClientAssertionKey, clientId: string, audience: string, now = Date.now()): string {
  const header = { alg: key.algorithm, typ: "JWT", ...(key.keyId ? { kid: key.keyId } : {}) };
  const seconds = Math.floor(now / 1000);
  const payload = { iss: clientId, sub: clientId, aud: audience, jti: randomUUID(), iat: seconds, exp: seconds + 300 };
  const json = (value: object): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
  const input = `${base64url(json(header))}.${base64url(json(payload))}`;
  const privateKey = createPrivateKey(key.privateKeyPem);
  const signature =
    key.algorithm === "ES256"
      ? sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" })
      : sign("sha256", Buffer.from(input), privateKey);
  return `${input}.${base64url(signature)}`;
}
