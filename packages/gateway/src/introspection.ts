// RFC 7662 token introspection for the opaque access tokens of an issuer: the gateway, as a client
// of the issuer, asks its introspection endpoint what a token is, and gets its claims back.

/** The gateway's credentials at the issuer's introspection endpoint (RFC 7662), for opaque access tokens. */
export interface IntrospectionOptions {
  /** The gateway's client id at the issuer. */
  clientId: string;
  /** Its secret (sent with HTTP Basic, `client_secret_basic`). */
  clientSecret: string;
  /** The endpoint. Default: the issuer metadata's `introspection_endpoint`. */
  endpoint?: string | undefined;
  /**
   * How long an active token's answer is kept at most (ms), never past its `exp`: a token revoked at
   * the issuer keeps working for up to this long. `0` asks the issuer on every request. Default 60 s.
   * An inactive answer is never kept.
   */
  cacheMs?: number | undefined;
}

/** How long an active introspection answer is kept at most, by default (ms). */
export const INTROSPECTION_CACHE_MS = 60_000;

/** Whether `token` has the shape of a JWT (three base64url parts): anything else is introspected. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded, then joined for HTTP Basic. */
export function basic(id: string, secret: string): string {
  const encode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString("base64")}`;
}

/**
 * Asks `endpoint` about `token`; returns the answer's members (`active` is a boolean). Throws an
 * Error when the endpoint cannot answer (unreachable, not 200, not an introspection answer): the
 * caller's token is not at fault then.
 */
export async function introspect(
  endpoint: string,
  options: IntrospectionOptions,
  token: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const response = await fetch(endpoint, {
    method: "POST",
    signal,
    redirect: "error",
    headers: {
      authorization: basic(options.clientId, options.clientSecret),
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    },
    body: new URLSearchParams({ token, token_type_hint: "access_token" }),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the introspection endpoint ${endpoint} answered HTTP ${response.status}`);
  }
  const answer: unknown = await response.json();
  if (typeof answer !== "object" || answer === null || typeof (answer as { active?: unknown }).active !== "boolean")
    throw new Error(`the introspection endpoint ${endpoint} gave no "active" member`);
  return answer as Record<string, unknown>;
}

/** The most bytes of an issuer's or authorization server's answer read (a hostile or broken one is not read further). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** `response`'s JSON body, read up to MAX_ANSWER_BYTES; `{}` when it is longer, or not JSON. */
export async function boundedJson(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return {};
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
      if (done || !value) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES) return {};
      chunks.push(value);
    }
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return {};
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
