// Starting the server's process: its environment, its command as the platform runs it (Windows:
// PATHEXT, `.cmd` shims through cmd.exe), its own process group, and the wait for it to start.
import { spawn, type ChildProcess } from "node:child_process";
import { toError } from "@mcp/jsonrpc";
import type { StdioTransportConfig } from "./config.js";
import { buildChildEnv } from "./env.js";
import { SpawnError } from "./spawn-error.js";
import { spawnTarget, type WindowsSpawn } from "./windows.js";

/**
 * Spawns the config's command with stdin and stdout piped and stderr as configured, in a process
 * group of its own (so closing can end the whole tree: npx, sh -c, uvx …). A command the platform
 * cannot run as given throws a {@link SpawnError} with code `EINVAL`; a missing one is reported
 * by {@link started}.
 */
export function spawnServer(config: StdioTransportConfig): ChildProcess {
  const { command, args = [], cwd, stderr = "pipe" } = config;
  const env = buildChildEnv(config.env, config.inheritEnv === true, config.parentEnv ?? process.env);
  let target: WindowsSpawn;
  try {
    target = spawnTarget(command, args, env, process.platform, undefined, cwd);
  } catch (error) {
    throw new SpawnError(command, Object.assign(toError(error), { code: "EINVAL" }), config.serverName);
  }
  return spawn(target.file, target.args, {
    cwd,
    env,
    windowsVerbatimArguments: target.windowsVerbatimArguments,
    stdio: ["pipe", "pipe", stderr],
    detached: process.platform !== "win32",
    windowsHide: true,
    shell: false,
  });
}

/** Resolves once `child` has started; rejects with a {@link SpawnError} saying why it could not. */
export function started(child: ChildProcess, config: StdioTransportConfig): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onSpawn = (): void => {
      child.off("error", onError);
      resolve();
    };
    const onError = (error: NodeJS.ErrnoException): void => {
      child.off("spawn", onSpawn);
      reject(new SpawnError(config.command, error, config.serverName));
    };
    child.once("spawn", onSpawn);
    child.once("error", onError);
  });
}
