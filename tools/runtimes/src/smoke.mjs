#!/usr/bin/env node
// The runtime smoke: run by Node 22 and 24, Bun and Deno (test/runtimes.test.ts). `@mcp/manager`
// with a stdio server (started with this runtime) and an HTTP server, a call to each, then the
// stdio server killed and a call after the reconnect. Prints one JSON line and must then exit by
// itself: a timer, socket or child left behind would keep it running.
//   <runtime> smoke.mjs <server-everything entry> <Streamable HTTP url>
import { MCPManager } from "@mcp/manager";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [entry, url] = process.argv.slice(2);
const out = { runtime: runtimeName() };

function runtimeName() {
  if (typeof globalThis.Bun !== "undefined") return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.Deno !== "undefined") return `deno ${globalThis.Deno.version.deno}`;
  return `node ${process.versions.node}`;
}

/** What the handle count can see here: a leak check that cannot see timers must say so, not pass. */
function handleCounter() {
  if (typeof process.getActiveResourcesInfo !== "function")
    return { visible: false, why: "process.getActiveResourcesInfo is missing" };
  const count = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
  const before = count();
  const timer = setTimeout(() => undefined, 60_000);
  const seen = count() > before;
  clearTimeout(timer);
  return seen
    ? {
        visible: true,
        count: () => process.getActiveResourcesInfo().length,
        names: () => process.getActiveResourcesInfo(),
      }
    : { visible: false, why: "process.getActiveResourcesInfo does not list a pending timer" };
}

const text = (result) => result.content.map((block) => block.text ?? "").join("");
const counter = handleCounter();
const baseline = counter.visible ? counter.count() : undefined;
const baseNames = counter.visible ? counter.names() : [];
const cacheDir = mkdtempSync(join(tmpdir(), "mcp-runtime-"));
const manager = new MCPManager({
  cacheDir,
  reconnect: { initialDelayMs: 50 },
  clientInfo: { name: "runtime-smoke", version: "1.0.0" },
});
try {
  const { errors } = await manager.connectServers({
    local: { command: process.execPath, args: [entry, "stdio"], timeout: 20_000 },
    remote: { type: "http", url, timeout: 20_000 },
  });
  out.errors = Object.fromEntries([...errors].map(([name, error]) => [name, String(error)]));
  const call = async (name) =>
    text(
      await manager
        .getTools()
        .find((tool) => tool.name === name)
        .call({ message: out.runtime }),
    );
  out.stdio = await call("mcp__local__echo");
  out.http = await call("mcp__remote__echo");

  const pid = manager.getConnection("local").transport.pid;
  process.kill(pid, "SIGKILL");
  const deadline = Date.now() + 15_000;
  while (
    manager.getConnection("local")?.transport.pid === pid ||
    manager.getConnectionStatus("local")?.state !== "connected"
  ) {
    if (Date.now() > deadline)
      throw new Error(`no reconnect within 15 s: ${JSON.stringify(manager.getConnectionStatus("local"))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  out.reconnected = manager.getConnection("local").transport.pid !== pid;
  out.afterReconnect = await call("mcp__local__echo");
} catch (error) {
  out.failed = String(error?.stack ?? error);
} finally {
  await manager.disconnectAll();
  rmSync(cacheDir, { recursive: true, force: true });
}
// A child's process handle closes a moment after its exit: give the count up to a second to settle.
for (let waited = 0; counter.visible && counter.count() > baseline && waited < 1000; waited += 20)
  await new Promise((resolve) => setTimeout(resolve, 20));
out.handles = counter.visible
  ? { visible: true, left: counter.names().filter((name) => !baseNames.includes(name)) }
  : counter;
console.log(JSON.stringify(out));
