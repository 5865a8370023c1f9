// Whether `mcp hosts pool` may write the light shim (`mcp-shim`, apps/cli/shim/mcp-shim) for this user: not
// on Windows, `mcp-shim` found on PATH as the host will look for it, and this machine's bash able to
// open /dev/tcp (some builds leave it out) to a loopback listener of ours. Otherwise pool writes `mcp`.

import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { LIGHT_SHIM_COMMAND } from "@mcp/manager/config";

function onPath(name: string, path: string | undefined): boolean {
  return (path ?? "").split(delimiter).some((dir) => {
    if (dir === "") return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether bash opens /dev/tcp to 127.0.0.1 here (a listener of this process's, closed after). */
async function bashHasDevTcp(env: NodeJS.ProcessEnv): Promise<boolean> {
  const server = createServer((socket) => socket.destroy());
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: "127.0.0.1", port: 0 }, () => resolve((server.address() as { port: number }).port));
    });
    return await new Promise<boolean>((resolve) => {
      const child = spawn("bash", ["-c", 'exec 3<>"/dev/tcp/127.0.0.1/$1"', "mcp-light-check", String(port)], {
        stdio: "ignore",
        env,
      });
      child.once("error", () => resolve(false));
      child.once("exit", (code) => resolve(code === 0));
    });
  } catch {
    return false;
  } finally {
    server.close();
  }
}

/** `mcp-shim` when the light shim works for this user (see the file's head); undefined when `mcp` must be written. */
export async function lightShimHere(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (process.platform === "win32" || !onPath(LIGHT_SHIM_COMMAND, env["PATH"])) return undefined;
  return (await bashHasDevTcp(env)) ? LIGHT_SHIM_COMMAND : undefined;
}
