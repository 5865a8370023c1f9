// `mcp daemon start | stop | status | run`: the daemon's commands, their flags and help, with the pool's commands added
// beside them (each one's code loaded when it runs).
import type { Command } from "commander";
import type * as DaemonCommands from "./daemon/command.js";
import type { DaemonStartOptions } from "./daemon/command.js";
import { collect, minutes } from "./option-values.js";
import { addPoolCommands, poolStartOptions } from "./pool-program.js";
import type { GlobalOptions } from "./session.js";

const daemonCommands = (): Promise<typeof DaemonCommands> => import("./daemon/command.js");

/** `mcp daemon …`, and the pool's `mcp daemon stdio` and `mcp ps`. */
export function addDaemonCommands(program: Command, run: (task: () => Promise<number>) => void): void {
  const globals = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();

  const daemon = program
    .command("daemon")
    .description("a background process that keeps servers running between commands (mcp call uses it when it runs)")
    .addHelpText(
      "after",
      `
Its socket is in a folder it makes with mode 700 (~/.cache/mcp-client/daemon/, else one in
$XDG_RUNTIME_DIR or the temp folder; MCP_DAEMON_SOCKET to choose). mcp call uses it only
when that folder and the socket are yours (checked before connecting); otherwise it says why and
starts the server itself. MCP_NO_DAEMON=1 never uses it. Servers are kept per resolved config:
a changed or unset \${VAR} behaves as without it. A call runs as this shell would run it: stdio
servers in this folder with this shell's PATH and proxy; when the daemon cannot (its own proxy,
CA or token folder differ, a headersHelper, MCP_REDIS_URL) mcp says why and runs the call itself.`,
    );
  const startOptions = (command: Command): Command =>
    poolStartOptions(command)
      .option("--idle <minutes>", "exit after this long without a request (default 60)", minutes)
      .option("--server-idle <minutes>", "stop a server unused this long (default 10)", minutes)
      .option(
        "--keep-alive <names>",
        "never stop these servers for idleness (repeatable, or comma-separated)",
        collect,
      );
  startOptions(
    daemon.command("start").description("start the daemon for this user (a Unix socket in a folder only you can open)"),
  ).action((options: DaemonStartOptions, command: Command) =>
    run(async () => (await daemonCommands()).daemonStart(globals(command), options)),
  );
  daemon
    .command("stop")
    .description("stop the daemon and its servers")
    .action((_options: unknown, command: Command) =>
      run(async () => (await daemonCommands()).daemonStop(globals(command))),
    );
  daemon
    .command("status")
    .description("the daemon's servers, clients and uptime (exit 1 when none runs)")
    .action((_options: unknown, command: Command) =>
      run(async () => (await daemonCommands()).daemonStatus(globals(command))),
    );
  startOptions(daemon.command("run", { hidden: true }).description("run the daemon in this process")).action(
    (options: DaemonStartOptions) => run(async () => (await daemonCommands()).daemonRun(options)),
  );
  addPoolCommands(program, daemon, run);
}
