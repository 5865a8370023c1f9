// The commands and flags (commander); each command's code is imported only when it runs, so the entry stays small.
import { Command, Option } from "commander";
import { addCommands, addFlags, lazy, type CommandSpec, type Flag } from "./command-spec.js";
import { fitHelp, helpWidth } from "./help-text.js";
import { CONFIG_COMMANDS, HOSTS_COMMAND, REGISTRY_COMMAND } from "./config-program.js";
import { DAEMON_COMMANDS } from "./daemon-program.js";
import { SERVE_COMMANDS, serveModes } from "./serve-program.js";
import { collect, portNumber, positiveInt, repeat } from "./option-values.js";
import { EXIT, failed } from "./ui.js";
import { CLI_VERSION, LOG_LEVELS } from "./version.js";

// Each command's code is loaded when that command runs (the imports in the handlers below): the
// entry is commander and these few small modules, so `mcp --version` or `mcp config list` never
// loads the gateway, the inspector or the daemon, and `mcp call` loads only what a call needs.

const EXAMPLES = `
Examples:
  mcp servers                                  every configured server, its status and tools
  mcp tools everything                         tools of one server, with their arguments
  mcp call everything.get-sum a=2 b=3          call a tool as server.tool (or mcp__server__tool, or server tool):
                                               only that server starts
  mcp call echo message="hello"                a bare tool name: the tool cache finds its server
  mcp call get-sum '{"a": 2, "b": 3}'          or pass the arguments as one JSON object

  mcp call trigger-long-running-operation duration=3 steps=5     live progress; Ctrl-C cancels
  mcp --stdio "npx -y @modelcontextprotocol/server-everything" tools   a server with no config at all
  mcp --http http://127.0.0.1:3001/mcp ping    an HTTP server (--sse for HTTP+SSE); only that server, no config read
  mcp --http http://127.0.0.1:8765/mcp --header "Authorization=Bearer $TOKEN" tools   with a header (repeatable)
  mcp config add docs --http https://example.com/mcp --header 'Authorization=Bearer \${TOKEN}'
                                               single quotes: the file gets \${TOKEN}, read from the
                                               environment at each run, never the token itself
  mcp read everything demo://resource/static/document/architecture.md   read a resource from one server
  mcp config approve                           approve this project's servers (.mcp.json, …) as they are now
  mcp config doctor                            why each failing server fails
  mcp registry search filesystem               servers in the MCP registry; mcp registry add <name> adds one
  mcp auth docs                                sign in to an OAuth-protected server (opens the browser)
  mcp inspect                                  every server in a web inspector (127.0.0.1, token-protected)
  mcp daemon start                             keep servers running between commands (mcp call uses it)
  mcp ps                                       servers shared by hosts through mcp daemon stdio <server>
  mcp serve --http                             every server as one MCP server on 127.0.0.1 (bearer token)
  mcp call everything.get-sum a=1 b=2 --record sum.ndjson    record the call's JSON-RPC messages
  mcp replay sum.ndjson --stdio                serve a recording as an MCP server (or --http [--port N])
  mcp codegen everything --out everything.ts   a typed client: await createEverythingClient(conn).getSum({ a: 1, b: 2 })

Arguments, as HTTPie writes them:
  key=value          typed by the tool's schema (numbers, booleans, a,b arrays)
  key:=<json>        raw JSON: count:=3 tags:='["a","b"]' options:='{"x":1}'
  key=@file          the file's text        key:=@file.json   the file's JSON
  key=\\@text         a value that starts with @

Servers are found in the config files of Claude Code, Claude Desktop, Cursor, VS Code, Windsurf,
Codex, Gemini CLI, opencode and Zed, and in ./mcp-client.json and ~/.config/mcp-client/mcp-client.json.
With none, mcp runs on an embedded default server so you can try it at once.
A project's own servers (.mcp.json, …) start only once approved as they are: any change to what
they run (command, args, cwd, env, URL, headers) asks again (mcp config approve, or --yes once).
Exit codes: 0 ok, 1 a failed call (isError) or a server the command needed failed, 2 a usage
error (unknown tool, bad arguments), 130 cancelled (Ctrl-C; press it again to quit at once).`;

const CALL_HELP = `
Examples:
  mcp call everything.echo message="hello"       server.tool: only that server starts
  mcp call everything echo message=hello         the same, as two words
  mcp call get-sum a=2 b=3                       a bare name: the tool cache finds its server
  mcp call get-sum '{"a": 2, "b": 3}'            the arguments as one JSON object
  mcp call everything.echo message=@note.txt     key=@file: the file's text (key:=<json> and more: mcp --help)
  mcp call http://127.0.0.1:3001/mcp echo message=hi   a server by its URL, no config (as --http <url>)
  mcp call everything.get-tiny-image --output markdown   the image saved, linked as ![image/png](path)
  mcp tools everything.get-sum                   a tool's parameters, and an example call

Global flags that apply (before or after the command):
  --json             the result as the server sent it (a CallToolResult)
  --timeout <ms>     connect and call timeout (progress resets the call's clock)
  -y, --yes          start this project's servers without asking, for this run only
  --stdio <command>, --http <url>, --sse <url>, -H <NAME=VALUE>
                     call a server given here, no config read
  -s <server>, -c <file>, --no-cache   see mcp --help

Exit codes: 0 ok, 1 the tool reported an error (isError) or its server failed,
2 a usage error (unknown tool, bad arguments), 130 cancelled (Ctrl-C).`;

const commands = () => import("./commands.js");
const skills = () => import("./skill-commands.js");
const pingWatch = () => import("./ping-watch-commands.js");
const auth = () => import("./auth-commands.js");
const outDir = (what: string): Flag => ["-o, --out-dir <dir>", what];

/** The commands that talk to servers, then the others' (serve, daemon, auth, config, registry, hosts). */
const COMMANDS: CommandSpec[] = [
  {
    name: "servers",
    alias: "list",
    description: "a table of every server: transport, source file, status, tool count, time to connect, last error",
    flags: [
      ["-v, --verbose", "add each failing server's stderr tail"],
      ["--exit-code", "exit 1 when any server is not connected (for health checks)"],
    ],
    run: lazy(commands, "serversCommand"),
  },
  {
    name: "tools [server] [tool]",
    description:
      "tools with a one-line signature of their arguments; one tool's whole docs with tools <server>.<tool> (--json: full definitions)",
    flags: [
      [
        "-v, --verbose",
        "each tool's whole docs: its description, every parameter (type, required, description, default) and an example mcp call",
      ],
    ],
    help: "\nExamples:\n  mcp tools                        every server's tools, one line each\n  mcp tools everything --verbose   every tool of one server, documented\n  mcp tools everything.get-sum     one tool's docs (also: mcp tools everything get-sum)",
    run: lazy(commands, "toolsCommand"),
  },
  {
    name: "call <tool> [args...]",
    description:
      "call a tool: <tool> is server.tool, 'server tool', mcp__server__tool (only that server starts), a unique tool name, or a server's URL then the tool; args are one JSON object or key=value, key:=<json>, key=@file, key:=@file.json",
    flags: [
      outDir("where images and binary resources are saved (default: the current directory)"),
      new Option("--save-images <dir>", "the same as --out-dir (mcporter's name)").hideHelp(),
      new Option(
        "--output <format>",
        "text (default), markdown (images linked), json (as --json) or raw (only the text the server sent)",
      ).choices(["text", "markdown", "json", "raw"]),
      [
        "--max-result-chars <n>",
        "cut the result's text after n characters; the whole result is saved to a file the last line names (what an agent's model would see)",
      ],
      [
        "--record <file.ndjson>",
        "write every JSON-RPC message of the call's connection to this file, both ways, with times, secrets redacted (serve it with mcp replay)",
      ],
    ],
    help: CALL_HELP,
    run: lazy(commands, "callCommand"),
  },
  {
    name: "codegen <server>",
    description:
      "write a TypeScript module with one typed function per tool of <server> (arguments from its input schema, results from its output schema), on @mcp/client",
    flags: [
      ["-o, --out <file.ts>", "write the module here (a folder: <folder>/<server>.ts; default: stdout)"],
      ["--name <ClientName>", "the client's type name; its factory is create<ClientName> (default: <Server>Client)"],
    ],
    run: lazy(() => import("./codegen.js"), "codegenCommand"),
  },
  {
    name: "resources [server]",
    description: "resources and resource templates",
    run: lazy(commands, "resourcesCommand"),
  },
  {
    name: "read <uri-or-server> [uri]",
    description:
      "read a resource (read <uri>, or read <server> <uri> to start only that server); text is printed, binary content saved to a file",
    flags: [outDir("where binary content is saved")],
    run: lazy(commands, "readCommand"),
  },
  {
    name: "skills [server]",
    description:
      "skills the servers serve (SEP-2640): names and descriptions from their listings; no skill file is fetched",
    run: lazy(skills, "skillsCommand"),
  },
  {
    name: "skill <server> <skill>",
    description:
      "load a skill (its name, or the URI of its SKILL.md), verified against the server's entry, and print its SKILL.md",
    flags: [
      ["-f, --file <path>", "print this file of the skill instead (relative to the skill, e.g. references/GUIDE.md)"],
    ],
    run: lazy(skills, "skillCommand"),
  },
  {
    name: "prompts [server]",
    description: "prompts with their arguments",
    run: lazy(commands, "promptsCommand"),
  },
  {
    name: "prompt <name> [args...]",
    description:
      "get a prompt (server.name starts only that server; a bare name asks every server) with key=value arguments",
    flags: [outDir("where images are saved")],
    run: lazy(commands, "promptCommand"),
  },
  {
    name: "ping [server]",
    description: "round-trip time to each server (ping; server/discover on a 2026-07-28 server, which has no ping)",
    run: lazy(pingWatch, "pingCommand"),
  },
  {
    name: "watch [server]",
    description: "stream notifications and log messages until Ctrl-C",
    flags: [new Option("--level <level>", "lowest log level to ask servers for").choices(LOG_LEVELS).default("info")],
    run: lazy(pingWatch, "watchCommand"),
  },
  {
    name: "inspect",
    description:
      "a web inspector in the browser for every server: tools with generated forms, resources, prompts, MCP Apps beside their results (sandboxed), a live log (127.0.0.1 only, token-protected)",
    flags: [
      ["-p, --port <port>", "port on 127.0.0.1 (default: a free one)", portNumber],
      ["--no-open", "only print the URL; do not open the browser"],
    ],
    run: lazy(() => import("./inspect-command.js"), "inspectCommand"),
  },
  ...SERVE_COMMANDS,
  ...DAEMON_COMMANDS,
  {
    name: "auth <server>",
    description:
      "authorize an HTTP server with OAuth: opens the browser, waits for the redirect on 127.0.0.1, saves the tokens",
    flags: [
      ["--no-open", "only print the URL to open (a machine without a browser)"],
      [
        "--no-browser",
        "no browser on this machine: print the URL, then paste the address the browser was sent back to (or its code)",
      ],
      [
        "--device",
        "sign in with the device flow (RFC 8628): print a URL and a code to enter on any device with a browser, then wait; needs an authorization server that offers it",
      ],
    ],
    run: lazy(auth, "authCommand"),
    subcommands: [
      {
        name: "doctor <server>",
        description:
          "why sign-in to an HTTP server (a configured name or a URL) fails: each step with its spec clause and what to do; exit 1 when one fails",
        flags: [
          ["--trace <file>", "write every request and answer, secrets redacted, to a file to attach to an issue"],
          [
            "--sign-in",
            "complete a sign-in in the browser (redirect to 127.0.0.1) so that iss, the token, its refresh and the server's acceptance are checked too; nothing is saved",
          ],
          ["--no-open", "with --sign-in: only print the URL to open"],
          [
            "--no-register",
            "do not try dynamic client registration (it registers a client at the authorization server, as a sign-in would)",
          ],
        ],
        run: lazy(() => import("./auth-doctor.js"), "authDoctorCommand"),
      },
    ],
  },
  {
    name: "logout <server>",
    description: "forget an HTTP server's OAuth tokens",
    run: lazy(auth, "logoutCommand"),
  },
  ...CONFIG_COMMANDS,
  REGISTRY_COMMAND,
  HOSTS_COMMAND,
];

/** Builds the `mcp` program (commander's errors thrown, not exits); `run` gets each command's exit code. */
export function buildProgram(run: (task: () => Promise<number>) => void): Command {
  const program = new Command("mcp")
    .configureOutput({ writeOut: (text) => process.stdout.write(fitHelp(text)) })
    .configureHelp({ helpWidth: helpWidth() })
    .description("See, test and use your MCP servers.")
    .version(CLI_VERSION, "-V, --version");
  addFlags(program, [
    ["--json", "machine-readable output (stable shapes, see the README)"],
    ["--timeout <ms>", "connect and call timeout in ms", positiveInt],
    ["-s, --server <name>", "only this server (repeatable, or comma-separated)", collect],
    ["--no-cache", "do not use or update the tool cache"],
    ["-c, --config <file>", "read servers from this file only (our mcp-client.json format; repeatable)", collect],
    ["--stdio <command line>", "an ad-hoc stdio server, no config needed"],
    ["--http <url>", "an ad-hoc Streamable HTTP server"],
    ["--sse <url>", "an ad-hoc HTTP+SSE server"],
    ["-H, --header <NAME=VALUE>", "a header for the ad-hoc --http/--sse server (repeatable)", repeat],
    ["-y, --yes", "start project-scope servers without asking, for this run only (not remembered)"],
  ])
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", EXAMPLES)
    // Every command's own errors (a missing argument, an unknown option) are usage errors too: exit 2
    // (each command copies this when it is added).
    .exitOverride();
  addCommands(program, COMMANDS, run);
  return program;
}

/** Runs the CLI; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  argv = serveModes(argv);
  let task: (() => Promise<number>) | undefined;
  const program = buildProgram((t) => {
    task = t;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { exitCode?: number; code?: string }).exitCode;
    const kind = (error as { code?: string }).code;
    if (kind === "commander.helpDisplayed" || kind === "commander.version" || kind === "commander.help") return EXIT.ok;
    return code === 0 ? EXIT.ok : EXIT.usage;
  }
  if (!task) {
    program.outputHelp();
    return EXIT.usage;
  }
  return task().catch(failed);
}
