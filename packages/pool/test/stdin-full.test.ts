// A dedicated server that stops reading its stdin while its host floods it with notifications: the
// pool stops reading that host (receive returns false) once the server's write queue is past half
// its bound (the transport's maxWriteQueueBytes, given in the server's config), holds no more than
// that, and reads the host again (onDrain) once the server reads. A real child process that really
// stops reading (fixtures/deaf-after-open.mjs).
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";

const deaf = fileURLToPath(new URL("./fixtures/deaf-after-open.mjs", import.meta.url));
const MB = 1024 * 1024;

let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe.skipIf(process.platform === "win32")("a dedicated server that does not read its stdin", () => {
  it("stops the pool reading its host past the write queue's bound, and lets it read again once the server reads", async () => {
    pool = new ServerPool({ approvals: () => ({ approved: true }) });
    const answered: unknown[] = [];
    const logs: unknown[] = [];
    let drained = 0;
    const session = pool.attach({
      name: "deaf",
      config: { command: process.execPath, args: [deaf], maxWriteQueueBytes: MB },
      send: (message) => {
        const { id, method, params } = message as { id?: unknown; method?: string; params?: { data?: unknown } };
        if (method === "notifications/message") logs.push(params?.data);
        else answered.push(id);
      },
      onDrain: () => drained++,
    });
    // Roots declared: a dedicated process, which hears its host's notifications.
    const opening = {
      protocolVersion: "2025-06-18",
      capabilities: { roots: {} },
      clientInfo: { name: "h", version: "1" },
    };
    session.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: opening });
    await expect.poll(() => answered.includes(1), { timeout: 30_000 }).toBe(true);
    session.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
    const pid = pool.statuses()[0]!.pid!;
    // The server says when it has stopped reading (its SIGUSR2 listener is there from its start).
    await expect.poll(() => logs, { timeout: 30_000 }).toContain("deaf");
    const note = { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { pad: "r".repeat(64 * 1024) } };
    // The host writes until told to stop: 64 MiB if never told.
    let sent = 0;
    while (sent < 1024 && session.receive(note)) sent++;
    expect(sent).toBeLessThan(1024);
    // Stopped past half the bound (plus the pipe the kernel holds, and one message).
    expect(sent * 64 * 1024).toBeLessThan(MB / 2 + 256 * 1024);
    expect(drained).toBe(0);
    process.kill(pid, "SIGUSR2");
    await expect.poll(() => drained, { timeout: 30_000 }).toBe(1);
    session.receive({ jsonrpc: "2.0", id: 2, method: "ping" });
    session.receive({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    await expect.poll(() => answered.includes(3), { timeout: 30_000 }).toBe(true);
    // Answered by the process that was flooded: it never exited nor was restarted meanwhile.
    expect(pool.statuses()[0]).toMatchObject({ pid, restarts: 0, state: "ready" });
  }, 60_000);
});
