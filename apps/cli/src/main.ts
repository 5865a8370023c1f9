// The commands and flags (commander); each command's code is imported only when it runs, so the entry stays small.
import { Command, Option } from "commander";
import type * as Commands from "./commands.js";
import type { GlobalOptions } from "./session.js";
import { fitHelp, helpWidth } from "./help-text.js";
import { addAuthOptions } from "./auth-program.js";
import { addHostsCommands } from "./hosts-program.js";
import { addRegistryCommands } from "./registry-program.js";
import { addConfigCommands } from "./config-program.js";
import { addDaemonCommands } from "./daemon-program.js";
import { addServeCommands, serveModes } from "./serve-program.js";
import { collect, portNumber, positiveInt } from "./option-values.js";
import { CliError, EXIT, printError, replaceLine } from "./ui.js";
import { CLI_VERSION, LOG_LEVELS } from "./version.js";

// Each command's code is loaded when that command runs (the imports in the actions below): the
// entry is commander and these few small modules, so `mcp --version` or `mcp config list` never
// loads the gateway, the inspector or the daemon, and `mcp call` loads only what a call needs.
const commands = (): Promise<typeof Commands> => import("./commands.js");

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

/** Builds the `mcp` program; `run` gets each command's exit code. */
export function buildProgram(run: (task: () => Promise<number>) => void): Command {
  const program = new Command("mcp")
    .configureOutput({ writeOut: (text) => process.stdout.write(fitHelp(text)) })
    .configureHelp({ helpWidth: helpWidth() })
    .description("See, test and use your MCP servers.")
    .version(CLI_VERSION, "-V, --version")
    .option("--json", "machine-readable output (stable shapes, see the README)")
    .option("--timeout <ms>", "connect and call timeout in ms", positiveInt)
    .option("-s, --server <name>", "only this server (repeatable, or comma-separated)", collect)
    .option("--no-cache", "do not use or update the tool cache")
    .option("-c, --config <file>", "read servers from this file only (our mcp-client.json format; repeatable)", collect)
    .option("--stdio <command line>", "an ad-hoc stdio server, no config needed")
    .option("--http <url>", "an ad-hoc Streamable HTTP server")
    .option("--sse <url>", "an ad-hoc HTTP+SSE server")
    .option(
      "-H, --header <NAME=VALUE>",
      "a header for the ad-hoc --http/--sse server (repeatable)",
      (v: string, p: string[] = []) => [...p, v],
    )
    .option("-y, --yes", "start project-scope servers without asking, for this run only (not remembered)")
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", EXAMPLES);

  const globals = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();

  program
    .command("servers")
    .alias("list")
    .description("a table of every server: transport, source file, status, tool count, time to connect, last error")
    .option("-v, --verbose", "add each failing server's stderr tail")
    .option("--exit-code", "exit 1 when any server is not connected (for health checks)")
    .action((options: { verbose?: boolean; exitCode?: boolean }, command: Command) =>
      run(async () => (await commands()).serversCommand(globals(command), options)),
    );

  program
    .command("tools [server] [tool]")
    .description(
      "tools with a one-line signature of their arguments; one tool's whole docs with tools <server>.<tool> (--json: full definitions)",
    )
    .option(
      "-v, --verbose",
      "each tool's whole docs: its description, every parameter (type, required, description, default) and an example mcp call",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  mcp tools                        every server's tools, one line each\n  mcp tools everything --verbose   every tool of one server, documented\n  mcp tools everything.get-sum     one tool's docs (also: mcp tools everything get-sum)",
    )
    .action((server: string | undefined, tool: string | undefined, options: { verbose?: boolean }, command: Command) =>
      run(async () => (await commands()).toolsCommand(globals(command), server, tool, options)),
    );

  program
    .command("call <tool> [args...]")
    .description(
      "call a tool: <tool> is server.tool, 'server tool', mcp__server__tool (only that server starts), a unique tool name, or a server's URL then the tool; args are one JSON object or key=value, key:=<json>, key=@file, key:=@file.json",
    )
    .option("-o, --out-dir <dir>", "where images and binary resources are saved (default: the current directory)")
    .addOption(new Option("--save-images <dir>", "the same as --out-dir (mcporter's name)").hideHelp())
    .addOption(
      new Option(
        "--output <format>",
        "text (default), markdown (images linked), json (as --json) or raw (only the text the server sent)",
      ).choices(["text", "markdown", "json", "raw"]),
    )
    .option(
      "--max-result-chars <n>",
      "cut the result's text after n characters; the whole result is saved to a file the last line names (what an agent's model would see)",
    )
    .option(
      "--record <file.ndjson>",
      "write every JSON-RPC message of the call's connection to this file, both ways, with times, secrets redacted (serve it with mcp replay)",
    )
    .addHelpText("after", CALL_HELP)
    .action(
      (
        tool: string,
        args: string[],
        options: { outDir?: string; saveImages?: string; maxResultChars?: string; record?: string; output?: string },
        command: Command,
      ) => run(async () => (await commands()).callCommand(globals(command), [tool, ...args], options)),
    );

  program
    .command("codegen <server>")
    .description(
      "write a TypeScript module with one typed function per tool of <server> (arguments from its input schema, results from its output schema), on @mcp/client",
    )
    .option("-o, --out <file.ts>", "write the module here (a folder: <folder>/<server>.ts; default: stdout)")
    .option(
      "--name <ClientName>",
      "the client's type name; its factory is create<ClientName> (default: <Server>Client)",
    )
    .action((server: string, options: { out?: string; name?: string }, command: Command) =>
      run(async () => (await import("./codegen.js")).codegenCommand(globals(command), server, options)),
    );

  program
    .command("resources [server]")
    .description("resources and resource templates")
    .action((server: string | undefined, _options: unknown, command: Command) =>
      run(async () => (await commands()).resourcesCommand(globals(command), server)),
    );

  program
    .command("read <uri-or-server> [uri]")
    .description(
      "read a resource (read <uri>, or read <server> <uri> to start only that server); text is printed, binary content saved to a file",
    )
    .option("-o, --out-dir <dir>", "where binary content is saved")
    .action((first: string, uri: string | undefined, options: { outDir?: string }, command: Command) =>
      run(async () =>
        (await commands()).readCommand(globals(command), uri === undefined ? [first] : [first, uri], options),
      ),
    );

  program
    .command("skills [server]")
    .description(
      "skills the servers serve (SEP-2640): names and descriptions from their listings; no skill file is fetched",
    )
    .action((server: string | undefined, _options: unknown, command: Command) =>
      run(async () => (await import("./skill-commands.js")).skillsCommand(globals(command), server)),
    );

  program
    .command("skill <server> <skill>")
    .description(
      "load a skill (its name, or the URI of its SKILL.md), verified against the server's entry, and print its SKILL.md",
    )
    .option(
      "-f, --file <path>",
      "print this file of the skill instead (relative to the skill, e.g. references/GUIDE.md)",
    )
    .action((server: string, skill: string, options: { file?: string }, command: Command) =>
      run(async () => (await import("./skill-commands.js")).skillCommand(globals(command), server, skill, options)),
    );

  program
    .command("prompts [server]")
    .description("prompts with their arguments")
    .action((server: string | undefined, _options: unknown, command: Command) =>
      run(async () => (await commands()).promptsCommand(globals(command), server)),
    );

  program
    .command("prompt <name> [args...]")
    .description(
      "get a prompt (server.name starts only that server; a bare name asks every server) with key=value arguments",
    )
    .option("-o, --out-dir <dir>", "where images are saved")
    .action((name: string, args: string[], options: { outDir?: string }, command: Command) =>
      run(async () => (await commands()).promptCommand(globals(command), [name, ...args], options)),
    );

  program
    .command("ping [server]")
    .description("round-trip time to each server (ping; server/discover on a 2026-07-28 server, which has no ping)")
    .action((server: string | undefined, _options: unknown, command: Command) =>
      run(async () => (await import("./ping-watch-commands.js")).pingCommand(globals(command), server)),
    );

  program
    .command("watch [server]")
    .description("stream notifications and log messages until Ctrl-C")
    .addOption(new Option("--level <level>", "lowest log level to ask servers for").choices(LOG_LEVELS).default("info"))
    .action((server: string | undefined, options: { level?: string }, command: Command) =>
      run(async () => (await import("./ping-watch-commands.js")).watchCommand(globals(command), server, options)),
    );

  program
    .command("inspect")
    .description(
      "a web inspector in the browser for every server: tools with generated forms, resources, prompts, MCP Apps beside their results (sandboxed), a live log (127.0.0.1 only, token-protected)",
    )
    .option("-p, --port <port>", "port on 127.0.0.1 (default: a free one)", portNumber)
    .option("--no-open", "only print the URL; do not open the browser")
    .action((options: { port?: number; open?: boolean }, command: Command) =>
      run(async () => (await import("./inspect-command.js")).inspectCommand(globals(command), options)),
    );

  addServeCommands(program, run);
  addDaemonCommands(program, run);

  const auth = program
    .command("auth <server>")
    .description(
      "authorize an HTTP server with OAuth: opens the browser, waits for the redirect on 127.0.0.1, saves the tokens",
    )
    .option("--no-open", "only print the URL to open (a machine without a browser)")
    .option(
      "--no-browser",
      "no browser on this machine: print the URL, then paste the address the browser was sent back to (or its code)",
    )
    .action((server: string, options: { open?: boolean; browser?: boolean; device?: boolean }, command: Command) =>
      run(async () => (await import("./auth-commands.js")).authCommand(globals(command), server, options)),
    );
  addAuthOptions(auth, run);

  program
    .command("logout <server>")
    .description("forget an HTTP server's OAuth tokens")
    .action((server: string, _options: unknown, command: Command) =>
      run(async () => (await import("./auth-commands.js")).logoutCommand(globals(command), server)),
    );

  addConfigCommands(program, run);
  addRegistryCommands(program, run);
  addHostsCommands(program, run);

  return program;
}

export { serveModes } from "./serve-program.js";

/** Runs the CLI; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  argv = serveModes(argv);
  let task: (() => Promise<number>) | undefined;
  const program = buildProgram((t) => {
    task = t;
  });
  // Every command's own errors (a missing argument, an unknown option) are usage errors too: exit 2.
  const override = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(program);
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
  try {
    return await task();
  } catch (error) {
    if (error instanceof CliError) {
      if (error.exitCode !== EXIT.cancelled) printError(error.message);
      else replaceLine("Cancelled.");
      return error.exitCode;
    }
    printError((error as Error).message ?? String(error));
    return EXIT.failure;
  }
}
