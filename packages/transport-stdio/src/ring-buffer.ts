// The last bytes of the child's stderr, kept in a ring of fixed capacity.
/** Keeps the last `capacity` bytes written to it; used for a child's stderr. */
export class ByteRing {
  readonly #capacity: number;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  push(chunk: Buffer): void {
    if (this.#capacity <= 0) return;
    const piece = chunk.length > this.#capacity ? chunk.subarray(chunk.length - this.#capacity) : chunk;
    this.#chunks.push(piece);
    this.#size += piece.length;
    while (this.#size - (this.#chunks[0]?.length ?? 0) >= this.#capacity) {
      this.#size -= (this.#chunks.shift() as Buffer).length;
    }
  }

  /** The kept bytes as text, starting at a line boundary when the buffer has overflowed. */
  text(): string {
    let bytes = Buffer.concat(this.#chunks);
    if (bytes.length > this.#capacity) {
      bytes = bytes.subarray(bytes.length - this.#capacity);
      const newline = bytes.indexOf(0x0a);
      if (newline !== -1 && newline < bytes.length - 1) bytes = bytes.subarray(newline + 1);
    }
    return bytes.toString("utf8");
  }
}
