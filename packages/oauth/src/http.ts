// The deadline on each request of the OAuth flow, and the size limit on its answers.
import { MessageTooLargeError } from "@mcp/jsonrpc";

/** `OAuthFetch` (discovery.ts), named here so that this file imports nothing of the flow's. */
type OAuthFetch = (input: string, init?: RequestInit) => Promise<Response>;

/** How long one request of the flow (discovery, metadata, registration, token, refresh) may take, headers and body, by default. */
export const DEFAULT_OAUTH_TIMEOUT_MS = 30_000;

/** The most bytes of an answer the flow reads (metadata, a token, a registration): far more than any real one. */
export const MAX_OAUTH_BODY_BYTES = 1024 * 1024;

/**
 * `fetchImpl` with a deadline on every request: the signal it gets aborts after `timeoutMs` (or
 * with the caller's own signal), which ends the wait for headers and the read of the body. A
 * request that hangs fails, instead of holding the flow (and every caller waiting on it) for good.
 */
export function withDeadline(fetchImpl: OAuthFetch, timeoutMs: number): OAuthFetch {
  return async (input, init = {}) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await fetchImpl(input, { ...init, signal });
    } catch (error) {
      throw deadline.aborted ? timedOut(timeoutMs, error) : error;
    }
  };
}

function timedOut(timeoutMs: number, cause: unknown): Error {
  return new Error(`no answer within ${timeoutMs} ms`, { cause });
}

/**
 * The body as text, at most {@link MAX_OAUTH_BODY_BYTES}: past that the body is cancelled (the
 * connection is not read further) and this rejects with `MessageTooLargeError`.
 */
export async function readOAuthBody(response: Response): Promise<string> {
  const body = response.body;
  if (!body) return "";
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_OAUTH_BODY_BYTES) {
      void reader.cancel().catch(() => undefined);
      throw new MessageTooLargeError(size, MAX_OAUTH_BODY_BYTES, "OAuth answer");
    }
    text += decoder.decode(value, { stream: true });
  }
}
