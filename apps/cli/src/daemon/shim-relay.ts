// `mcp daemon stdio <server>`: the shim a host runs as a stdio server's command. A child process
// (`mcp daemon resolve`, shim.ts) finds the server and starts the daemon; this process, which stays
// with the host for its whole session, relays the host's lines to the server in the daemon's pool
// (@mcp/daemon/shim's relayStdio) until the host closes stdin. It loads nothing else, to stay small
// (see docs/benchmarks.md).

import { spawnSync } from "node:child_process";
import { relayStdio, type AttachParams } from "@mcp/daemon/shim";
import { CliError, EXIT } from "../ui.js";
import type { ShimResolved } from "./shim.js";

/** The server and the daemon's socket, from `mcp daemon resolve` run with this process's own words; its exit code when it failed (it said why on stderr). */
function resolveInChild(server: string): ShimResolved | number {
  const argv = process.argv.slice(2);
  const at = argv.findIndex((word, i) => word === "stdio" && argv[i - 1] === "daemon");
  if (at < 0) throw new CliError("mcp daemon stdio: cannot find its own words in the command line", EXIT.usage);
  argv[at] = "resolve";
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (child.status !== 0) return child.status ?? EXIT.failure;
  try {
    return JSON.parse(child.stdout) as ShimResolved;
  } catch {
    throw new CliError(`mcp daemon stdio ${server}: mcp daemon resolve printed no server`);
  }
}

/** `mcp daemon stdio <server>`: serves the host on stdin/stdout until it closes stdin. */
export async function daemonStdio(server: string): Promise<number> {
  // On Windows, `mcp daemon resolve` says why the pool cannot serve (resolveForShim).
  const resolved = resolveInChild(server);
  if (typeof resolved === "number") return resolved;
  const { socket, ...found } = resolved;
  const params: AttachParams = { server, ...found, shimPid: process.pid, parentPid: process.ppid };
  // A DaemonError ends the shim with its exit code (ui.ts failed).
  return relayStdio({ socket, params });
}
