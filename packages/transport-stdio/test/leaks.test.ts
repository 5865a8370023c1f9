// Its own file, so the worker starts clean and a leak cannot hide behind another test's handles.
import { describe, expect, it } from "vitest";
import { createStdioTransport } from "../src/index.js";
import { activeHandles, isAlive } from "mcp-test-utils";
import { fixture } from "./helpers.js";

describe("resources after close()", () => {
  it("leaves no timer, pipe, child process or exit listener behind", async () => {
    const before = activeHandles();
    const exitListeners = process.listenerCount("exit");
    const transport = await createStdioTransport({ command: process.execPath, args: [fixture("server.mjs")] });
    const pid = transport.pid!;
    await transport.request("echo");
    const hanging = transport.request("hang", {}, { timeout: 60_000 }).catch((e: unknown) => e);
    expect(activeHandles()["ProcessWrap"] ?? 0).toBe((before["ProcessWrap"] ?? 0) + 1);
    await transport.close();
    await expect(hanging).resolves.toMatchObject({ message: "Transport closed" });
    // Closed pipes leave the handle list a tick or so later (the poll's own timer is gone by the check below).
    await expect
      .poll(() => (activeHandles()["PipeWrap"] ?? 0) + (activeHandles()["ProcessWrap"] ?? 0))
      .toBeLessThanOrEqual((before["PipeWrap"] ?? 0) + (before["ProcessWrap"] ?? 0));
    const after = activeHandles();
    for (const kind of ["Timeout", "PipeWrap", "ProcessWrap"])
      expect(after[kind] ?? 0, kind).toBeLessThanOrEqual(before[kind] ?? 0);
    expect(process.listenerCount("exit")).toBe(exitListeners);
    expect(isAlive(pid)).toBe(false);
  });
});
