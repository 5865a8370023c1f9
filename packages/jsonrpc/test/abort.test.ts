import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
  // Fake timers: the count of live timers is exactly this code's, whatever the test runner's own do.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits, with or without an abort handle, and leaves no timer or listener", async () => {
    const latch = new AbortLatch();
    let done = false;
    const waiting = delay(30, latch).then(() => (done = true));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(29);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(vi.getTimerCount()).toBe(0);
    // Without an abort handle too.
    const plain = delay(1);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await plain;
    expect(vi.getTimerCount()).toBe(0);
    // The listener is gone: aborting now runs nothing that could reject a settled wait.
    latch.abort(new Error("late"));
  });

  it("rejects with the abort's reason, at once when already aborted, and clears its timer", async () => {
    const controller = new AbortController();
    const waiting = delay(60_000, abortHandleOf(controller.signal));
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(vi.getTimerCount()).toBe(0);
    const latch = new AbortLatch();
    latch.abort("gone");
    await expect(delay(60_000, latch)).rejects.toBe("gone");
    expect(vi.getTimerCount()).toBe(0);
  });
});
