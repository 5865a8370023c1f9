import { MessageTooLargeError } from "@mcp/jsonrpc";
import type { ExchangeResponse } from "./exchange.js";

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

const LF = 10;
const SPACE = 32;
const COLON = 58;

/**
 * An `text/event-stream` parser following the WHATWG "event stream interpretation": lines end in
 * CRLF, LF or CR (also when a CRLF is split across chunks); `data:` lines are joined with `\n`; an
 * empty line dispatches; `id:` (unless it contains NUL) sets the last event id, committed at the
 * next empty line even when no data came; `retry:` takes digits only; `:` starts a comment; one
 * space after the colon is dropped; a leading BOM is skipped; a trailing event with no empty line
 * after it is discarded. One object per stream (no closures), fed decoded text.
 *
 * `feed` throws {@link MessageTooLargeError} once one event's data plus the unfinished line pass
 * `maxSize` characters; the parser is then finished.
 */
export class SseParser {
  readonly #progress: SseProgress;
  readonly #onEvent: SseEventHandler;
  readonly #maxSize: number;
  /** The unfinished line: the last fragment, and those before it when there are several. */
  #rest = "";
  #fragments: string[] | undefined;
  #restLength = 0;
  #data = "";
  #dataLines = 0;
  #type: string | undefined;
  #id: string | undefined;
  #skipLf = false;
  #started = false;
  #failed = false;

  constructor(progress: SseProgress, onEvent: SseEventHandler, maxSize: number) {
    this.#progress = progress;
    this.#onEvent = onEvent;
    this.#maxSize = maxSize;
    this.#id = progress.lastEventId;
  }

  feed(chunk: string): void {
    if (this.#failed) throw new Error("SSE parser already failed");
    if (!this.#started && chunk !== "") {
      this.#started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    if (this.#skipLf && chunk !== "") {
      this.#skipLf = false;
      if (chunk.charCodeAt(0) === LF) chunk = chunk.slice(1);
    }
    if (this.#restLength > 0) {
      if (chunk.indexOf("\n") === -1 && chunk.indexOf("\r") === -1) {
        (this.#fragments ??= [this.#rest]).push(chunk);
        this.#restLength += chunk.length;
        this.#checkSize();
        return;
      }
      chunk = this.#fragments === undefined ? this.#rest + chunk : this.#fragments.join("") + chunk;
      this.#fragments = undefined;
      this.#rest = "";
      this.#restLength = 0;
    }
    this.#lines(chunk);
    this.#checkSize();
  }

  #lines(text: string): void {
    const length = text.length;
    let start = 0;
    if (text.indexOf("\r") === -1) {
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        this.#line(text, start, end);
        start = end + 1;
      }
    } else {
      let cr = text.indexOf("\r");
      let lf = text.indexOf("\n");
      for (;;) {
        if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
        if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
        const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
        if (end === -1) break;
        this.#line(text, start, end);
        start = end + 1;
        if (end === cr) {
          if (start === length) this.#skipLf = true;
          else if (lf === start) start++;
        }
      }
    }
    if (start < length) {
      this.#rest = text.slice(start);
      this.#restLength = this.#rest.length;
    }
  }

  #line(text: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    const first = text.charCodeAt(start);
    if (first === COLON) return; // a comment
    let colon = text.indexOf(":", start);
    if (colon === -1 || colon > end) colon = end;
    let valueStart = colon + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    const nameLength = colon - start;
    if (nameLength === 4 && text.startsWith("data", start)) {
      const value = valueStart >= end ? "" : text.slice(valueStart, end);
      this.#data = this.#dataLines === 0 ? value : `${this.#data}\n${value}`;
      this.#dataLines++;
      if (this.#data.length > this.#maxSize) this.#tooLarge(this.#data.length);
    } else if (nameLength === 5 && text.startsWith("event", start)) {
      this.#type = valueStart >= end ? undefined : text.slice(valueStart, end);
    } else if (nameLength === 2 && text.startsWith("id", start)) {
      const value = valueStart >= end ? "" : text.slice(valueStart, end);
      if (!value.includes("\0")) this.#id = value === "" ? undefined : value;
    } else if (nameLength === 5 && text.startsWith("retry", start)) {
      const value = valueStart >= end ? "" : text.slice(valueStart, end);
      if (/^\d+$/.test(value)) this.#progress.retry = Number(value);
    }
    // Any other field is ignored, as the standard says.
  }

  #dispatch(): void {
    this.#progress.lastEventId = this.#id;
    const lines = this.#dataLines;
    const data = this.#data;
    const type = this.#type;
    this.#data = "";
    this.#dataLines = 0;
    this.#type = undefined;
    if (lines === 0) return;
    this.#progress.events = (this.#progress.events ?? 0) + 1;
    this.#onEvent(data, type);
  }

  #checkSize(): void {
    const size = this.#restLength + this.#data.length;
    if (size > this.#maxSize) this.#tooLarge(size);
  }

  #tooLarge(size: number): never {
    this.#failed = true;
    this.#rest = this.#data = "";
    this.#fragments = undefined;
    this.#restLength = 0;
    throw new MessageTooLargeError(size, this.#maxSize, "SSE event", "maxMessageBytes");
  }
}

/**
 * Feeds a response body through an {@link SseParser} and calls `onEvent` for each event,
 * synchronously as its bytes arrive. Resolves when the body ends (or was cancelled); rejects if it
 * breaks, or with `MessageTooLargeError` once one event (or unterminated line) passes `maxSize`
 * characters — then the body is not read further.
 */
export function readSse(body: Pick<ExchangeResponse, "readText">, progress: SseProgress, onEvent: SseEventHandler, maxSize: number): Promise<void> {
  const parser = new SseParser(progress, onEvent, maxSize);
  return body.readText((text) => parser.feed(text));
}
