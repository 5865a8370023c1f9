// SSE parsing with eventsource-parser: events, ids and retry hints, as they arrive.
import { MessageTooLargeError } from "@mcp/jsonrpc";
import { createParser } from "eventsource-parser";
import type { ExchangeResponse } from "./exchange.js";

/** The longest a timer can wait, in ms (2³¹ − 1). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What one SSE stream delivered, for resumption. */
export interface SseProgress {
  /** The last event id the server set (carried over from an earlier stream); never `""`. */
  lastEventId: string | undefined;
  /** The last `retry:` the server asked for, in ms. */
  retry: number | undefined;
  /** How many events arrived (on this stream and those before it). */
  events?: number | undefined;
}

/** Called for each dispatched event: its data (lines joined with `\n`) and its `event:` type. */
export type SseEventHandler = (data: string, type: string | undefined) => void;

/**
 * Feeds one response body through `eventsource-parser` and calls `onEvent` for each event,
 * synchronously as its bytes arrive. Resolves when the body ends (or was cancelled); rejects if it
 * breaks, or with `MessageTooLargeError` once one event (or an unterminated line) passes `maxSize`
 * characters — the body is then not read further.
 */
export function readSse(
  body: Pick<ExchangeResponse, "readText">,
  progress: SseProgress,
  onEvent: SseEventHandler,
  maxSize: number,
): Promise<void> {
  const tooLarge = (size: number): never => {
    throw new MessageTooLargeError(size, maxSize, "SSE event", "maxMessageBytes");
  };
  const parser = createParser({
    onEvent: (event) => {
      // An empty `id:` resets the last event id (WHATWG); we keep "none" as undefined.
      if (event.id !== undefined) progress.lastEventId = event.id === "" ? undefined : event.id;
      // The parser bounds what it buffers; an event that arrived whole in one chunk is checked here.
      if (event.data.length > maxSize) tooLarge(event.data.length);
      progress.events = (progress.events ?? 0) + 1;
      onEvent(event.data, event.event);
    },
    onRetry: (ms) => {
      // A timer cannot wait longer (Node would wait 1 ms instead, with a warning): a longer hint
      // is held to that, so the request's own timeout ends it first.
      progress.retry = Math.min(ms, MAX_TIMER_MS);
    },
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") tooLarge(maxSize + 1);
    },
    maxBufferSize: maxSize,
  });
  let first = true;
  // A chunk that ends in CR is fed with an LF after it, so that the parser ends the line now (it
  // holds a final CR until it sees whether an LF follows, which on a stream that stays open may be
  // never); an LF that then starts the next chunk is the rest of that CRLF, and is dropped.
  let fedLf = false;
  return body.readText((text) => {
    if (text === "") return;
    // Bodies are decoded with their byte-order mark kept; a stream may start with one.
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (fedLf && text.charCodeAt(0) === 0x0a) text = text.slice(1);
    fedLf = text.charCodeAt(text.length - 1) === 0x0d;
    parser.feed(fedLf ? `${text}\n` : text);
  });
}
