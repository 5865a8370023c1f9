// `mcp daemon stdio <server>` and `mcp ps`: the commands of the server pool, their flags and help
// (each one's code loaded when it runs).
import type { Command } from "commander";
import { minutes, wholeNumber } from "./option-values.js";
import type { GlobalOptions } from "./session.js";

const STDIO_HELP = `
A host (Claude Code, Cursor, VS Code, Codex, …) runs this as a stdio server's command, in place of
the server's own: "command": "mcp", "args": ["daemon", "stdio", "<server>"] (mcp hosts pool writes
"daemon", "stdio", "<server>", "--from", "<host>:<scope>", "--", <its command and args>). The server is found as
mcp call finds it (every host's files and mcp-client.json; --config <file> for that file alone) and
runs in this user's daemon (started if none runs), once per resolved configuration (command,
arguments, folder, environment) for every host that uses it. A project server is served only once
approved (mcp config approve). A host that declares roots, sampling or elicitation gets a process
of its own (see docs/daemon-pool.md). The shim exits when the host closes its stdin.
Unix only: Windows named pipes are not supported for the pool.`;

/** The daemon's pool flags (`daemon start` and `daemon run`). */
export function poolStartOptions(command: Command): Command {
  return command
    .option(
      "--pool-idle <minutes>",
      "stop a pooled server this long after its last host left (default 10; MCP_POOL_IDLE_MS)",
      minutes,
    )
    .option(
      "--pool-max-calls <n>",
      "tool calls at once per pooled server, more wait (default 16; MCP_POOL_MAX_CALLS)",
      wholeNumber,
    )
    .option(
      "--pool-max-rss <MB>",
      "stop a pooled server whose processes use more memory, telling its hosts (default none; MCP_POOL_MAX_RSS_MB)",
      wholeNumber,
    );
}

/** `mcp daemon stdio <server>` (under `daemon`) and `mcp ps`. */
export function addPoolCommands(program: Command, daemon: Command, run: (task: () => Promise<number>) => void): void {
  const globals = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();
  daemon
    .command("stdio <server> [command...]")
    .description("serve a configured stdio server to a host on stdin/stdout, shared through the daemon's pool")
    .option("--from <host:scope>", "where the entry is (written by mcp hosts pool; shown by mcp ps)")
    .addHelpText("after", STDIO_HELP)
    // bin.ts runs `daemon stdio <server> …` straight away (daemon/shim-relay.ts); this is for the other forms.
    .action((server: string) => run(async () => (await import("./daemon/shim-relay.js")).daemonStdio(server)));
  daemon
    .command("resolve <server> [command...]", { hidden: true })
    .description("the server as this shell runs it and the daemon's socket, as JSON (what daemon stdio runs first)")
    .option("--from <host:scope>", "where the entry is")
    .action((server: string, command: string[], options: { from?: string }, cmd: Command) =>
      run(async () =>
        (await import("./daemon/shim.js")).daemonResolve(globals(cmd), server, { command, from: options.from }),
      ),
    );
  daemon
    .command("ticket <server> [command...]", { hidden: true })
    .description("what daemon resolve finds, then a one-time ticket for the light shim's loopback relay (mcp-shim)")
    .option("--from <host:scope>", "where the entry is")
    .action((server: string, command: string[], options: { from?: string }, cmd: Command) =>
      run(async () =>
        (await import("./daemon/shim-ticket.js")).daemonTicket(globals(cmd), server, { command, from: options.from }),
      ),
    );
  program
    .command("ps")
    .description("the servers the daemon's pool runs for hosts: pid, source, hosts attached, calls, memory, idle time")
    .option("--kill <server>", "stop a pooled server (its hosts are told why)")
    .action((options: { kill?: string }, command: Command) =>
      run(async () => (await import("./daemon/ps.js")).psCommand(globals(command), options)),
    );
}
