// Bytes for OAuth on any runtime (WebCrypto and `btoa`, which Node, Bun, Deno, browsers and
// workers all have): random values, SHA-256, base64url.

/** base64 with padding (RFC 4648 §4). */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `n` random bytes from the platform's CSPRNG. */
export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/** The SHA-256 digest of a string's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}
