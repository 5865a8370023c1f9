// Encryption at rest of what the token store writes: AES-256-GCM (node:crypto) with a key derived
// (HKDF-SHA256) from the 32 bytes the user gives, a random 96-bit IV per record, and the record's
// Redis key (without the prefix) as additional data, so a record copied under another key does
// not decrypt. The record names its key by an id (derived from the key, not the key), so a
// record written with another key is told apart from one tampered with.

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { isObject } from "./validate.js";

/** A key that is not 32 bytes, or a store given neither a key nor `plaintext: true`. */
export class RedisKeyError extends Error {
  override readonly name = "RedisKeyError";
}

const HOW = "make one with `openssl rand -base64 32`";

/**
 * Reads a 32-byte key written as 64 hex digits, base64 or base64url (surrounding spaces and
 * newlines are ignored). A {@link RedisKeyError} naming `where` otherwise; the text is never
 * repeated in it.
 */
export function parseRedisKey(text: string, where = "the key"): Uint8Array {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, "hex");
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed))
    bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes?.length === 32) return new Uint8Array(bytes);
  const got =
    trimmed === ""
      ? "it is empty"
      : bytes === undefined
        ? `its ${trimmed.length} characters are neither hex nor base64`
        : `it decodes to ${bytes.length} bytes`;
  throw new RedisKeyError(`${where} must be 32 bytes, as 64 hex digits or base64 (${got}); ${HOW}`);
}

/** A key given as bytes: exactly 32 of them. */
export function keyBytes(key: Uint8Array | string, where: string): Uint8Array {
  if (typeof key === "string") return parseRedisKey(key, where);
  if (key.length !== 32) throw new RedisKeyError(`${where} must be 32 bytes (it has ${key.length}); ${HOW}`);
  return key;
}

/** An encrypted record as stored. */
export interface Envelope {
  enc: "A256GCM";
  /** The id of the key it was written with. */
  kid: string;
  /** The IV, base64url. */
  iv: string;
  /** The ciphertext and its 16-byte tag, base64url. */
  data: string;
}

/** Whether a stored value is an encrypted record (of any key). */
export function isEnvelope(value: unknown): value is Envelope {
  return (
    isObject(value) &&
    value["enc"] === "A256GCM" &&
    typeof value["kid"] === "string" &&
    typeof value["iv"] === "string" &&
    typeof value["data"] === "string"
  );
}

/** Seals and opens records with one key. */
export class Sealer {
  readonly #key: Buffer;
  /** Names the key in the records it writes (derived from it; it reveals nothing of it). */
  readonly kid: string;

  constructor(key: Uint8Array) {
    this.#key = Buffer.from(hkdfSync("sha256", key, new Uint8Array(0), "@mcp/store-redis oauth credentials v1", 32));
    this.kid = Buffer.from(hkdfSync("sha256", key, new Uint8Array(0), "@mcp/store-redis key id v1", 8)).toString("hex");
  }

  /** `text` encrypted, bound to `context` (the record's key). */
  seal(context: string, text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final(), cipher.getAuthTag()]);
    const envelope: Envelope = {
      enc: "A256GCM",
      kid: this.kid,
      iv: iv.toString("base64url"),
      data: data.toString("base64url"),
    };
    return JSON.stringify(envelope);
  }

  /** The text of a record sealed for `context` with this key, or why it cannot be read. */
  open(context: string, envelope: Envelope): { text: string } | { problem: string } {
    if (envelope.kid !== this.kid)
      return { problem: `it was encrypted with another key (key id ${envelope.kid}; this store's is ${this.kid})` };
    try {
      const iv = Buffer.from(envelope.iv, "base64url");
      const data = Buffer.from(envelope.data, "base64url");
      if (iv.length !== 12 || data.length < 16) throw new Error("short");
      const decipher = createDecipheriv("aes-256-gcm", this.#key, iv);
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return {
        text: Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8"),
      };
    } catch {
      return {
        problem: "it does not decrypt with this store's key: damaged, tampered with, or moved from another key",
      };
    }
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Sealer { kid: ${this.kid} }`;
  }
}
