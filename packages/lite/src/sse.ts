// `parseSSE`: the JSON payloads of an SSE body (eventsource-parser), or of a plain JSON body.
import { MessageTooLargeError } from "@mcp/jsonrpc";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { liteParseError } from "./errors.js";

function isDone(data: string): boolean {
  return data.trim() === "[DONE]";
}

function parsePayload(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch (cause) {
    throw liteParseError(data, { cause });
  }
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Splits SSE text into its events (spec-exact: multi-line `data:`, CR/LF/CRLF, comments, BOM). */
function eventsOf(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  // A BOM is allowed only at the very start of a stream.
  parser.feed(withoutBom(text));
  // End of input ends the last event too (a lone trailing CR, or a missing blank line, would
  // otherwise leave it pending).
  parser.feed("\n\n");
  return events;
}

/**
 * Returns the first `data:` payload of an SSE body, parsed as JSON — or, when the text holds no
 * SSE event, the whole text parsed as JSON. `[DONE]` markers and empty
 * events are skipped. Throws `ParseError` (`Failed to parse MCP response`) when the payload is not JSON.
 */
export function parseSSE(text: string): unknown {
  for (const event of eventsOf(text)) {
    if (event.data === "" || isDone(event.data)) continue;
    return parsePayload(event.data);
  }
  return parsePayload(withoutBom(text));
}

/**
 * Every JSON payload of a body, in order: each SSE event's `data:`, or — when the text holds no
 * SSE event — the whole text as one JSON value.
 */
export function parsePayloads(text: string): unknown[] {
  const payloads = eventsOf(text)
    .filter((event) => event.data !== "" && !isDone(event.data))
    .map((event) => parsePayload(event.data));
  return payloads.length > 0 ? payloads : [parsePayload(withoutBom(text))];
}

/** Options of {@link parseSSEStream}. */
export interface ParseSSEStreamOptions {
  /** Largest event (or unterminated line) accepted, in characters; past it the stream fails with `MessageTooLargeError`. No limit by default. */
  maxEventSize?: number | undefined;
}

/**
 * Streams every JSON payload of an SSE body as it arrives (skipping empty events and `[DONE]`).
 * Accepts bytes or text chunks, split anywhere.
 */
export async function* parseSSEStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: ParseSSEStreamOptions = {},
): AsyncGenerator<unknown, void, undefined> {
  const ready: EventSourceMessage[] = [];
  const limit = options.maxEventSize;
  let tooLarge = false;
  const parser = createParser({
    onEvent: (event) => {
      // The parser bounds what it buffers; an event that arrived whole in one chunk is checked here.
      if (limit !== undefined && event.data.length > limit) tooLarge = true;
      else ready.push(event);
    },
    maxBufferSize: limit,
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") tooLarge = true;
    },
  });
  const decoder = new TextDecoder(); // strips a leading BOM
  const drain = function* (): Generator<unknown> {
    for (const event of ready.splice(0)) if (event.data !== "" && !isDone(event.data)) yield parsePayload(event.data);
  };
  for await (const chunk of chunks) {
    parser.feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    yield* drain();
    if (tooLarge) throw new MessageTooLargeError((limit ?? 0) + 1, limit ?? 0, "SSE event", "maxMessageBytes");
  }
  parser.feed(`${decoder.decode()}\n\n`); // end of input ends the last event
  yield* drain();
  if (tooLarge) throw new MessageTooLargeError((limit ?? 0) + 1, limit ?? 0, "SSE event", "maxMessageBytes");
}
