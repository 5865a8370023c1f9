// `mcp registry`: its subcommands, flags and help.
import { type Command, InvalidArgumentError } from "commander";
import type { AddOptions } from "./registry-commands.js";
import type { GlobalOptions } from "./session.js";

const HELP = `
The registry is --registry <url>, else MCP_REGISTRY_URL, else "registry" in your own
~/.config/mcp-client/mcp-client.json (or the --config files), else https://registry.modelcontextprotocol.io.
A project's mcp-client.json does not choose it.

What add writes: npm → npx -y <package>@<version>, pypi → uvx <package>==<version>,
oci → docker run -i --rm … <image>, nuget → dnx <package>@<version> --yes, remote → an http or sse
entry. A secret (an API key, a token header) is never written: the entry reads it from the
environment as \${NAME}, and add says which variables to set. A project entry you add is approved.

Examples:
  mcp registry search filesystem               servers whose name has "filesystem"
  mcp registry add io.github.user/weather --set config_path=/etc/weather.json
  mcp registry add io.github.user/remote-weather@2.1.0 --package remote --as wx --scope user
  mcp registry outdated                        entries added from the registry with a newer version
  mcp registry update wx                       move "wx" to the latest version (all: no names)`;

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive whole number");
  return n;
}

/** `mcp registry search | add | outdated | update` (each one's code loaded when it runs). */
export function addRegistryCommands(program: Command, run: (task: () => Promise<number>) => void): void {
  const globals = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();
  const registry = program
    .command("registry")
    .description("find servers in the MCP registry, add them to your config, keep them current")
    .addHelpText("after", HELP);
  registry
    .command("search [text]")
    .description(
      "servers whose name has <text> (every server without it): name, latest version, what it runs on, description; --json prints the documents whole",
    )
    .option("--registry <url>", "the registry to ask")
    .option("--limit <n>", "at most this many servers (default 100), following the registry's pages", positive)
    .action((text: string | undefined, options: { registry?: string; limit?: number }, command: Command) =>
      run(async () => (await import("./registry-commands.js")).registrySearch(text ?? "", globals(command), options)),
    );
  registry
    .command("add <name>")
    .description(
      "add <name>[@<version>] from the registry to ./mcp-client.json (or the user file with --scope user) and approve it; prints what it wrote and the variables to set",
    )
    .option("--as <local-name>", "the entry's name (default: the last part of <name>)")
    .option(
      "--package <form>",
      "npm, pypi, oci, nuget or remote (default: the first package we can run, else a remote)",
    )
    .option("--transport <kind>", "for a remote: http or sse")
    .option(
      "--set <name=value>",
      "a value for one of the server's inputs: an environment variable, header, URL variable or argument (repeatable; never a secret)",
      (v: string, p: string[] = []) => [...p, v],
    )
    .option("--scope <scope>", "project or user", "project")
    .option("--registry <url>", "the registry to ask")
    .option("--force", "add a deprecated or deleted server")
    .action((name: string, options: AddOptions, command: Command) =>
      run(async () => (await import("./registry-commands.js")).registryAdd(name, globals(command), options)),
    );
  registry
    .command("outdated")
    .description(
      "the entries added from the registry, their version and the latest (exit 1 when one could not be checked)",
    )
    .option("--registry <url>", "the registry to ask about a project's entries")
    .action((options: { registry?: string }, command: Command) =>
      run(async () => (await import("./registry-update.js")).registryOutdated(globals(command), options)),
    );
  registry
    .command("update [names...]")
    .description(
      "move entries added from the registry to their latest version (all of them when none is named), keeping your other settings and your environment and header values",
    )
    .option("--registry <url>", "the registry to ask about a project's entries")
    .option("--force", "update to a latest version that is deprecated or deleted")
    .action((names: string[], options: { registry?: string; force?: boolean }, command: Command) =>
      run(async () => (await import("./registry-update.js")).registryUpdate(names, globals(command), options)),
    );
}
