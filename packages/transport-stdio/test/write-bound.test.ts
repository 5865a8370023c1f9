// The write queue's bound (maxWriteQueueBytes) against a real child that stops reading its stdin
// (the fixture's --deaf: it reads nothing until SIGUSR2): what waits stays bounded, a writer that
// waits for `whenWritable` is let go once the child reads again, one that does not is refused with
// a typed error, and the transport works on afterwards.
import { afterEach, describe, expect, it } from "vitest";
import { InvalidConfigError } from "@mcp/jsonrpc";
import { StdioTransport, WriteQueueFullError, createStdioTransport } from "../src/index.js";
import { fixture } from "./helpers.js";

const open: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function deaf(maxWriteQueueBytes?: number): Promise<StdioTransport> {
  const transport = await createStdioTransport({
    command: process.execPath,
    args: [fixture("server.mjs"), "--deaf"],
    serverName: "deaf",
    ...(maxWriteQueueBytes === undefined ? {} : { maxWriteQueueBytes }),
  });
  open.push(transport);
  // Its SIGUSR2 handler is set once it said so.
  await expect.poll(() => transport.stderrTail, { timeout: 30_000 }).toContain("deaf");
  return transport;
}

const MB = 1024 * 1024;
const note = { pad: "n".repeat(64 * 1024) };

describe.skipIf(process.platform === "win32")("the write queue's bound (a server that stops reading stdin)", () => {
  it("a writer that waits for whenWritable never holds more than the bound, and is let go once the server reads", async () => {
    const transport = await deaf(MB);
    let sent = 0;
    let peak = 0;
    let waited = 0;
    // 8 MiB of notifications, written by a writer that waits whenever the transport says so.
    const writer = (async () => {
      for (; sent < 128; sent++) {
        while (!transport.writable) {
          waited++;
          await transport.whenWritable();
        }
        void transport.notify("notifications/flood", note);
        peak = Math.max(peak, transport.writeQueueBytes);
      }
    })();
    await expect.poll(() => waited, { timeout: 30_000 }).toBeGreaterThan(0);
    const stuckAt = sent;
    expect(stuckAt).toBeLessThan(128);
    // The child reads nothing: the writer stays waiting, and what waits stays at half the bound plus one message.
    expect(transport.writable).toBe(false);
    expect(transport.writeQueueBytes).toBeLessThanOrEqual(MB / 2 + 70_000);
    process.kill(transport.pid!, "SIGUSR2");
    await writer;
    expect(peak).toBeLessThanOrEqual(MB / 2 + 70_000);
    await expect(transport.request("echo", { after: true }, { timeout: 30_000 })).resolves.toEqual({
      echo: { after: true },
    });
  }, 60_000);

  it("a writer that does not wait is refused past the bound with a WriteQueueFullError (and nothing more is held); the transport works on", async () => {
    const transport = await deaf(MB);
    const errors: unknown[] = [];
    const accepted: Promise<void>[] = [];
    for (let i = 0; i < 64; i++) {
      // 4 MiB written at once, none waited for: today's unbounded queue would hold all of it.
      const sending = transport.notify("notifications/flood", note);
      accepted.push(sending.catch((error: unknown) => void errors.push(error)));
    }
    await Promise.resolve();
    expect(transport.writeQueueBytes).toBeLessThanOrEqual(MB + 70_000);
    await expect.poll(() => errors.length, { timeout: 30_000 }).toBeGreaterThan(40);
    const refusal = errors[0] as WriteQueueFullError;
    expect(refusal).toBeInstanceOf(WriteQueueFullError);
    expect(refusal.code).toBe("write_queue_full");
    expect(refusal.limit).toBe(MB);
    expect(refusal.message).toContain('MCP server "deaf" is not reading its stdin');
    expect(refusal.message).toContain("maxWriteQueueBytes");
    // A request refused so fails at once, with the same error.
    await expect(transport.request("echo", {})).rejects.toBeInstanceOf(WriteQueueFullError);
    process.kill(transport.pid!, "SIGUSR2");
    // What was accepted is written once the child reads; the transport is usable again.
    await Promise.all(accepted);
    await transport.whenWritable();
    await expect(transport.request("echo", { again: 1 }, { timeout: 30_000 })).resolves.toEqual({
      echo: { again: 1 },
    });
  }, 60_000);

  it("under the bound nothing changes: a burst bigger than the pipe is queued and written, as before", async () => {
    const transport = await deaf();
    // 2 MiB: past the pipe, far under the default 16 MiB bound.
    const sending = Array.from({ length: 32 }, () => transport.notify("notifications/flood", note));
    await Promise.resolve();
    expect(transport.writeQueueBytes).toBeGreaterThan(MB);
    expect(transport.writable).toBe(true);
    process.kill(transport.pid!, "SIGUSR2");
    await Promise.all(sending);
    await expect(transport.request("echo", { n: 1 }, { timeout: 30_000 })).resolves.toEqual({ echo: { n: 1 } });
  }, 60_000);

  it("a wait for whenWritable that is aborted rejects with the signal's reason", async () => {
    const transport = await deaf(MB);
    while (transport.writable) void transport.notify("notifications/flood", note);
    const controller = new AbortController();
    const waiting = transport.whenWritable(controller.signal);
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    await expect(transport.whenWritable(controller.signal)).rejects.toThrow("gave up");
  }, 60_000);

  it("maxWriteQueueBytes must be a positive number (or Infinity)", () => {
    for (const bad of [0, -1, Number.NaN, "1" as unknown as number])
      expect(() => new StdioTransport({ command: process.execPath, maxWriteQueueBytes: bad })).toThrow(
        InvalidConfigError,
      );
    expect(() => new StdioTransport({ command: process.execPath, maxWriteQueueBytes: Infinity })).not.toThrow();
  });
});
