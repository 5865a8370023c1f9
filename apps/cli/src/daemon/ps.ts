// `mcp ps`: the servers the daemon's pool runs for hosts (`mcp daemon stdio`), each with its pid,
// configuration source, attached hosts (shim pid, its parent), calls, memory, CPU time and idle time;
// `--kill <server>` ends one.

import { hostLabel, killPooled, readPoolStatus } from "@mcp/daemon/client";
import type { GlobalOptions } from "../session.js";
import { grid } from "../table.js";
import { CliError, color, EXIT, note, out, plural, printJson } from "../ui.js";
import { daemonSocket, duration } from "./command.js";

function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? "" : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `mcp ps [--kill <server>]`. */
export async function psCommand(globals: GlobalOptions, options: { kill?: string | undefined }): Promise<number> {
  const socket = daemonSocket();
  if (options.kill !== undefined) {
    const kill = await killPooled(socket, options.kill);
    if (!kill.running) throw new CliError(`no mcp daemon is running (${kill.why}): nothing is pooled`, EXIT.failure);
    const { killed } = kill;
    if (killed === 0) throw new CliError(`no pooled server named "${options.kill}" (see: mcp ps)`, EXIT.usage);
    if (globals.json) printJson({ killed });
    else out(`stopped ${plural(killed, "process", "processes")} of ${options.kill}`);
    return EXIT.ok;
  }
  const reading = await readPoolStatus(socket);
  if (!reading.running) {
    if (globals.json) printJson({ running: false, servers: [] });
    else note(`no mcp daemon is running: nothing is pooled (${reading.why})`);
    return EXIT.ok;
  }
  const { status } = reading;
  if (globals.json) {
    printJson({ running: true, ...status });
    return EXIT.ok;
  }
  if (status.servers.length === 0) {
    out(color.dim("no pooled servers (a host starts one through: mcp daemon stdio <server>)"));
    return EXIT.ok;
  }
  const rows = status.servers.map((s) => [
    s.name,
    s.pid === undefined ? "" : String(s.pid),
    s.state,
    s.sharing,
    String(s.hosts.length),
    String(s.calls),
    megabytes(s.rssBytes),
    s.cpuSeconds === undefined ? "" : `${s.cpuSeconds.toFixed(1)}s`,
    duration(s.idleMs),
    s.source ?? "",
  ]);
  const titles = ["PID", "STATE", "SHARING", "HOSTS", "CALLS", "RSS", "CPU", "IDLE", "SOURCE"];
  out(grid([{ title: "SERVER", cut: "never" }, ...titles.map((title) => ({ title }))], rows));
  for (const s of status.servers)
    for (const host of s.hosts) out(color.dim(`  ${s.name}: ${hostLabel(host)}, ${plural(host.calls, "call")}`));
  out(
    color.dim(
      `a server with no host is stopped after ${duration(status.idleMs)}; at most ${status.maxConcurrentCalls} tool calls at once per server${status.maxRssBytes ? `, and ${megabytes(status.maxRssBytes)} of memory` : ""}`,
    ),
  );
  return EXIT.ok;
}
