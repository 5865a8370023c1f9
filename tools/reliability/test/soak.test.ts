// The soak: many requests with random aborts and timeouts end with an empty pending map, memory
// back where it started, and nothing left behind after close. The fault server's `fault` tool
// (fault "hang") never answers, so every call to it ends by its timeout; `ok` answers at once.
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { callTool, connectToServer, disconnectServer, type MCPServerConnection } from "@mcp/client";
import fc from "fast-check";
import { activeHandles } from "mcp-test-utils";
import { describe, expect, it } from "vitest";
import { eventually, expectNothingLeft, faultScript, startHttpFault } from "./harness.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

type Kind = "ok" | "abort" | "timeout";
interface Tally {
  ok: number;
  aborted: number;
  timedOut: number;
  other: string[];
  /** Most listeners seen on the shared signal while a wave was in flight. */
  peakListeners: number;
}

/**
 * `count` requests in waves of `wave` concurrent ones, each an answer, an abort or a timeout.
 * Those not aborted on their own share `shared`, a signal that never fires: a listener left on it
 * per request is the classic leak (and Node's MaxListenersExceededWarning).
 */
async function soak(
  conn: MCPServerConnection,
  count: number,
  wave: number,
  seed: number,
  shared: AbortSignal,
): Promise<Tally> {
  const kinds = fc.sample(
    fc.tuple(fc.constantFrom<Kind>("ok", "ok", "ok", "ok", "abort", "timeout"), fc.integer({ min: 0, max: 5 })),
    { numRuns: count, seed },
  );
  const tally: Tally = { ok: 0, aborted: 0, timedOut: 0, other: [], peakListeners: 0 };
  for (let start = 0; start < count; start += wave) {
    const calls = kinds.slice(start, start + wave).map(async ([kind, ms]) => {
      let signal = shared;
      if (kind === "abort") {
        const controller = new AbortController();
        setTimeout(() => controller.abort(new Error("soak abort")), ms);
        signal = controller.signal;
      }
      try {
        const result = await callTool(
          conn,
          kind === "timeout" ? "fault" : "ok",
          {},
          { signal, timeout: kind === "timeout" ? ms + 1 : 30_000 },
        );
        if (result.content[0]?.type === "text") tally.ok++;
      } catch (error) {
        const e = error as Error;
        if (e.message === "soak abort") tally.aborted++;
        else if (e.name === "RequestTimeoutError") tally.timedOut++;
        else tally.other.push(`${e.name}: ${e.message}`);
      }
    });
    tally.peakListeners = Math.max(tally.peakListeners, getEventListeners(shared, "abort").length);
    await Promise.all(calls);
  }
  return tally;
}

async function run(label: string, conn: MCPServerConnection, count: number, wave: number): Promise<void> {
  const pending = (): number | undefined => conn.transport.pendingRequests;
  const shared = new AbortController().signal;
  await soak(conn, 5_000, wave, 1, shared); // warm up: JIT, buffers, sockets
  const before = heapAfterGc();
  const tally = await soak(conn, count, wave, 2, shared);
  expect(tally.other).toEqual([]);
  expect(tally.ok + tally.aborted + tally.timedOut).toBe(count);
  expect(tally.aborted).toBeGreaterThan(0);
  expect(tally.timedOut).toBeGreaterThan(0);
  await eventually(pending, 0);
  // The shared signal was listened to while requests were in flight, and by nothing after.
  expect(tally.peakListeners).toBeGreaterThan(0);
  expect(getEventListeners(shared, "abort")).toHaveLength(0);
  const after = heapAfterGc();
  // The figures docs/reliability.md quotes.
  console.info(
    `${label} soak: ${count} requests (${tally.ok} answered, ${tally.aborted} aborted, ${tally.timedOut} timed out); heap after GC ${((after - before) / 1024).toFixed(0)} KB from the start`,
  );
  // Flat: a leak of even 100 bytes per request would be 10 MB here.
  expect(after - before, `heap grew from ${before} to ${after} bytes`).toBeLessThan(4 * 1024 * 1024);
}

describe("soak: random aborts and timeouts", () => {
  it(
    "stdio: 100,000 requests end with nothing pending, a flat heap and nothing left after close",
    { timeout: 120_000 },
    async () => {
      const baseline = activeHandles();
      const conn = await connectToServer("soak", { command: process.execPath, args: [faultScript, "stdio", "hang"] });
      const pid = conn.transport.pid;
      try {
        await run("stdio", conn, 100_000, 1000);
      } finally {
        await disconnectServer(conn);
      }
      expect(conn.transport.pendingRequests).toBe(0);
      await expectNothingLeft(baseline, [pid]);
    },
  );

  it("Streamable HTTP: 20,000 requests, the same", { timeout: 120_000 }, async () => {
    const baseline = activeHandles();
    const server = await startHttpFault("hang");
    const conn = await connectToServer("soak", { type: "http", url: `${server.origin}/mcp` });
    try {
      await run("Streamable HTTP", conn, 20_000, 200);
    } finally {
      await disconnectServer(conn);
      await server.stop();
    }
    await expectNothingLeft(baseline);
  });
});
