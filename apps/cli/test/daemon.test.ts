// `mcp daemon`: a real daemon process on a real Unix socket, and the real CLI calling through it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bin, fixture, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

const socketOf = (box: Sandbox): string => join(box.home, ".cache", "mcp-client", "daemon", "daemon.sock");

async function daemonPid(box: Sandbox): Promise<number> {
  const status = await mcp(box, ["--json", "daemon", "status"]);
  expect(status.code).toBe(0);
  return (JSON.parse(status.stdout) as { pid: number }).pid;
}

describe.skipIf(process.platform === "win32")("mcp daemon", () => {
  let box: Sandbox;
  let marker: string;
  beforeEach(() => {
    box = sandbox();
    marker = join(box.home, "cancelled.txt");
    userConfig(box, { fixture: { command: process.execPath, args: [fixture], env: { CANCEL_MARKER: marker } } });
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("keeps a server warm across two CLI calls; without it each call starts the server anew", async () => {
    // Control: no daemon, two fresh processes.
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);

    const started = await mcp(box, ["daemon", "start"]);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain("mcp daemon started");
    const first = await mcp(box, ["call", "fixture.counter"]);
    const second = await mcp(box, ["call", "counter"]);
    expect(first.stdout).toMatch(/^call 1 in pid (\d+)/);
    expect(second.stdout).toMatch(/^call 2 in pid (\d+)/);
    expect(second.stdout.match(/pid (\d+)/)![1]).toBe(first.stdout.match(/pid (\d+)/)![1]);

    const status = await mcp(box, ["daemon", "status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/pid \d+, up \d+s, 0 client\(s\) now, 2 call\(s\) served/);
    expect(status.stdout).toMatch(/fixture\s+connected\s+\d+ tools/);
    // Only this user can reach it: the socket is 600, its folder 700.
    expect(statSync(socketOf(box)).mode & 0o777).toBe(0o600);
    expect(statSync(join(box.home, ".cache", "mcp-client", "daemon")).mode & 0o777).toBe(0o700);

    expect((await mcp(box, ["daemon", "stop"])).stdout).toContain("mcp daemon stopped");
    expect(existsSync(socketOf(box))).toBe(false);
    expect((await mcp(box, ["daemon", "status"])).code).toBe(1);
  }, 60_000);

  it("a killed daemon: the CLI says so and starts the server itself; status sees the stale socket; start replaces it", async () => {
    await mcp(box, ["daemon", "start"]);
    process.kill(await daemonPid(box), "SIGKILL");
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(socketOf(box))).toBe(true);

    const fallback = await mcp(box, ["call", "fixture.counter"]);
    expect(fallback.code).toBe(0);
    expect(fallback.stdout).toMatch(/^call 1 in pid/);
    expect(fallback.stderr).toMatch(/mcp daemon: the daemon is not answering on .*daemon\.sock \(ECONNREFUSED\); starting the server here instead/);

    const status = await mcp(box, ["daemon", "status"]);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain("stale socket");
    const restarted = await mcp(box, ["daemon", "start"]);
    expect(restarted.stderr).toContain("replacing a stale daemon socket");
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 2 in pid/);
  }, 60_000);

  it("Ctrl-C cancels the call in the daemon's server; progress comes through", async () => {
    await mcp(box, ["daemon", "start"]);
    const child = spawn(process.execPath, [bin, "call", "fixture.wait", "ms=20000"], { cwd: box.project, env: box.env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    // Progress from the daemon's server, printed by this CLI.
    await expect.poll(() => /progress \d+\/20000 step/.test(stderr), { timeout: 15_000 }).toBe(true);
    expect(existsSync(marker)).toBe(false);
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(130);
    await expect.poll(() => existsSync(marker) && readFileSync(marker, "utf8"), { timeout: 5_000 }).toBe("cancelled");
    // The daemon and its server are still there for the next call.
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
  }, 60_000);

  it("a daemon that dies during a call: the CLI does not run the call again", async () => {
    await mcp(box, ["daemon", "start"]);
    const pid = await daemonPid(box);
    const pending = mcp(box, ["call", "fixture.wait", "ms=20000"]);
    await expect.poll(async () => ((await mcp(box, ["--json", "daemon", "status"])).stdout.includes('"state": "connected"')), { timeout: 15_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    process.kill(pid, "SIGKILL");
    const run = await pending;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the mcp daemon went away while calling fixture.wait; it may have run, so it is not sent again");
    expect(run.stdout).toBe("");
  }, 60_000);
});
