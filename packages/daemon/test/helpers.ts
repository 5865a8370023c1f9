// What the in-process daemon suites share (daemon.test.ts, light-relay.test.ts): a temporary folder with
// the daemon's socket in it, the daemon closed and the folder removed after each test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, beforeEach } from "vitest";
import { startDaemon, type DaemonOptions, type RunningDaemon } from "../src/index.js";

/** server-everything over stdio. */
export const everything = { command: process.execPath, args: [everythingEntry, "stdio"] };

/** The current test's folder and socket, and its daemon once started. */
export interface DaemonSandbox {
  dir: string;
  socket: string;
  daemon: RunningDaemon | undefined;
  /** Starts the daemon on `socket` (home `<dir>/home`, version 9.9.9), with `options` on top. */
  start(options?: Partial<DaemonOptions>): Promise<RunningDaemon>;
}

/**
 * Each test of the calling suite gets a fresh folder (named from `prefix`) with the daemon's socket
 * in `run/`; with `startNow`, the daemon is started before the test. After it, the daemon is closed
 * and the folder removed.
 */
export function daemonSandbox(prefix: string, startNow = false): DaemonSandbox {
  const box: DaemonSandbox = {
    dir: "",
    socket: "",
    daemon: undefined,
    start: async (options = {}) =>
      (box.daemon = await startDaemon({
        socket: box.socket,
        home: join(box.dir, "home"),
        version: "9.9.9",
        ...options,
      })),
  };
  beforeEach(async () => {
    box.dir = mkdtempSync(join(tmpdir(), prefix));
    box.socket = join(box.dir, "run", "daemon.sock");
    if (startNow) await box.start();
  });
  afterEach(async () => {
    await box.daemon?.close();
    box.daemon = undefined;
    rmSync(box.dir, { recursive: true, force: true });
  });
  return box;
}
