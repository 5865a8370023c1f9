import { MessageTooLargeError } from "./errors.js";

/**
 * Reading HTTP bodies with a size bound, shared by the HTTP transport and `@mcp/lite`. Pure
 * stream handling over a `ReadableStream` or an async iterator: no I/O of its own.
 */

/**
 * The chunks of a WHATWG body; ending the iteration early (or an error) cancels the body.
 * `onReader` receives the reader, so a caller can cancel a read in progress.
 */
export async function* bodyChunks(
  body: ReadableStream<Uint8Array> | null | undefined,
  onReader?: (reader: ReadableStreamDefaultReader<Uint8Array>) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (!body) return;
  const reader = body.getReader();
  onReader?.(reader);
  try {
    for (;;) {
      const next = (await reader.read()) as { done: true; value?: undefined } | { done: false; value: Uint8Array };
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Stopping early (the awaited answer arrived, or a limit was hit) releases the connection.
    void reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads chunks to the end as UTF-8 text. Past `maxBytes` it stops reading, calls `stop` (so the
 * caller can release the connection) and throws {@link MessageTooLargeError} naming `option`.
 */
export async function readBoundedText(
  chunks: AsyncIterator<Uint8Array>,
  maxBytes: number | undefined,
  options: { source?: string; option?: string; stop?: () => void } = {},
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) return text + decoder.decode();
    size += next.value.byteLength;
    if (maxBytes !== undefined && size > maxBytes) {
      if (options.stop) options.stop();
      else await chunks.return?.();
      throw new MessageTooLargeError(
        size,
        maxBytes,
        options.source ?? "HTTP response body",
        options.option ?? "maxMessageBytes",
      );
    }
    text += decoder.decode(next.value, { stream: true });
  }
}
