// `mcp daemon start | stop | status | run`, the pool's `mcp daemon stdio <server>` and `mcp ps`: the daemon's commands,
// their flags and help (each one's code loaded when it runs).
import type * as DaemonCommands from "./daemon/command.js";
import { lazy, type Call, type CommandSpec, type Flag } from "./command-spec.js";
import { collect, minutes, wholeNumber } from "./option-values.js";

const daemon = (): Promise<typeof DaemonCommands> => import("./daemon/command.js");

const DAEMON_HELP = `
Its socket is in a folder it makes with mode 700 (~/.cache/mcp-client/daemon/, else one in
$XDG_RUNTIME_DIR or the temp folder; MCP_DAEMON_SOCKET to choose). mcp call uses it only
when that folder and the socket are yours (checked before connecting); otherwise it says why and
starts the server itself. MCP_NO_DAEMON=1 never uses it. Servers are kept per resolved config:
a changed or unset \${VAR} behaves as without it. A call runs as this shell would run it: stdio
servers in this folder with this shell's PATH and proxy; when the daemon cannot (its own proxy,
CA or token folder differ, a headersHelper, MCP_REDIS_URL) mcp says why and runs the call itself.`;

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

/** The flags of `daemon start` and `daemon run`: the pool's, then the daemon's own. */
const START_FLAGS: Flag[] = [
  [
    "--pool-idle <minutes>",
    "stop a pooled server this long after its last host left (default 10; MCP_POOL_IDLE_MS)",
    minutes,
  ],
  [
    "--pool-max-calls <n>",
    "tool calls at once per pooled server, more wait (default 16; MCP_POOL_MAX_CALLS)",
    wholeNumber,
  ],
  [
    "--pool-max-rss <MB>",
    "stop a pooled server whose processes use more memory, telling its hosts (default none; MCP_POOL_MAX_RSS_MB)",
    wholeNumber,
  ],
  ["--idle <minutes>", "exit after this long without a request (default 60)", minutes],
  ["--server-idle <minutes>", "stop a server unused this long (default 10)", minutes],
  ["--keep-alive <names>", "never stop these servers for idleness (repeatable, or comma-separated)", collect],
];

const from: Flag = ["--from <host:scope>", "where the entry is"];

/** `mcp daemon …` and `mcp ps`. */
export const DAEMON_COMMANDS: CommandSpec[] = [
  {
    name: "daemon",
    description: "a background process that keeps servers running between commands (mcp call uses it when it runs)",
    help: DAEMON_HELP,
    subcommands: [
      {
        name: "start",
        description: "start the daemon for this user (a Unix socket in a folder only you can open)",
        flags: START_FLAGS,
        run: lazy(daemon, "daemonStart"),
      },
      {
        name: "stop",
        description: "stop the daemon and its servers",
        run: lazy(daemon, "daemonStop"),
      },
      {
        name: "status",
        description: "the daemon's servers, clients and uptime (exit 1 when none runs)",
        run: lazy(daemon, "daemonStatus"),
      },
      {
        name: "run",
        hidden: true,
        description: "run the daemon in this process",
        flags: START_FLAGS,
        run: lazy(daemon, "daemonRun"),
      },
      {
        name: "stdio <server> [command...]",
        description: "serve a configured stdio server to a host on stdin/stdout, shared through the daemon's pool",
        flags: [["--from <host:scope>", "where the entry is (written by mcp hosts pool; shown by mcp ps)"]],
        help: STDIO_HELP,
        // bin.ts runs `daemon stdio <server> …` straight away (daemon/shim-relay.ts); this is for the other forms.
        run: async (_: Call, server: string) => (await import("./daemon/shim-relay.js")).daemonStdio(server),
      },
      {
        name: "resolve <server> [command...]",
        hidden: true,
        description: "the server as this shell runs it and the daemon's socket, as JSON (what daemon stdio runs first)",
        flags: [from],
        run: async ({ globals, options }: Call<{ from?: string }>, server: string, command: string[]) =>
          (await import("./daemon/shim.js")).daemonResolve(globals, server, { command, from: options.from }),
      },
      {
        name: "ticket <server> [command...]",
        hidden: true,
        description: "what daemon resolve finds, then a one-time ticket for the light shim's loopback relay (mcp-shim)",
        flags: [from],
        run: async ({ globals, options }: Call<{ from?: string }>, server: string, command: string[]) =>
          (await import("./daemon/shim-ticket.js")).daemonTicket(globals, server, { command, from: options.from }),
      },
    ],
  },
  {
    name: "ps",
    description: "the servers the daemon's pool runs for hosts: pid, source, hosts attached, calls, memory, idle time",
    flags: [["--kill <server>", "stop a pooled server (its hosts are told why)"]],
    run: lazy(() => import("./daemon/ps.js"), "psCommand"),
  },
];
