// Reaching the user's daemon, started if none runs: processes that find none at once start one
// between them; a daemon process that exits before it answers is a DaemonError naming its log.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  claimSocketFolder,
  DaemonError,
  daemonRequest,
  ensureDaemon,
  spawnDaemon,
  startDaemon,
  type DaemonStatus,
  type RunningDaemon,
} from "../src/index.js";

let dir: string;
let socket: string;
const daemons: RunningDaemon[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-daemon-ensure-"));
  socket = claimSocketFolder(join(dir, "cache"), join(dir, "run", "daemon.sock"));
});

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((daemon) => daemon.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("ensureDaemon", () => {
  it("five callers that find no daemon at once start one between them, and each gets its socket", async () => {
    let starts = 0;
    const start = async (): Promise<void> => {
      starts += 1;
      daemons.push(await startDaemon({ socket, home: join(dir, "home") }));
    };
    const sockets = await Promise.all(Array.from({ length: 5 }, () => ensureDaemon(socket, { start })));
    expect(sockets).toEqual(Array.from({ length: 5 }, () => socket));
    expect(starts).toBe(1);
    expect(((await daemonRequest(socket, "status", {})) as DaemonStatus).pid).toBe(process.pid);
    // The start lock is gone once the daemon answers.
    expect(existsSync(join(dir, "run", "start.lock"))).toBe(false);
    // A daemon that runs already is not started again.
    await ensureDaemon(socket, { start });
    expect(starts).toBe(1);
  });

  it("a start that returns before its daemon answers is waited for, not repeated by the next caller", async () => {
    let starts = 0;
    let up: Promise<void> | undefined;
    const start = async (): Promise<void> => {
      starts += 1;
      // As a process started in the background: it answers a little later.
      up = new Promise<void>((resolve) => setTimeout(resolve, 200)).then(async () => {
        daemons.push(await startDaemon({ socket, home: join(dir, "home") }));
      });
    };
    const sockets = await Promise.all(Array.from({ length: 3 }, () => ensureDaemon(socket, { start })));
    await up;
    expect(sockets).toEqual([socket, socket, socket]);
    expect(starts).toBe(1);
  });

  it("a daemon that never answers: a DaemonError once the time is up", async () => {
    await expect(ensureDaemon(socket, { start: async () => {}, timeoutMs: 300 })).rejects.toThrow(
      new DaemonError(`the mcp daemon did not start on ${socket}`),
    );
  });
});

describe("spawnDaemon", () => {
  it("a process that exits before it answers: a DaemonError naming the log, which has its output (mode 600)", async () => {
    const logFile = join(dir, "cache", "daemon.log");
    await expect(
      spawnDaemon({
        command: process.execPath,
        args: ["-e", "console.error('no daemon here'); process.exit(3)"],
        socket,
        logFile,
      }),
    ).rejects.toThrow(new DaemonError(`the mcp daemon did not start; see ${logFile}`));
    expect(readFileSync(logFile, "utf8")).toContain("no daemon here");
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
  });
});
