import { OAuthError } from "./errors.js";
import { base64, base64url, randomBytes, sha256 } from "./encoding.js";

// DPoP (RFC 9449) as the MCP extension `io.modelcontextprotocol/auth/dpop` profiles it: an ES256
// key (WebCrypto: any runtime) that signs a fresh proof for every token request and every request
// to the MCP server; the server's nonces (§8, §9) remembered per origin.

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;

/** A P-256 key as a JWK (RFC 7517): the private one has `d`. */
export interface EcJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
  d?: string;
}

type SigningKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** What one proof is for. */
export interface ProofTarget {
  method: string;
  /** The request's URL; its query and fragment are left out of `htu` (§4.2). */
  url: string;
  /** The access token presented with it (`ath`): requests to the MCP server. */
  accessToken?: string | undefined;
  /** The request body, bound by `content_digest` (the MCP profile): requests to the MCP server. */
  body?: string | undefined;
}

/** A DPoP key pair and the nonces servers gave it. */
export class DpopKey {
  /** The private key as a JWK, kept with the tokens bound to it (they are useless without it). */
  readonly jwk: EcJwk;
  readonly #signing: SigningKey;
  readonly #publicJwk: EcJwk;
  readonly #nonces = new Map<string, string>();

  private constructor(jwk: EcJwk, signing: SigningKey) {
    this.jwk = jwk;
    this.#signing = signing;
    this.#publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  }

  /** A new P-256 key pair. */
  static async generate(): Promise<DpopKey> {
    const pair = await globalThis.crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
    const jwk = await globalThis.crypto.subtle.exportKey("jwk", pair.privateKey);
    return DpopKey.from({
      kty: String(jwk.kty),
      crv: String(jwk.crv),
      x: String(jwk.x),
      y: String(jwk.y),
      d: String(jwk.d),
    });
  }

  /** The key a store kept; an unusable one is an {@link OAuthError}. */
  static async from(jwk: EcJwk): Promise<DpopKey> {
    if (
      jwk.kty !== "EC" ||
      jwk.crv !== "P-256" ||
      typeof jwk.x !== "string" ||
      typeof jwk.y !== "string" ||
      typeof jwk.d !== "string"
    )
      throw new OAuthError("token", "The stored DPoP key is not a P-256 private key");
    try {
      return new DpopKey(jwk, await globalThis.crypto.subtle.importKey("jwk", jwk, ALGORITHM, false, ["sign"]));
    } catch (cause) {
      throw new OAuthError("token", "The stored DPoP key cannot be used", { cause });
    }
  }

  /** The nonce the server at `url`'s origin asked for last, if any. */
  nonce(url: string): string | undefined {
    return this.#nonces.get(originOf(url));
  }

  /** Remembers a server's `DPoP-Nonce`. */
  setNonce(url: string, nonce: string): void {
    this.#nonces.set(originOf(url), nonce);
  }

  /** A fresh proof JWT (`typ: dpop+jwt`, ES256, the public key in `jwk`) for one request. */
  async proof(target: ProofTarget): Promise<string> {
    const url = new URL(target.url);
    url.search = "";
    url.hash = "";
    const claims: Record<string, unknown> = {
      jti: base64url(randomBytes(16)),
      htm: target.method,
      htu: url.href,
      iat: Math.floor(Date.now() / 1000),
    };
    const nonce = this.nonce(target.url);
    if (nonce !== undefined) claims["nonce"] = nonce;
    if (target.accessToken !== undefined) {
      claims["ath"] = base64url(await sha256(target.accessToken));
      claims["content_digest"] = `sha-256=:${base64(await sha256(target.body ?? ""))}:`;
    }
    const json = (value: object): string => base64url(new TextEncoder().encode(JSON.stringify(value)));
    const input = `${json({ typ: "dpop+jwt", alg: "ES256", jwk: this.#publicJwk })}.${json(claims)}`;
    // WebCrypto's ECDSA signature is r‖s, as JWS wants it.
    const signature = await globalThis.crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      this.#signing,
      new TextEncoder().encode(input),
    );
    return `${input}.${base64url(new Uint8Array(signature))}`;
  }
}

function originOf(url: string): string {
  return new URL(url).origin;
}
