// runDaemon: the daemon as a process of its own (what `mcp daemon run` is), stopped by a signal or a
// client's stop; once it closed, its SIGINT and SIGTERM listeners are gone. A real child process
// running the built package.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeDaemon, stopDaemon } from "../src/index.js";

const built = new URL("../dist/index.js", import.meta.url).href;
let dir: string;
let socket: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-run-daemon-"));
  socket = join(dir, "run", "daemon.sock");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A process that runs the daemon on `socket`, then prints how many signal listeners it has left. */
function daemonProcess() {
  const script = `const { runDaemon } = await import(${JSON.stringify(built)});
await runDaemon({ socket: ${JSON.stringify(socket)}, home: ${JSON.stringify(join(dir, "home"))}, version: "9.9.9" });
console.log(JSON.stringify({ listeners: process.listenerCount("SIGINT") + process.listenerCount("SIGTERM") }));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe("runDaemon", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`closes on ${signal}: the process ends by itself, its listeners taken off`, async () => {
      const daemon = daemonProcess();
      await expect.poll(() => probeDaemon(socket), { timeout: 30_000, interval: 100 }).toBe("live");
      daemon.child.kill(signal);
      expect(await daemon.exited, daemon.output().stderr).toEqual({ code: 0, signal: null });
      expect(JSON.parse(daemon.output().stdout)).toEqual({ listeners: 0 });
      expect(await probeDaemon(socket)).not.toBe("live");
    });
  }

  it("resolves when a client stops it", async () => {
    const daemon = daemonProcess();
    await expect.poll(() => probeDaemon(socket), { timeout: 30_000, interval: 100 }).toBe("live");
    expect(await stopDaemon(socket)).toBe(true);
    expect(await daemon.exited, daemon.output().stderr).toEqual({ code: 0, signal: null });
    expect(JSON.parse(daemon.output().stdout)).toEqual({ listeners: 0 });
  });
});
