// The JSONL framer under random input: any split of a valid stream reassembles identically,
// oversized lines are dropped and reported without holding their bytes, random bytes never throw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitAt } from "mcp-test-utils";
import { LineDecoder } from "../src/line-decoder.js";

function decode(chunks: Buffer[], maxLineBytes = 1 << 20): { lines: string[]; sizes: number[]; oversize: number[] } {
  const lines: string[] = [];
  const sizes: number[] = [];
  const oversize: number[] = [];
  const decoder = new LineDecoder(
    maxLineBytes,
    (line) => {
      lines.push(line);
      // Characters: never more than the line's bytes (an invalid byte decodes to one U+FFFD).
      sizes.push(line.length);
    },
    (size) => oversize.push(size),
  );
  for (const chunk of chunks) decoder.push(chunk);
  return { lines, sizes, oversize };
}

// JSON-RPC-ish lines with multi-byte text, ended by LF or CRLF; empty lines in between.
const message = fc
  .record({ id: fc.nat(), text: fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", '"', "\\"), maxLength: 30 }) })
  .map((m) => JSON.stringify({ jsonrpc: "2.0", ...m }));
const stream = fc.array(fc.tuple(message, fc.constantFrom("\n", "\r\n", "\n\n")), { minLength: 1, maxLength: 30 });

describe("LineDecoder under random input", () => {
  it("any split of a valid stream gives the same lines as the whole, and each line is the message sent", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 12 }), (parts, cuts) => {
        const bytes = Buffer.from(parts.map(([m, end]) => m + end).join(""));
        const whole = decode([bytes]);
        expect(whole.lines).toEqual(parts.map(([m]) => m));
        expect(decode(splitAt(bytes, cuts))).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });

  it("a line over the limit is dropped and reported once; the lines around it survive", () => {
    fc.assert(
      fc.property(fc.integer({ min: 65, max: 300 }), fc.array(fc.nat(), { maxLength: 8 }), (size, cuts) => {
        const bytes = Buffer.from(`{"a":1}\n${"x".repeat(size)}\n{"b":2}\n`);
        const { lines, oversize } = decode(splitAt(bytes, cuts), 64);
        expect(lines).toEqual(['{"a":1}', '{"b":2}']);
        expect(oversize).toHaveLength(1);
        expect(oversize[0]).toBeGreaterThan(64);
      }),
      { numRuns: 300 },
    );
  });

  it("the limit counts bytes, not characters, however the line is split (ASCII and multi-byte chunks mixed)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom("é", "😀", "x"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (count, unit, cuts) => {
          const line = `{"t":"${unit.repeat(count)}"}`;
          const bytes = Buffer.from(`{"a":1}\n${line}\r\n{"b":2}\n`);
          const fits = Buffer.byteLength(line) + 1 <= 64; // its CR is held until its LF
          const { lines, oversize } = decode(splitAt(bytes, cuts), 64);
          expect(lines).toEqual(fits ? ['{"a":1}', line, '{"b":2}'] : ['{"a":1}', '{"b":2}']);
          expect(oversize).toHaveLength(fits ? 0 : 1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("random bytes never throw, and no line is longer than the limit", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 10 }), (chunks) => {
        const { sizes } = decode(
          chunks.map((c) => Buffer.from(c)),
          64,
        );
        for (const size of sizes) expect(size).toBeLessThanOrEqual(64);
      }),
      { numRuns: 500 },
    );
  });
});
