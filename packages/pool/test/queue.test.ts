// What the pool holds of one host session's requests (maxQueuedBytes: `receive` says stop past it, and
// `onDrain` says go on) and how the concurrent-call cap's waiting line is shared (each waiting host
// in turn), on a real server-everything whose trigger-long-running-operation answers slowly.
import { afterEach, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";
import { everything, host } from "./helpers.js";

let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const slow = (id: number, seconds: number): Record<string, unknown> => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "trigger-long-running-operation", arguments: { duration: seconds, steps: 1 } },
});

describe("a host session's requests held by the pool", () => {
  it("receive returns false past maxQueuedBytes, onDrain comes once answers bring it back under, and every request is answered", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000 });
    const answered = new Set<unknown>();
    let drained = 0;
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => {
        const id = (message as { id?: unknown }).id;
        if (id !== undefined) answered.add(id);
      },
      onDrain: () => drained++,
    });
    const opening = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "h", version: "1" } };
    expect(session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening })).toBe(true);
    await expect.poll(() => answered.has(1), { timeout: 30_000 }).toBe(true);
    // Each said to be 400 bytes: the first two stay under the mark, the third crosses it.
    expect(session.receive(slow(2, 0.2), 400)).toBe(true);
    expect(session.receive(slow(3, 0.2), 400)).toBe(true);
    expect(session.receive(slow(4, 0.2), 400)).toBe(false);
    expect(session.queuedBytes).toBe(1200);
    expect(drained).toBe(0);
    await expect.poll(() => drained, { timeout: 30_000 }).toBe(1);
    expect(session.queuedBytes).toBeLessThanOrEqual(1000);
    await expect.poll(() => answered.size, { timeout: 30_000 }).toBe(4);
    expect(session.queuedBytes).toBe(0);
    expect(pool.statuses()[0]!.hosts[0]).toMatchObject({ queuedBytes: 0, peakQueuedBytes: 1200 });
    expect(drained).toBe(1);
  }, 60_000);

  it("a host with many calls waiting does not keep another's waiting behind them all: each waiting host takes a free slot in turn", async () => {
    pool = new ServerPool({ maxConcurrentCalls: 1 });
    const [a, b] = [host(pool), host(pool)];
    await Promise.all([a.initialize(), b.initialize()]);
    const order: string[] = [];
    // a: four slow calls (one runs, three wait); then b: one call, waiting behind them.
    const aCalls = [1, 2, 3, 4].map((n) =>
      a
        .request("tools/call", { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 1 } })
        .then(() => order.push(`a${n}`)),
    );
    await expect.poll(() => pool!.statuses()[0]!.queued, { timeout: 30_000 }).toBe(3);
    const bCall = b.request("tools/call", { name: "echo", arguments: { message: "b" } }).then(() => order.push("b"));
    await Promise.all([...aCalls, bCall]);
    // Taken in turns: a (waiting first), then b, then a again; first come, first served would leave b last.
    expect(order).toEqual(["a1", "a2", "b", "a3", "a4"]);
  }, 60_000);
  it("over the mark with a server's question waiting for the host, the host is read on (its answer must come), up to twice the mark", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000 });
    const asked: unknown[] = [];
    let drained = 0;
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => {
        const { id, method } = message as { id?: unknown; method?: unknown };
        if (method === "sampling/createMessage") asked.push(id);
      },
      onDrain: () => drained++,
    });
    const opening = {
      protocolVersion: "2025-06-18",
      capabilities: { sampling: {} },
      clientInfo: { name: "h", version: "1" },
    };
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening });
    session.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
    const sample = { name: "trigger-sampling-request", arguments: { prompt: "p" } };
    expect(session.receive({ jsonrpc: "2.0", id: 2, method: "tools/call", params: sample }, 100)).toBe(true);
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(1);
    // Calls that stay (60 s) while the question waits: 100 + 900 is at the mark, then over it.
    expect(session.receive(slow(3, 60), 900)).toBe(true);
    expect(session.receive(slow(4, 60), 900)).toBe(true);
    expect(session.queuedBytes).toBe(1900);
    expect(session.receive(slow(5, 60), 900)).toBe(false);
    expect(drained).toBe(0);
  }, 60_000);
  it("a batch's bytes are shared among its requests in whole bytes: once all are answered, nothing is held (not -1.4e-14)", async () => {
    pool = new ServerPool();
    const answered = new Set<unknown>();
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => void answered.add((message as { id?: unknown }).id),
    });
    const opening = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "h", version: "1" } };
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening });
    await expect.poll(() => answered.has(1), { timeout: 30_000 }).toBe(true);
    const batch = [11, 12, 13].map((id) => ({ jsonrpc: "2.0", id, method: "ping" }));
    // Sent as one line of 100 bytes (as a relay counts it): 100 / 3 each would not add back up to 0.
    session.receive(batch, 100);
    await expect.poll(() => [11, 12, 13].every((id) => answered.has(id)), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => session.inFlight, { timeout: 30_000 }).toBe(0);
    expect(session.queuedBytes).toBe(0);
    expect(pool.statuses()[0]!.hosts[0]).toMatchObject({ queuedBytes: 0 });
  }, 60_000);
});
