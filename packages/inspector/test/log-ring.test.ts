// The log's ring: calls and chatter (log lines, notifications, app messages) each keep their newest.
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../src/api.js";
import { trimLog } from "../src/log-ring.js";

const entry = (seq: number, kind: LogEntry["kind"]): LogEntry => ({
  seq,
  time: "",
  server: "s",
  kind,
  method: kind === "app" ? "notifications/message" : "tools/call",
});

describe("the log's ring", () => {
  it("keeps a call that 1,100 app log lines after it would have pushed out of one ring of 1,000", () => {
    const log = [
      entry(1, "request"),
      entry(2, "response"),
      ...Array.from({ length: 1100 }, (_, i) => entry(3 + i, "app")),
    ];
    const kept = trimLog(log, 1000);
    expect(kept.slice(0, 2).map((e) => e.seq)).toEqual([1, 2]);
    expect(kept.filter((e) => e.kind === "app")).toHaveLength(1000);
    expect(kept[2]!.seq).toBe(103); // the oldest 100 lines went
  });

  it("drops the oldest of each kind past its limit, in order, and returns the same array when nothing goes", () => {
    const log = [
      entry(1, "request"),
      entry(2, "log"),
      entry(3, "request"),
      entry(4, "notification"),
      entry(5, "error"),
    ];
    expect(trimLog(log, 2).map((e) => e.seq)).toEqual([2, 3, 4, 5]);
    expect(trimLog(log, 3)).toBe(log);
  });
});
