import { MessageTooLargeError } from "@mcp/jsonrpc";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ExchangeResponse } from "./exchange.js";

/** What one SSE stream delivered, for resumption. */
export interface SseProgress {
  /** The last `id:` seen on this stream (or carried over from an earlier one). */
  lastEventId: string | undefined;
  /** The last `retry:` the server asked for, in ms. */
  retry: number | undefined;
  /** How many events arrived (on this stream and those before it). */
  events?: number | undefined;
}

/**
 * Feeds a response body through `eventsource-parser` (multi-line `data:`, `id:`, `retry:`,
 * comments, CR/LF/CRLF) and calls `onEvent` for each event, synchronously as its bytes arrive.
 * Resolves when the body ends (or was cancelled); rejects if it breaks, or with
 * `MessageTooLargeError` once one event (or unterminated line) passes `maxSize` characters — then
 * the body is not read further.
 */
export async function readSse(body: Pick<ExchangeResponse, "readText">, progress: SseProgress, onEvent: (event: EventSourceMessage) => void, maxSize: number): Promise<void> {
  let tooLarge: MessageTooLargeError | undefined;
  const parser = createParser({
    maxBufferSize: maxSize,
    onEvent: (event) => {
      if (event.id !== undefined) progress.lastEventId = event.id;
      progress.events = (progress.events ?? 0) + 1;
      onEvent(event);
    },
    onRetry: (ms) => {
      progress.retry = ms;
    },
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") tooLarge ??= new MessageTooLargeError(maxSize + 1, maxSize, "SSE event", "maxMessageBytes");
    },
  });
  await body.readText((text) => {
    parser.feed(text);
    if (tooLarge) throw tooLarge;
  });
}
