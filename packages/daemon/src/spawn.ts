// A daemon process started in the background: detached from the caller (it outlives it), its output
// appended to a log file of mode 600, resolved once its socket answers. What `ensureDaemon`'s
// `start` does for a shim, and `mcp daemon start` for a person.

import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { probeDaemon } from "./request.js";
import { DaemonError } from "./errors.js";

/**
 * The Node flags the daemon's process is best started with (before its script): V8's optimizing
 * and baseline compilers off (`--no-opt --no-maglev --no-sparkplug`: JavaScript runs in the
 * interpreter, no machine code kept for it), which took the daemon's own VmRSS from 61 to 55 MB
 * idle and from 63 to 55 MB serving 50 light-shim sessions on 10 servers. The daemon relays lines and
 * parses JSON (done in C++ either way): no hot JavaScript loop the compilers would speed up.
 * Measured and left out: `--lite-mode` (50 MB, but it turns WebAssembly off, which Node's `fetch`
 * needs: the daemon died on its first HTTP call), `--optimize-for-size` (59 MB),
 * `--max-semi-space-size=1` and `--v8-pool-size=0` (within the noise); see docs/benchmarks.md.
 */
export const DAEMON_NODE_FLAGS: readonly string[] = ["--no-opt", "--no-maglev", "--no-sparkplug"];

/** Options of {@link spawnDaemon}. */
export interface SpawnDaemonOptions {
  /** The program and its arguments that run the daemon (e.g. `node mcp daemon run`: a script that calls `startDaemon`). */
  command: string;
  args?: string[] | undefined;
  /** The socket it will listen on: the process is ready once a daemon answers there. */
  socket: string;
  /** The file its stdout and stderr are appended to (made with mode 600, its folder 700). */
  logFile: string;
  env?: NodeJS.ProcessEnv | undefined;
  cwd?: string | undefined;
  /** How long it may take to answer (default 15 s). */
  timeoutMs?: number | undefined;
}

/**
 * Starts the daemon's process in the background and resolves with its pid once a daemon answers on
 * `socket`; a `DaemonError` naming the log file when it exits first or does not answer in time.
 */
export async function spawnDaemon(options: SpawnDaemonOptions): Promise<number | undefined> {
  mkdirSync(dirname(options.logFile), { recursive: true, mode: 0o700 });
  const log = openSync(options.logFile, "a", 0o600);
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args ?? [], {
      detached: true,
      stdio: ["ignore", log, log],
      cwd: options.cwd,
      env: options.env ?? process.env,
    });
  } finally {
    closeSync(log); // the child has its own
  }
  child.on("error", () => {});
  child.unref();
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if ((await probeDaemon(options.socket, 500)) === "live") return child.pid;
    if (child.exitCode !== null || child.signalCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new DaemonError(`the mcp daemon did not start; see ${options.logFile}`);
}
