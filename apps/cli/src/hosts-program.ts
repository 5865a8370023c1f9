// `mcp hosts`: list the hosts' config files, and pool or unpool a host's stdio servers.
import type { Command } from "commander";
import type { GlobalOptions } from "./session.js";

const HELP = `
pool rewrites each stdio entry of the host's config files (user ones, and the project's in this
folder) to run through the shim, which the pool serves: the same command, arguments, env and cwd,
one process for every session with the same configuration. HTTP entries are left alone.
  "command": "npx", "args": ["-y", "pkg"]
becomes
  "command": "mcp", "args": ["daemon", "stdio", "<name>", "--from", "<host>:<scope>", "--", "npx", "-y", "pkg"]
A backup of each file is kept in ~/.config/mcp-client/pooled/; unpool puts it back byte for byte.
When the file changed since (your edit, or the host's own), unpool refuses; --keep-edits unwraps
each pooled entry in place instead.

Hosts: claude-code, claude-desktop, cursor, vscode, codex, gemini, opencode, zed, windsurf.`;

/** `mcp hosts [list] | pool <host> | unpool <host>` (their code loaded when one runs). */
export function addHostsCommands(program: Command, run: (task: () => Promise<number>) => void): void {
  const globals = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();
  const hosts = program
    .command("hosts")
    .description("the hosts' config files here, and running their stdio servers through one shared pool")
    .addHelpText("after", HELP);
  hosts
    .command("list [host]", { isDefault: true })
    .description("each host config file found (user, and this folder's), its stdio servers and which are pooled")
    .action((host: string | undefined, _options: unknown, command: Command) =>
      run(async () => (await import("./hosts-commands.js")).hostsList(host, globals(command))),
    );
  hosts
    .command("pool <host>")
    .description(
      "run each stdio server of <host>'s config files through `mcp daemon stdio` (a backup of each file is kept)",
    )
    .option("--scope <scope>", "only the user's files or only this folder's (user or project)")
    .option(
      "--shim <command>",
      "the program the entries run (default: mcp-shim where it works: on PATH, and bash has /dev/tcp; else mcp)",
    )
    .action((host: string, options: { scope?: string; shim?: string }, command: Command) =>
      run(async () => (await import("./hosts-commands.js")).hostsPool(host, globals(command), options)),
    );
  hosts
    .command("unpool <host>")
    .description("put back <host>'s config files as they were before pool, byte for byte")
    .option("--scope <scope>", "only the user's files or only this folder's (user or project)")
    .option(
      "--keep-edits",
      "when a file changed since pool (or has no backup), unwrap each pooled entry in place, keeping the rest as it is now",
    )
    .action((host: string, options: { scope?: string; keepEdits?: boolean }, command: Command) =>
      run(async () => (await import("./hosts-commands.js")).hostsUnpool(host, globals(command), options)),
    );
}
