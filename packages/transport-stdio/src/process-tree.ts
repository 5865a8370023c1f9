import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { treeKillCommand } from "./windows.js";

// The server's process tree: its process group (POSIX) or its tree (Windows: `taskkill /T /F`, as
// a `.cmd` shim runs the server under cmd.exe), how it is ended (stdin end, SIGTERM, SIGKILL, then
// whatever it left in its group), and the children killed with the host process.

// Children still alive when the host process exits are killed with it (their process group on POSIX).
const live = new Set<{ killNow(): void }>();
function killLiveChildren(): void {
  for (const transport of live) transport.killNow();
}

/**
 * Signals a server's process group (POSIX). On Windows, where no group or signal exists, any
 * signal ends the whole tree with `taskkill /T /F` (`run` starts it: in the background by default,
 * {@link runNow} in an `exit` handler), and 0 tests whether the process lives.
 */
export function signalGroup(
  pid: number,
  signal: NodeJS.Signals | 0,
  platform: NodeJS.Platform = process.platform,
  run: (file: string, args: string[]) => void = runInBackground,
): boolean {
  try {
    if (platform !== "win32") process.kill(-pid, signal);
    else if (signal === 0) process.kill(pid, 0);
    else {
      const { file, args } = treeKillCommand(pid);
      run(file, args);
    }
    return true;
  } catch {
    return false;
  }
}

function runInBackground(file: string, args: string[]): void {
  spawn(file, args, { stdio: "ignore", windowsHide: true }).on("error", () => undefined);
}

/** Runs a command to its end: for an `exit` handler, where nothing asynchronous runs any more. */
export function runNow(file: string, args: string[]): void {
  spawnSync(file, args, { stdio: "ignore", windowsHide: true, timeout: 5000 });
}

/** Polls until no process of the group is left, or `ms` passed; true when the group is gone. */
async function groupGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (signalGroup(pid, 0)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Registers a transport whose child must die with the host process. */
export function watchChild(transport: { killNow(): void }): void {
  live.add(transport);
  if (live.size === 1) process.on("exit", killLiveChildren);
}

/** Forgets a transport whose child is gone. */
export function forgetChild(transport: { killNow(): void }): void {
  if (live.delete(transport) && live.size === 0) process.off("exit", killLiveChildren);
}

/**
 * Ends a child's process tree: ends its stdin and waits `closeGraceMs` for it to exit, then
 * SIGTERM to its group and `killGraceMs`, then SIGKILL; then whatever it started in its group
 * (`sh -c`, `npx`) gets the same. `waitExit(ms)` resolves true once the child has exited.
 */
export async function endProcessTree(
  child: ChildProcess,
  waitExit: (ms: number) => Promise<boolean>,
  closeGraceMs: number,
  killGraceMs: number,
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  child.stdin?.end();
  let gone = await waitExit(closeGraceMs);
  if (!gone) {
    signalGroup(pid, "SIGTERM");
    gone = await waitExit(killGraceMs);
  }
  if (!gone) {
    signalGroup(pid, "SIGKILL");
    await waitExit(killGraceMs);
  }
  // The leader is gone; anything it started in its group (sh -c, npx) goes too.
  if (process.platform !== "win32" && signalGroup(pid, 0)) {
    signalGroup(pid, "SIGTERM");
    if (!(await groupGone(pid, killGraceMs))) signalGroup(pid, "SIGKILL");
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.stdin?.destroy();
}
