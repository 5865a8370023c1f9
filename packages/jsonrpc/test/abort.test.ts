import { describe, expect, it } from "vitest";
import { AbortLatch, abortHandleOf, delay } from "../src/internal.js";

describe("AbortLatch", () => {
  it("runs every listener once, with the reason, and later aborts do nothing", () => {
    const latch = new AbortLatch();
    const seen: unknown[] = [];
    latch.onAbort((r) => seen.push(["a", r]));
    latch.onAbort((r) => seen.push(["b", r]));
    expect(latch.aborted).toBe(false);
    latch.abort("why");
    latch.abort("again");
    expect(seen).toEqual([
      ["a", "why"],
      ["b", "why"],
    ]);
    expect(latch.reason).toBe("why");
  });

  it("defaults the reason to an AbortError and calls a late listener at once", () => {
    const latch = new AbortLatch();
    latch.abort();
    expect((latch.reason as DOMException).name).toBe("AbortError");
    let late: unknown;
    latch.onAbort((r) => (late = r));
    expect(late).toBe(latch.reason);
  });

  it("forgets removed listeners, first or later ones", () => {
    const latch = new AbortLatch();
    const calls: string[] = [];
    const a = (): number => calls.push("a");
    const b = (): number => calls.push("b");
    const c = (): number => calls.push("c");
    latch.onAbort(a);
    latch.onAbort(b);
    latch.onAbort(c);
    latch.offAbort(a);
    latch.offAbort(c);
    latch.offAbort(() => undefined);
    latch.abort();
    expect(calls).toEqual(["b"]);
  });

  it("makes a real AbortSignal on demand that follows it, before or after the abort", () => {
    const early = new AbortLatch();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    early.abort("x");
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("x");
    const late = new AbortLatch();
    late.abort("y");
    expect(late.signal.reason).toBe("y");
  });
});

describe("abortHandleOf", () => {
  it("follows a real signal and leaves no listener after offAbort", () => {
    const controller = new AbortController();
    const handle = abortHandleOf(controller.signal);
    const calls: unknown[] = [];
    const kept = (r: unknown): number => calls.push(r);
    const removed = (): number => calls.push("removed");
    handle.onAbort(kept);
    handle.onAbort(removed);
    handle.offAbort(removed);
    expect(handle.aborted).toBe(false);
    expect(handle.reason).toBeUndefined();
    controller.abort("r");
    expect(calls).toEqual(["r"]);
    expect(handle.reason).toBe("r");
    expect(handle.signal).toBe(controller.signal);
  });
});

describe("delay", () => {
  const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

  it("waits, with or without an abort handle, and leaves no timer or listener", async () => {
    const before = timers();
    const latch = new AbortLatch();
    const started = Date.now();
    await delay(30, latch);
    await delay(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(timers()).toBe(before);
    // The listener is gone: aborting now runs nothing that could reject a settled wait.
    latch.abort(new Error("late"));
  });

  it("rejects with the abort's reason, at once when already aborted, and clears its timer", async () => {
    const before = timers();
    const controller = new AbortController();
    const waiting = delay(60_000, abortHandleOf(controller.signal));
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(timers()).toBe(before);
    const latch = new AbortLatch();
    latch.abort("gone");
    await expect(delay(60_000, latch)).rejects.toBe("gone");
  });
});
