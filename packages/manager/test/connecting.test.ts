// watchConnecting against real stdio servers: what a host shows while they start ("1 of 2 ready;
// waiting for b"), each status change heard, a failed one counted, and the watch stopped.
import { fileURLToPath } from "node:url";
import type { MCPServerConfig } from "@mcp/client";
import { afterEach, describe, expect, it } from "vitest";
import { MCPManager, MemoryPinStore, watchConnecting, type ConnectingProgress } from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const good: MCPServerConfig = { command: process.execPath, args: [fixture], timeout: 15_000 };
const bad: MCPServerConfig = { command: process.execPath, args: [fixture, "--crash"], timeout: 15_000 };
const managers: MCPManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
});

describe("watchConnecting", () => {
  it("counts every server seen starting: ready, failed, and the names still awaited", async () => {
    const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false });
    managers.push(manager);
    const heard: ConnectingProgress[] = [];
    const watch = watchConnecting(manager, (p) => heard.push(p));
    await manager.connectServers({ a: good, b: bad, c: good });
    expect(watch.progress()).toEqual({ ready: 2, failed: 1, total: 3, waiting: [] });
    // While they started, some change found them waiting, in the order they were seen.
    expect(heard.some((p) => p.waiting.length > 0)).toBe(true);
    expect(heard.at(-1)).toEqual({ ready: 2, failed: 1, total: 3, waiting: [] });
    const count = heard.length;
    watch.stop();
    await manager.disconnectAll();
    expect(heard.length).toBe(count);
  });

  it("a server reconnecting counts again as awaited", async () => {
    const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false });
    managers.push(manager);
    await manager.connectServers({ a: good });
    // Seen when the watch looks: a server waiting already, with no event yet.
    const watch = watchConnecting(manager);
    expect(watch.progress()).toEqual({ ready: 0, failed: 0, total: 0, waiting: [] });
    const reconnecting = new Promise<ConnectingProgress>((resolve) => {
      const inner = watchConnecting(manager, (p) => {
        if (p.waiting.length > 0) {
          inner.stop();
          resolve(p);
        }
      });
    });
    const again = manager.reconnectServer("a");
    expect(await reconnecting).toEqual({ ready: 0, failed: 0, total: 1, waiting: ["a"] });
    await again;
    expect(watch.progress()).toEqual({ ready: 1, failed: 0, total: 1, waiting: [] });
    watch.stop();
  });
});
