// `mcp config list | add | approve | remove | doctor` and `mcp pins [approve]`: the commands over the server configs and
// their tool pins, their flags and help (each one's code loaded when it runs).
import type { Command } from "commander";
import type * as ConfigCommands from "./config-commands.js";
import type { GlobalOptions } from "./session.js";

const configCommands = (): Promise<typeof ConfigCommands> => import("./config-commands.js");

/** `mcp config …` and `mcp pins …`. */
export function addConfigCommands(program: Command, run: (task: () => Promise<number>) => void): void {
  const globals = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();

  const config = program.command("config").description("list, add, remove and diagnose server configs");
  config
    .command("list")
    .description("every discovered entry with its source, including shadowed, disabled and invalid ones")
    .action((_options: unknown, command: Command) =>
      run(async () => (await configCommands()).configList(globals(command))),
    );
  config
    .command("add <name>")
    .description("add a server to ./mcp-client.json (or the user file with --scope user)")
    .option("--stdio <command line>", "the command to run")
    .option("--http <url>", "a Streamable HTTP server")
    .option("--sse <url>", "a HTTP+SSE server")
    .option("-e, --env <NAME=VALUE>", "environment for a stdio server (repeatable)", (v: string, p: string[] = []) => [
      ...p,
      v,
    ])
    .option(
      "-H, --header <NAME=VALUE>",
      "header for an HTTP server (repeatable); write a secret as '${VAR}' in single quotes, so the file holds the variable, not the secret",
      (v: string, p: string[] = []) => [...p, v],
    )
    .option("--scope <scope>", "project or user", "project")
    .option("--replace", "replace an entry of that name (without it, an existing name is refused)")
    .addHelpText(
      "after",
      "\nExample:\n  mcp config add docs --http https://example.com/mcp --header 'Authorization=Bearer ${TOKEN}'\n  (single quotes: the shell leaves ${TOKEN} alone; mcp reads it from the environment at each run)",
    )
    // `--stdio`/`--http`/`--sse` are also global flags; commander may have given them to the program.
    .action((name: string, _options: unknown, command: Command) =>
      run(async () =>
        (await configCommands()).configAdd(
          name,
          command.optsWithGlobals<Parameters<typeof ConfigCommands.configAdd>[1]>(),
        ),
      ),
    );
  config
    .command("approve [names...]")
    .description(
      "approve this project's servers (from .mcp.json, .cursor/mcp.json, …) as they are now, so they start without asking; all of them when none is named. Any later change to what they run (command, args, cwd, env, URL, headers) asks again",
    )
    .action((names: string[], _options: unknown, command: Command) =>
      run(async () => (await configCommands()).configApprove(names, globals(command))),
    );
  config
    .command("remove <name>")
    .description("remove a server from our own config file")
    .option("--scope <scope>", "project or user (default: whichever has it)")
    .action((name: string, options: { scope?: string }) =>
      run(async () => (await configCommands()).configRemove(name, options)),
    );
  config
    .command("doctor")
    .description(
      "explain why each failing server fails: missing command, unset variable, refused connection, auth needed",
    )
    .action((_options: unknown, command: Command) =>
      run(async () => (await configCommands()).configDoctor(globals(command))),
    );

  const pins = program
    .command("pins [server]")
    .description(
      "tools held because their description or schema changed since they were approved (or are new), with the diff; exit 1 when any is held",
    )
    .action((server: string | undefined, _options: unknown, command: Command) =>
      run(async () => (await import("./pins-commands.js")).pinsCommand(globals(command), server)),
    );
  pins
    .command("approve <server> [tools...]")
    .description(
      "show the diff of a server's held tools and approve them (all, or those named): they are offered from now on",
    )
    .action((server: string, tools: string[], _options: unknown, command: Command) =>
      run(async () => (await import("./pins-commands.js")).pinsApproveCommand(globals(command), server, tools)),
    );
}
