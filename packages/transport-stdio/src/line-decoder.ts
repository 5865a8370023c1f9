const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into lines, linear in input size: each byte is scanned once and a line is
 * joined once, when its newline arrives. A line longer than `maxLineBytes` is dropped as it grows
 * (its bytes are never held), reported once, and decoding resumes after its newline.
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #onLine: (line: Buffer) => void;
  readonly #onOversize: (size: number) => void;
  #parts: Buffer[] = [];
  #size = 0;
  #discarding = false;

  constructor(maxLineBytes: number, onLine: (line: Buffer) => void, onOversize: (size: number) => void) {
    this.#maxLineBytes = maxLineBytes;
    this.#onLine = onLine;
    this.#onOversize = onOversize;
  }

  push(chunk: Buffer): void {
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

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#discarding) return;
    if (this.#size > this.#maxLineBytes) {
      this.#discarding = true;
      this.#parts = [];
      this.#onOversize(this.#size);
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
    let line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    if (line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > 0) this.#onLine(line);
  }
}
