import { MessageTooLargeError } from "@mcp/jsonrpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitAt } from "mcp-test-utils";
import { readSse, type SseProgress } from "../src/event-stream.js";

interface Seen {
  events: { data: string; type: string | undefined }[];
  progress: SseProgress;
}

/** Feeds `chunks` as one body through readSse (eventsource-parser underneath); what it dispatched and left in `progress`. */
function parse(chunks: string[], maxSize = 1 << 20, end = true): Seen {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const events: Seen["events"] = [];
  let failure: unknown;
  void readSse(
    {
      readText: (onText, onEnd) => {
        try {
          for (const chunk of chunks) onText(chunk);
          if (end) onEnd?.();
        } catch (error) {
          failure = error;
        }
        return Promise.resolve();
      },
    },
    progress,
    (data, type) => events.push({ data, type }),
    maxSize,
  );
  if (failure instanceof Error) throw failure;
  return { events, progress };
}

describe("readSse: the WHATWG event stream rules, through eventsource-parser", () => {
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

  it("an event ended by a lone CR is dispatched as it arrives, on a stream that stays open", () => {
    expect(parse(["data: a\r\r"], 1 << 20, false).events.map((e) => e.data)).toEqual(["a"]);
    expect(parse(["data: a\r", "\r"], 1 << 20, false).events.map((e) => e.data)).toEqual(["a"]);
    expect(parse(["data: a\r\n\r", "\ndata: b\n\n"], 1 << 20, false).events.map((e) => e.data)).toEqual(["a", "b"]);
  });

  it("ignores comments and unknown fields; a trailing event with no empty line is dropped", () => {
    const { events } = parse([": hello\nfoo: bar\ndata: x\n\n", "data: never dispatched"]);
    expect(events).toEqual([{ data: "x", type: undefined }]);
  });

  it("keeps the last event id across events; NUL ids are ignored; an empty id resets it", () => {
    expect(parse(["id: 7\ndata: x\n\ndata: y\n\n"]).progress.lastEventId).toBe("7");
    expect(parse(["id: 7\ndata\n\nid: 8\ndata: x\n\nid: 9\u0000\ndata: y\n\n"]).progress.lastEventId).toBe("8");
    expect(parse(["id: 7\ndata: x\n\nid\ndata: y\n\n"]).progress.lastEventId).toBeUndefined();
    // An id line not yet followed by an empty line is not committed.
    expect(parse(["id: 7\ndata: a\n\nid: 8\ndata: x\n"]).progress.lastEventId).toBe("7");
    // eventsource-parser dispatches no event without data, so an id-only block sets nothing (the
    // SDK's priming events carry an empty data line, and so count).
    expect(parse(["id: 7\n\n"]).progress.lastEventId).toBeUndefined();
  });

  it("takes retry: with digits only", () => {
    expect(parse(["retry: 1500\n\n"]).progress.retry).toBe(1500);
    expect(parse(["retry: 15x\n\nretry: -1\n\n"]).progress.retry).toBeUndefined();
  });

  it("skips a byte-order mark at the start of the stream only", () => {
    expect(parse(["\uFEFFdata: a\n\n", "\uFEFFdata: b\n\n"]).events.map((e) => e.data)).toEqual(["a"]);
  });

  it("throws MessageTooLargeError once an event or an unfinished line passes the limit, also an event that came whole", () => {
    expect(() => parse(["data: ", "x".repeat(100)], 64)).toThrow(MessageTooLargeError);
    expect(() => parse([`data: ${"x".repeat(40)}\ndata: ${"y".repeat(40)}\n`], 64)).toThrow(MessageTooLargeError);
    expect(() => parse([`data: ${"x".repeat(100)}\n\n`], 64)).toThrow(MessageTooLargeError);
    expect(parse([`data: ${"x".repeat(60)}\n\n`], 64).events).toHaveLength(1);
  });
});

// Streams built from the pieces that matter: fields, values with colons, spaces and non-ASCII
// text, comments, and every line ending.
const value = fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "é", "😀", "{", '"'), maxLength: 12 });
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
const stream = fc
  .array(fc.tuple(line, ending), { maxLength: 40 })
  .map((lines) => lines.map(([l, e]) => l + e).join(""));

describe("readSse: properties", () => {
  it("any split of a stream gives the same events as feeding it whole", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        expect(parse(splitAt(text, cuts))).toEqual(parse([text]));
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
