// `mcp config list | add | approve | remove | doctor`, `mcp pins [approve]`, `mcp registry search | add | outdated | update`
// and `mcp hosts [list] | pool | unpool`: the commands over the server configs, their tool pins, the registry's entries
// and the hosts' files, with their flags and help (each one's code loaded when it runs).
import { lazy, type CommandSpec, type Flag } from "./command-spec.js";
import { positiveWhole, repeat } from "./option-values.js";

// Each module's code is loaded when one of its commands runs.
const config = () => import("./config-commands.js");
const pins = () => import("./pins-commands.js");
const registry = () => import("./registry-commands.js");
const update = () => import("./registry-update.js");
const hosts = () => import("./hosts-commands.js");

const REGISTRY_HELP = `
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

const HOSTS_HELP = `
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

const scope: Flag = ["--scope <scope>", "project or user", "project"];
const hostScope: Flag = ["--scope <scope>", "only the user's files or only this folder's (user or project)"];
const askRegistry: Flag = ["--registry <url>", "the registry to ask"];
const askAboutProject: Flag = ["--registry <url>", "the registry to ask about a project's entries"];

/** `mcp config …` and `mcp pins …`. */
export const CONFIG_COMMANDS: CommandSpec[] = [
  {
    name: "config",
    description: "list, add, remove and diagnose server configs",
    subcommands: [
      {
        name: "list",
        description: "every discovered entry with its source, including shadowed, disabled and invalid ones",
        run: lazy(config, "configList"),
      },
      {
        name: "add <name>",
        description: "add a server to ./mcp-client.json (or the user file with --scope user)",
        flags: [
          ["--stdio <command line>", "the command to run"],
          ["--http <url>", "a Streamable HTTP server"],
          ["--sse <url>", "a HTTP+SSE server"],
          ["-e, --env <NAME=VALUE>", "environment for a stdio server (repeatable)", repeat],
          [
            "-H, --header <NAME=VALUE>",
            "header for an HTTP server (repeatable); write a secret as '${VAR}' in single quotes, so the file holds the variable, not the secret",
            repeat,
          ],
          scope,
          ["--replace", "replace an entry of that name (without it, an existing name is refused)"],
        ],
        help: "\nExample:\n  mcp config add docs --http https://example.com/mcp --header 'Authorization=Bearer ${TOKEN}'\n  (single quotes: the shell leaves ${TOKEN} alone; mcp reads it from the environment at each run)",
        run: lazy(config, "configAdd"),
      },
      {
        name: "approve [names...]",
        description:
          "approve this project's servers (from .mcp.json, .cursor/mcp.json, …) as they are now, so they start without asking; all of them when none is named. Any later change to what they run (command, args, cwd, env, URL, headers) asks again",
        run: lazy(config, "configApprove"),
      },
      {
        name: "remove <name>",
        description: "remove a server from our own config file",
        flags: [["--scope <scope>", "project or user (default: whichever has it)"]],
        run: lazy(config, "configRemove"),
      },
      {
        name: "doctor",
        description:
          "explain why each failing server fails: missing command, unset variable, refused connection, auth needed",
        run: lazy(config, "configDoctor"),
      },
    ],
  },
  {
    name: "pins [server]",
    description:
      "tools held because their description or schema changed since they were approved (or are new), with the diff; exit 1 when any is held",
    run: lazy(pins, "pinsCommand"),
    subcommands: [
      {
        name: "approve <server> [tools...]",
        description:
          "show the diff of a server's held tools and approve them (all, or those named): they are offered from now on",
        run: lazy(pins, "pinsApproveCommand"),
      },
    ],
  },
];

/** `mcp registry search | add | outdated | update`. */
export const REGISTRY_COMMAND: CommandSpec = {
  name: "registry",
  description: "find servers in the MCP registry, add them to your config, keep them current",
  help: REGISTRY_HELP,
  subcommands: [
    {
      name: "search [text]",
      description:
        "servers whose name has <text> (every server without it): name, latest version, what it runs on, description; --json prints the documents whole",
      flags: [
        askRegistry,
        ["--limit <n>", "at most this many servers (default 100), following the registry's pages", positiveWhole],
      ],
      run: lazy(registry, "registrySearch"),
    },
    {
      name: "add <name>",
      description:
        "add <name>[@<version>] from the registry to ./mcp-client.json (or the user file with --scope user) and approve it; prints what it wrote and the variables to set",
      flags: [
        ["--as <local-name>", "the entry's name (default: the last part of <name>)"],
        ["--package <form>", "npm, pypi, oci, nuget or remote (default: the first package we can run, else a remote)"],
        ["--transport <kind>", "for a remote: http or sse"],
        [
          "--set <name=value>",
          "a value for one of the server's inputs: an environment variable, header, URL variable or argument (repeatable; never a secret)",
          repeat,
        ],
        scope,
        askRegistry,
        ["--force", "add a deprecated or deleted server"],
      ],
      run: lazy(registry, "registryAdd"),
    },
    {
      name: "outdated",
      description:
        "the entries added from the registry, their version and the latest (exit 1 when one could not be checked)",
      flags: [askAboutProject],
      run: lazy(update, "registryOutdated"),
    },
    {
      name: "update [names...]",
      description:
        "move entries added from the registry to their latest version (all of them when none is named), keeping your other settings and your environment and header values",
      flags: [askAboutProject, ["--force", "update to a latest version that is deprecated or deleted"]],
      run: lazy(update, "registryUpdate"),
    },
  ],
};

/** `mcp hosts [list] | pool <host> | unpool <host>`. */
export const HOSTS_COMMAND: CommandSpec = {
  name: "hosts",
  description: "the hosts' config files here, and running their stdio servers through one shared pool",
  help: HOSTS_HELP,
  subcommands: [
    {
      name: "list [host]",
      isDefault: true,
      description: "each host config file found (user, and this folder's), its stdio servers and which are pooled",
      run: lazy(hosts, "hostsList"),
    },
    {
      name: "pool <host>",
      description:
        "run each stdio server of <host>'s config files through `mcp daemon stdio` (a backup of each file is kept)",
      flags: [
        hostScope,
        [
          "--shim <command>",
          "the program the entries run (default: mcp-shim where it works: on PATH, and bash has /dev/tcp; else mcp)",
        ],
      ],
      run: lazy(hosts, "hostsPool"),
    },
    {
      name: "unpool <host>",
      description: "put back <host>'s config files as they were before pool, byte for byte",
      flags: [
        hostScope,
        [
          "--keep-edits",
          "when a file changed since pool (or has no backup), unwrap each pooled entry in place, keeping the rest as it is now",
        ],
      ],
      run: lazy(hosts, "hostsUnpool"),
    },
  ],
};
