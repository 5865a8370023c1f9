// Controlling this user's daemon from a command line: its state (running with its status; none;
// a stale socket; a socket that is not this user's) and stopping it, against a real daemon.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  daemonState,
  DaemonUntrusted,
  probeDaemon,
  startDaemon,
  stopDaemon,
  type RunningDaemon,
} from "../src/index.js";

let dir: string;
let socket: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-daemon-control-"));
  socket = join(dir, "run", "daemon.sock");
});

afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("daemonState and stopDaemon", () => {
  it("sees a running daemon's status, stops it (its socket no longer answers), then finds none", async () => {
    daemon = await startDaemon({ socket, home: join(dir, "home"), version: "9.9.9" });
    const state = await daemonState(socket);
    expect(state.running && state.status).toMatchObject({ pid: process.pid, version: "9.9.9", socket });
    expect(await stopDaemon(socket)).toBe(true);
    // It returns once the socket no longer answers.
    expect(await probeDaemon(socket)).not.toBe("live");
    await daemon.closed;
    expect(await daemonState(socket)).toEqual({ running: false, stale: false });
    expect(await stopDaemon(socket)).toBe(false);
  });

  it("says a socket nobody answers on is stale", async () => {
    mkdirSync(join(dir, "run"), { mode: 0o700 });
    // A socket file left by a process that was killed (nothing removed it).
    const child = spawn(process.execPath, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(socket)}, () => console.log("up"))`,
    ]);
    await new Promise((resolve) => child.stdout.once("data", resolve));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(await daemonState(socket)).toEqual({ running: false, stale: true });
  });

  it("sends nothing to a socket in a folder others may enter", async () => {
    mkdirSync(join(dir, "run"), { mode: 0o700 });
    daemon = await startDaemon({ socket, home: join(dir, "home"), version: "9.9.9" });
    chmodSync(join(dir, "run"), 0o777);
    const state = await daemonState(socket);
    expect(state.running).toBe(false);
    expect(!state.running && state.untrusted).toMatch(/^not using /);
    await expect(stopDaemon(socket)).rejects.toBeInstanceOf(DaemonUntrusted);
    chmodSync(join(dir, "run"), 0o700);
  });
});
