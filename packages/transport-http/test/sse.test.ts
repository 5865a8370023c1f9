import { MessageTooLargeError } from "@mcp/jsonrpc";
import { createParser } from "eventsource-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser, type SseProgress } from "../src/sse.js";

interface Seen {
  events: { data: string; type: string | undefined }[];
  progress: SseProgress;
}

/** Feeds `chunks` to a fresh parser; what it dispatched and what it left in `progress`. */
function parse(chunks: string[], maxSize = 1 << 20): Seen {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const events: Seen["events"] = [];
  const parser = new SseParser(progress, (data, type) => events.push({ data, type }), maxSize);
  for (const chunk of chunks) parser.feed(chunk);
  return { events, progress };
}

/** The same stream through eventsource-parser, the reference implementation. */
function reference(chunks: string[]): Seen {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const events: Seen["events"] = [];
  const parser = createParser({
    onEvent: (event) => {
      events.push({ data: event.data, type: event.event });
      progress.events = (progress.events ?? 0) + 1;
    },
    onRetry: (ms) => (progress.retry = ms),
  });
  for (const chunk of chunks) parser.feed(chunk);
  return { events, progress };
}

/** `text` cut at the given (sorted, deduplicated) offsets. */
function split(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of at) {
    out.push(text.slice(from, cut));
    from = cut;
  }
  out.push(text.slice(from));
  return out;
}

describe("SseParser: the WHATWG event stream rules", () => {
  it("joins data lines with \\n, takes event types, drops one space after the colon", () => {
    const { events } = parse(["data: one\ndata:two\ndata:  three\n\nevent: ping\ndata\n\n"]);
    expect(events).toEqual([
      { data: "one\ntwo\n three", type: undefined },
      { data: "", type: "ping" },
    ]);
  });

  it("ends lines at LF, CR and CRLF, also when a CRLF is split across chunks", () => {
    const { events } = parse(["data: a\r", "\ndata: b\r\rdata: c\r\n", "\r", "\n", "data: d\n\n"]);
    expect(events.map((e) => e.data)).toEqual(["a\nb", "c", "d"]);
  });

  it("ignores comments and unknown fields; a trailing event with no empty line is dropped", () => {
    const { events } = parse([": hello\nfoo: bar\ndata: x\n\n", "data: never dispatched"]);
    expect(events).toEqual([{ data: "x", type: undefined }]);
  });

  it("commits the last event id at each empty line, also without data; NUL ids are ignored", () => {
    expect(parse(["id: 7\n\n"]).progress.lastEventId).toBe("7");
    expect(parse(["id: 7\n\nid: 8\ndata: x\n\nid: 9\u0000\ndata: y\n\n"]).progress.lastEventId).toBe("8");
    // An empty id resets it (no Last-Event-ID is sent after that).
    expect(parse(["id: 7\n\nid\n\n"]).progress.lastEventId).toBeUndefined();
    // An id line not yet followed by an empty line is not committed.
    expect(parse(["id: 7\n\nid: 8\ndata: x\n"]).progress.lastEventId).toBe("7");
  });

  it("takes retry: with digits only", () => {
    expect(parse(["retry: 1500\n\n"]).progress.retry).toBe(1500);
    expect(parse(["retry: 15x\n\nretry: -1\n\n"]).progress.retry).toBeUndefined();
  });

  it("skips a byte-order mark at the start of the stream only", () => {
    expect(parse(["\uFEFFdata: a\n\n", "\uFEFFdata: b\n\n"]).events.map((e) => e.data)).toEqual(["a"]);
  });

  it("throws MessageTooLargeError once an event or an unfinished line passes the limit", () => {
    expect(() => parse(["data: ", "x".repeat(100)], 64)).toThrow(MessageTooLargeError);
    expect(() => parse([`data: ${"x".repeat(40)}\ndata: ${"y".repeat(40)}\n`], 64)).toThrow(MessageTooLargeError);
    expect(parse([`data: ${"x".repeat(60)}\n\n`], 64).events).toHaveLength(1);
  });
});

// Streams built from the pieces that matter: fields, values with colons, spaces and non-ASCII
// text, comments, and every line ending.
const value = fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "é", "😀", "{", '"') , maxLength: 12 });
const line = fc.oneof(
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  fc.constant("data"),
  value.map((v) => `event: ${v}`),
  value.map((v) => `: ${v}`),
  fc.nat(99_999).map((n) => `retry: ${n}`),
  value.map((v) => `other: ${v}`),
  fc.constant(""),
);
const ending = fc.constantFrom("\n", "\r", "\r\n");
const stream = fc.array(fc.tuple(line, ending), { maxLength: 40 }).map((lines) => lines.map(([l, e]) => l + e).join(""));

describe("SseParser: properties", () => {
  it("any split of a stream gives the same events as feeding it whole", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        expect(parse(split(text, cuts))).toEqual(parse([text]));
      }),
      { numRuns: 500 },
    );
  });

  it("gives the events and retry eventsource-parser gives (id-free streams)", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
        // eventsource-parser holds a CR that ends its input until it sees what follows (it could
        // be a CRLF); a final LF settles that for both.
        const chunks = [...split(text, cuts), "\n"];
        const ours = parse(chunks);
        const theirs = reference(chunks);
        expect(ours.events).toEqual(theirs.events);
        expect(ours.progress.retry).toBe(theirs.progress.retry);
      }),
      { numRuns: 500 },
    );
  });

  it("random text never throws anything but the size error, and never dispatches more data than it got", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 64 }), { maxLength: 10 }), (chunks) => {
        let seen: Seen | undefined;
        try {
          seen = parse(chunks, 128);
        } catch (error) {
          expect(error).toBeInstanceOf(MessageTooLargeError);
          return;
        }
        const total = chunks.reduce((n, c) => n + c.length, 0);
        expect(seen.events.reduce((n, e) => n + e.data.length, 0)).toBeLessThanOrEqual(total);
      }),
      { numRuns: 500 },
    );
  });
});
