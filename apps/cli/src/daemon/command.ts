// `mcp daemon start | stop | status` (and the hidden `run`, which is the daemon itself).

import { homedir } from "node:os";
import { join } from "node:path";
import { defaultCacheDir, failureCause, stderrBlock } from "@mcp/manager/config";
import {
  claimSocketFolder,
  DAEMON_NODE_FLAGS,
  daemonSocketPath,
  daemonState,
  DaemonUntrusted,
  daemonRunArgs,
  daemonRunOptions,
  probeDaemon as probe,
  spawnDaemon as startProcess,
  stopDaemon,
  type DaemonRunFlags,
} from "@mcp/daemon/client";
import type { GlobalOptions } from "../session.js";
import { CLI_VERSION } from "../version.js";
import { grid } from "../table.js";
import { color, EXIT, note, out, plural, printJson, warn } from "../ui.js";

// The daemon's errors (DaemonError) end the command with their exit code, as a CliError does (ui.ts failed).

const home = (): string => process.env["HOME"] ?? homedir();
const cacheDir = (): string => defaultCacheDir(process.env, process.platform, home());

/** This user's daemon socket. */
export const daemonSocket = (): string => daemonSocketPath(cacheDir());

/** This user's daemon socket, its folder made (or checked to be ours alone) first. */
export const claimDaemonSocket = (): string => claimSocketFolder(cacheDir(), daemonSocket(), note);

/** A time span for a person: `42s`, `3m 5s`, `2h 10m`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m ${s % 60}s`
      : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The hidden `daemon run`: the daemon in this process, until it closes or a signal stops it. */
export async function daemonRun(_globals: GlobalOptions, options: DaemonRunFlags): Promise<number> {
  const settings = daemonRunOptions(options);
  // The daemon's own code (the pool, the managers) only in the daemon's process.
  const [{ lazyCallHandler, runDaemon }, { approveCommandFor }] = await Promise.all([
    import("@mcp/daemon"),
    import("../approvals.js"),
  ]);
  await runDaemon({
    socket: claimDaemonSocket(),
    home: home(),
    version: CLI_VERSION,
    howToApprove: (server) => approveCommandFor([server.name]),
    // `mcp call`'s code (and with it the whole manager) is loaded with the first call, not before.
    call: lazyCallHandler(async () => (await import("./call-handler.js")).callHandler),
    ...settings,
  });
  return EXIT.ok;
}

/** `daemon start`: starts the daemon in the background and waits until it answers. */
export async function daemonStart(globals: GlobalOptions, options: DaemonRunFlags): Promise<number> {
  // Its folder is made (or found to be ours alone) before anything connects to a socket in it.
  const socket = claimDaemonSocket();
  const state = await probe(socket);
  if (state === "live") {
    note(`an mcp daemon is already running on ${socket}`);
    return EXIT.ok;
  }
  if (state === "stale") note(`replacing a stale daemon socket (its daemon is gone): ${socket}`);
  const pid = await spawnDaemon(socket, options);
  if (globals.json) printJson({ pid, socket });
  else out(`mcp daemon started (pid ${pid}) on ${socket}`);
  return EXIT.ok;
}

/** Starts the daemon in the background on `socket` and resolves with its pid once it answers there. */
export function spawnDaemon(
  socket: string,
  options: DaemonRunFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number | undefined> {
  // The daemon with V8's compilers off (DAEMON_NODE_FLAGS: 6 to 8 MB less, measured).
  const args = [...DAEMON_NODE_FLAGS, process.argv[1]!, "daemon", "run", ...daemonRunArgs(options)];
  const logFile = join(cacheDir(), "daemon.log");
  return startProcess({ command: process.execPath, args, socket, logFile, env, cwd: home() });
}

/** `daemon status`: servers, clients and uptime of the running daemon. */
export async function daemonStatus(globals: GlobalOptions): Promise<number> {
  const socket = daemonSocket();
  const state = await daemonState(socket);
  if (!state.running) {
    if (state.untrusted !== undefined) {
      if (globals.json) printJson({ running: false, untrusted: state.untrusted, socket });
      else warn(state.untrusted);
    } else if (globals.json) printJson({ running: false, stale: state.stale, socket });
    else
      note(
        state.stale
          ? `no mcp daemon is running (a stale socket is left at ${socket}; "mcp daemon start" replaces it)`
          : "no mcp daemon is running",
      );
    return EXIT.failure;
  }
  const { status } = state;
  if (globals.json) {
    printJson({ running: true, ...status });
    return EXIT.ok;
  }
  out(
    `mcp daemon ${status.version}, pid ${status.pid}, up ${duration(status.uptimeMs)}, idle ${duration(status.idleMs)}, ${plural(status.clients, "client")} now, ${plural(status.calls, "call")} served`,
  );
  out(color.dim(`socket ${status.socket}; exits after ${duration(status.idleLimitMs)} without a call`));
  if (status.servers.length === 0) {
    out(color.dim("no servers yet (each starts on its first call)"));
    return EXIT.ok;
  }
  // Aligned like `servers`; a failure in words under the table, its stderr once.
  const rows = status.servers.map((s) => [
    s.name,
    s.state,
    s.tools === null ? "" : String(s.tools),
    s.idleForMs === null ? "" : `${duration(s.idleForMs)} ago`,
    s.keepAlive ? "keep-alive" : "",
  ]);
  out(
    `\n${grid([{ title: "SERVER", cut: "never" }, { title: "STATE", paint: (cell) => (cell === "failed" ? color.red(cell) : cell === "connected" ? color.green(cell) : cell) }, { title: "TOOLS" }, { title: "LAST USED" }, { title: "" }], rows)}`,
  );
  const failed = status.servers.filter((s) => s.lastError !== null);
  for (const s of failed)
    out(
      `${failed[0] === s ? "\n" : ""}${color.bold(s.name)}: ${failureCause({ lastError: s.lastError ?? undefined, stderrTail: s.stderrTail ?? undefined })}${stderrBlock(s.stderrTail ?? undefined)}`,
    );
  return EXIT.ok;
}

/** `daemon stop`. */
export async function daemonStop(globals: GlobalOptions): Promise<number> {
  let stopped: boolean;
  try {
    stopped = await stopDaemon(daemonSocket());
  } catch (error) {
    if (!(error instanceof DaemonUntrusted)) throw error;
    warn(error.message);
    return EXIT.failure;
  }
  if (!stopped) note("no mcp daemon is running");
  else if (!globals.json) out("mcp daemon stopped");
  return EXIT.ok;
}
