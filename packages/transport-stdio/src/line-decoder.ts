// Splitting the child's stdout into UTF-8 lines; a line over `maxLineBytes` is dropped and reported once.
import * as buffer from "node:buffer";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Whether a chunk is all ASCII, where the runtime can say so cheaply (Node ≥ 18.15); else never asked. */
const isAscii: ((chunk: Buffer) => boolean) | undefined =
  typeof buffer.isAscii === "function" ? buffer.isAscii : undefined;

/**
 * Splits a byte stream into UTF-8 lines, linear in input size: each byte is scanned once and a line
 * is joined once, when its newline arrives. A line longer than `maxLineBytes` is dropped as it grows
 * (its bytes are never held), reported once, and decoding resumes after its newline.
 *
 * An all-ASCII chunk (what JSON-RPC traffic mostly is) is decoded once as a whole and its lines are
 * slices of that string (a character is a byte there, so sizes are exact): no buffer object and no
 * decoding per line. Other chunks are split as bytes and each line decoded once it is whole, so a
 * character cut between two chunks is never garbled.
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOversize: (size: number) => void;
  /** The start of the current line: all strings (ASCII) or all bytes, as `#text` says. */
  #parts: (string | Buffer)[] = [];
  #text = false;
  #size = 0;
  #discarding = false;

  constructor(maxLineBytes: number, onLine: (line: string) => void, onOversize: (size: number) => void) {
    this.#maxLineBytes = maxLineBytes;
    this.#onLine = onLine;
    this.#onOversize = onOversize;
  }

  push(chunk: Buffer): void {
    if (isAscii?.(chunk)) this.#pushText(chunk.toString("latin1"));
    else this.#pushBytes(chunk);
  }

  #pushText(text: string): void {
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.#append(text.slice(start));
        return;
      }
      if (this.#size === 0 && !this.#discarding) {
        // A whole line in this chunk: straight out, nothing held.
        if (newline - start > this.#maxLineBytes) this.#onOversize(newline - start);
        else this.#emitText(text.slice(start, newline));
      } else {
        this.#append(text.slice(start, newline));
        this.#finishLine();
      }
      start = newline + 1;
    }
  }

  #pushBytes(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  #append(piece: string | Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length; // a string piece is ASCII: one byte per character
    if (this.#discarding) return;
    if (this.#size > this.#maxLineBytes) {
      this.#discarding = true;
      this.#parts = [];
      this.#onOversize(this.#size);
      return;
    }
    const text = typeof piece === "string";
    if (this.#parts.length === 0) this.#text = text;
    else if (this.#text !== text) {
      // A line that is partly ASCII and partly not: held as bytes, decoded whole at its end.
      if (this.#text) this.#parts = this.#parts.map((part) => Buffer.from(part as string, "latin1"));
      this.#text = false;
      this.#parts.push(typeof piece === "string" ? Buffer.from(piece, "latin1") : piece);
      return;
    }
    this.#parts.push(piece);
  }

  #finishLine(): void {
    const parts = this.#parts;
    const discarded = this.#discarding;
    this.#parts = [];
    this.#size = 0;
    this.#discarding = false;
    if (discarded || parts.length === 0) return;
    if (this.#text) {
      this.#emitText(parts.length === 1 ? (parts[0] as string) : parts.join(""));
      return;
    }
    let line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts as Buffer[]);
    if (line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > 0) this.#onLine(line.toString("utf8"));
  }

  #emitText(line: string): void {
    const end = line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.length - 1 : line.length;
    if (end > 0) this.#onLine(end === line.length ? line : line.slice(0, end));
  }
}
