// Stopping a gateway's process: the end of stdin or a signal asks once (a second signal goes to
// `again`), and closing after a stop is bounded: a close that does not finish in time is "late".
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { closeWithin, stopRequests } from "../src/index.js";

const listeners = { SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") };
afterEach(() => {
  // Nothing of ours is left listening (the `again` handlers are removed by the tests that add them).
  expect(process.listenerCount("SIGINT")).toBe(listeners.SIGINT);
  expect(process.listenerCount("SIGTERM")).toBe(listeners.SIGTERM);
});

describe("stopRequests", () => {
  it("is asked once by the end of stdin, and says when", async () => {
    const stdin = new PassThrough();
    const stop = stopRequests({ stdin });
    expect(stop.at).toBeUndefined();
    const before = Date.now();
    stdin.end();
    stdin.resume();
    expect(await stop.asked).toBe("end of stdin");
    expect(stop.at).toBeGreaterThanOrEqual(before);
  });

  it("is asked by SIGTERM; a second signal goes to again", async () => {
    const seen: string[] = [];
    const again = (): void => void seen.push("again");
    const stop = stopRequests({ again });
    process.emit("SIGTERM", "SIGTERM");
    expect(await stop.asked).toBe("SIGTERM");
    process.emit("SIGINT", "SIGINT");
    expect(seen).toEqual(["again"]);
    process.off("SIGTERM", again);
  });

  it("names Ctrl-C", async () => {
    const stop = stopRequests();
    process.emit("SIGINT", "SIGINT");
    expect(await stop.asked).toBe("Ctrl-C");
  });
});

describe("closeWithin", () => {
  it("waits for close when no stop was asked, and after a stop gives up on one that does not finish", async () => {
    let closed = false;
    expect(await closeWithin(undefined, 0, async () => void (closed = true))).toBe("closed");
    expect(closed).toBe(true);
    expect(await closeWithin(Date.now(), 10_000, async () => undefined)).toBe("closed");
    expect(await closeWithin(Date.now(), 20, () => new Promise<void>(() => undefined))).toBe("late");
  });
});
