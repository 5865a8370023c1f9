// What the pool holds of one host session's requests (maxQueuedBytes in service; past it requests are
// held unstarted, up to maxHeldBytes: `receive` says stop past that, and `onDrain` says go on), that
// over the mark a host's cancellations and answers still arrive, and how the concurrent-call cap's
// waiting line is shared (each waiting host in turn), on a real server-everything whose
// trigger-long-running-operation answers slowly.
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
const opening = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "h", version: "1" } };

describe("a host session's requests held by the pool", () => {
  it("past maxQueuedBytes in service requests are held unstarted and started in order as answers come; receive returns false only past maxHeldBytes, and onDrain comes once back under", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000, maxHeldBytes: 1000 });
    const answered: unknown[] = [];
    let drained = 0;
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => {
        const id = (message as { id?: unknown }).id;
        if (id !== undefined) answered.push(id);
      },
      onDrain: () => drained++,
    });
    expect(session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening })).toBe(true);
    await expect.poll(() => answered.includes(1), { timeout: 30_000 }).toBe(true);
    // Each said to be 400 bytes: the first two stay under the mark, the third crosses it (and is still started).
    expect(session.receive(slow(2, 0.3), 400)).toBe(true);
    expect(session.receive(slow(3, 0.3), 400)).toBe(true);
    expect(session.receive(slow(4, 0.3), 400)).toBe(true);
    expect(session.queuedBytes).toBe(1200);
    // Over the mark: held, unstarted; the host is still read, up to maxHeldBytes.
    expect(session.receive(slow(5, 0.3), 600)).toBe(true);
    expect(session.heldBytes).toBe(600);
    expect(session.receive({ jsonrpc: "2.0", id: 6, method: "ping" }, 500)).toBe(false);
    expect(session.heldBytes).toBe(1100);
    expect(drained).toBe(0);
    await expect.poll(() => drained, { timeout: 30_000 }).toBe(1);
    expect(session.heldBytes).toBeLessThanOrEqual(1000);
    await expect.poll(() => answered.length, { timeout: 30_000 }).toBe(6);
    // The held ones started in the order they came, after the calls ahead of them.
    expect(answered.indexOf(5)).toBeGreaterThan(answered.indexOf(2));
    expect(answered.indexOf(6)).toBeGreaterThan(answered.indexOf(3));
    expect(session.queuedBytes).toBe(0);
    expect(session.heldBytes).toBe(0);
    expect(pool.statuses()[0]!.hosts[0]).toMatchObject({
      queuedBytes: 0,
      peakQueuedBytes: 1500,
      heldBytes: 0,
      peakHeldBytes: 1100,
    });
    expect(drained).toBe(1);
  }, 60_000);

  it("over the mark a cancellation still arrives: a call the server never answers is cancelled and what was held behind it is served; a held request cancelled is never started nor answered", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000 });
    const answered: unknown[] = [];
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => {
        const id = (message as { id?: unknown }).id;
        if (id !== undefined) answered.push(id);
      },
    });
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening });
    await expect.poll(() => answered.includes(1), { timeout: 30_000 }).toBe(true);
    const cancel = (requestId: number): boolean =>
      session.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "gave up" } });
    // A call of 1200 bytes the server answers in 10 minutes: over the mark by itself.
    expect(session.receive(slow(2, 600), 1200)).toBe(true);
    expect(session.receive({ jsonrpc: "2.0", id: 3, method: "ping" }, 50)).toBe(true);
    expect(session.heldBytes).toBe(50);
    expect(cancel(2)).toBe(true);
    await expect.poll(() => answered.includes(3), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => session.queuedBytes, { timeout: 30_000 }).toBe(0);
    // Again, and this time a held ping is cancelled before it starts: never answered.
    session.receive(slow(4, 600), 1200);
    session.receive({ jsonrpc: "2.0", id: 5, method: "ping" }, 50);
    session.receive({ jsonrpc: "2.0", id: 6, method: "ping" }, 50);
    expect(cancel(5)).toBe(true);
    expect(session.heldBytes).toBe(50);
    cancel(4);
    await expect.poll(() => answered.includes(6), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => session.inFlight, { timeout: 30_000 }).toBe(0);
    expect(answered).not.toContain(2);
    expect(answered).not.toContain(4);
    expect(answered).not.toContain(5);
    expect(session.heldBytes).toBe(0);
    expect(session.queuedBytes).toBe(0);
  }, 60_000);

  it("while the host reads none of what it is sent (hostReads(false)), its requests are held, not started; once it reads, they start in order", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000 });
    const answered: unknown[] = [];
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => void answered.push((message as { id?: unknown }).id),
    });
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening });
    await expect.poll(() => answered.includes(1), { timeout: 30_000 }).toBe(true);
    session.hostReads(false);
    // Under the mark, yet held: the host would not read their answers.
    expect(session.receive({ jsonrpc: "2.0", id: 2, method: "ping" }, 50)).toBe(true);
    expect(session.receive({ jsonrpc: "2.0", id: 3, method: "ping" }, 50)).toBe(true);
    expect(session.heldBytes).toBe(100);
    expect(session.queuedBytes).toBe(0);
    // A held request cancelled meanwhile is dropped.
    session.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
    session.hostReads(true);
    await expect.poll(() => answered.includes(3), { timeout: 30_000 }).toBe(true);
    expect(answered).not.toContain(2);
    expect(session.heldBytes).toBe(0);
  }, 60_000);

  it("a flood of cancellations over the mark keeps nothing: the host is read on, nothing is held or sent for them", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000 });
    const sent: unknown[] = [];
    // Answers only (the server's own notifications reach every idle host).
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => void ((message as { id?: unknown }).id !== undefined && sent.push(message)),
    });
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening });
    await expect.poll(() => sent.length, { timeout: 30_000 }).toBe(1);
    session.receive(slow(2, 600), 1200);
    session.receive({ jsonrpc: "2.0", id: 3, method: "ping" }, 50);
    for (let i = 0; i < 100_000; i++) {
      // Cancellations of ids never sent, and of the held ping's id as a string (another id), over and over.
      const requestId = i % 2 === 0 ? 1_000_000 + i : "3";
      const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } };
      if (!session.receive(cancel, 80)) throw new Error(`cancellation ${i} stopped the reading`);
    }
    expect(session.heldBytes).toBe(50);
    expect(session.queuedBytes).toBe(1200);
    expect(sent).toHaveLength(1);
    expect(pool.statuses()[0]!.hosts[0]).toMatchObject({ peakHeldBytes: 50, peakQueuedBytes: 1200 });
  }, 60_000);

  it("over the mark with a server's question waiting for the host, the host's answer goes through: its requests are held, not its answers", async () => {
    pool = new ServerPool({ maxQueuedBytes: 1000, maxHeldBytes: 1000 });
    const asked: unknown[] = [];
    const answered: unknown[] = [];
    let drained = 0;
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => {
        const { id, method } = message as { id?: unknown; method?: unknown };
        if (method === "sampling/createMessage") asked.push(id);
        else if (method === undefined) answered.push(id);
      },
      onDrain: () => drained++,
    });
    const sampling = { ...opening, capabilities: { sampling: {} } };
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: sampling });
    session.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
    const sample = { name: "trigger-sampling-request", arguments: { prompt: "p" } };
    expect(session.receive({ jsonrpc: "2.0", id: 2, method: "tools/call", params: sample }, 100)).toBe(true);
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(1);
    // Calls that stay (60 s) while the question waits: 100 + 900 is at the mark, then over it; then held.
    expect(session.receive(slow(3, 60), 900)).toBe(true);
    expect(session.receive(slow(4, 60), 900)).toBe(true);
    expect(session.queuedBytes).toBe(1900);
    expect(session.receive(slow(5, 60), 900)).toBe(true);
    expect(session.heldBytes).toBe(900);
    // The host's answer to the server's question is taken at once: the sampling call ends.
    const result = { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" };
    expect(session.receive({ jsonrpc: "2.0", id: asked[0], result }, 100)).toBe(true);
    await expect.poll(() => answered.includes(2), { timeout: 30_000 }).toBe(true);
    // Still over the mark (1800 in service): 5 stays held; past maxHeldBytes the host is read no more.
    expect(session.heldBytes).toBe(900);
    expect(session.receive(slow(6, 60), 200)).toBe(false);
    expect(drained).toBe(0);
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

  it("a batch's bytes are shared among its requests in whole bytes: once all are answered, nothing is held (not -1.4e-14)", async () => {
    pool = new ServerPool();
    const answered = new Set<unknown>();
    const session = pool.attach({
      name: "everything",
      config: everything,
      send: (message) => void answered.add((message as { id?: unknown }).id),
    });

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
