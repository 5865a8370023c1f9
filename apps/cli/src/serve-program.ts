// `mcp serve` and `mcp replay`: the commands that serve over stdio or HTTP, their flags and help, and telling their
// `--stdio`/`--http` modes apart from the program's own ad-hoc server flags (each one's code loaded when it runs).
import { Option } from "commander";
import type { Call, CommandSpec } from "./command-spec.js";
import { collect, portNumber } from "./option-values.js";
import type { ServeOptions } from "./serve/command.js";

/** The serving mode, as {@link serveModes} renames `--stdio` and `--http` after `serve` or `replay`. */
interface Modes {
  serveStdio?: boolean;
  serveHttp?: boolean;
}

const mode = (name: "stdio" | "http", description: string): Option =>
  new Option(`--serve-${name}`, description).hideHelp();

/** `mcp serve` and `mcp replay <file>`. */
export const SERVE_COMMANDS: CommandSpec[] = [
  {
    name: "serve",
    description:
      "the configured servers as one MCP server: tools as <server>__<tool>, over stdio or HTTP (bearer token, loopback by default)",
    flags: [
      mode("stdio", "serve on stdin/stdout (written: mcp serve --stdio)"),
      mode("http", "serve Streamable HTTP (written: mcp serve --http)"),
      ["-p, --port <port>", "HTTP port (default: a free one)", portNumber],
      ["--host <host>", "HTTP address to listen on (default 127.0.0.1)"],
      ["--callers <file>", 'HTTP callers: { "<name>": { "token": "…", "allow": [...], "deny": [...] } }'],
      [
        "--allow <patterns>",
        "only these tools: <server>__<tool> patterns, * within a part, case-sensitive (repeatable)",
        collect,
      ],
      ["--deny <patterns>", "never these tools, whatever their case (repeatable)", collect],
      ["--origin <origin>", "also accept requests from this browser origin (repeatable)", collect],
      ["--allowed-host <name>", "also accept this Host name (the one a load balancer forwards; repeatable)", collect],
      [
        "--audit <file>",
        "append a JSON line per request to this file (or - for stdout with --http): caller, tool, a hash of the arguments, decision, outcome",
      ],
      ["--tool-search", "offer search_tools on every endpoint: it finds tools among those the caller may use"],
      ["--view <name>", "show the token's or the stdio caller's tools through this view of your config"],
      [
        "--redis <url>",
        "share tool lists, upstream OAuth tokens and 2025 sessions with other replicas through Redis (or set MCP_REDIS_URL); tokens there are encrypted with MCP_REDIS_KEY or MCP_REDIS_KEY_FILE",
      ],
      [
        "--redis-plaintext-tokens",
        "with --redis and no key: keep upstream OAuth tokens in Redis unencrypted (or set MCP_REDIS_PLAINTEXT_TOKENS=1)",
      ],
      [
        "--oidc-issuer <url>",
        'also accept this OAuth issuer\'s JWT access tokens (MCP authorization); --callers entries with a "claim" choose callers',
      ],
      ["--audience <url>", "the resource URL those tokens must name (default: this server's /mcp URL, with --port)"],
      ["--required-scope <scope>", "a scope every issuer's token must carry (repeatable)", collect],
      [
        "--introspection-client <id>",
        "introspect the issuer's opaque (non-JWT) tokens (RFC 7662) as this client; its secret from $MCP_INTROSPECTION_SECRET",
      ],
      [
        "--introspection-secret-env <var>",
        "read the introspection client's secret from this environment variable instead",
      ],
      [
        "--metrics",
        "serve /metrics (Prometheus text) to MCP_METRICS_TOKEN's bearer, else to loopback only; /healthz and /readyz are always served",
      ],
    ],
    help:
      "\nModes: --stdio (serve on stdin/stdout) or --http (Streamable HTTP at /mcp, every server, and /mcp/<server>, one).\n" +
      "A server's questions and logs go only to the caller whose call they are about; with several callers, each gets\n" +
      "its own connection (its own process) to a 2025-era stdio server, which ties none of them to a call.",
    run: async ({ globals, options }: Call<ServeOptions & Modes>) =>
      (await import("./serve/command.js")).serveCommand(globals, {
        ...options,
        stdio: options.serveStdio,
        http: options.serveHttp,
      }),
  },
  {
    name: "replay <file>",
    description:
      "serve a recording (mcp call --record) as an MCP server over stdio or HTTP: each request that matches a recorded one gets the recorded answer",
    flags: [
      mode("stdio", "serve on stdin/stdout (written: mcp replay <file> --stdio)"),
      mode("http", "serve Streamable HTTP on 127.0.0.1 (written: mcp replay <file> --http)"),
      ["-p, --port <port>", "HTTP port on 127.0.0.1 (default: a free one)", portNumber],
    ],
    help:
      "\nModes: --stdio (serve on stdin/stdout) or --http (Streamable HTTP at http://127.0.0.1:<port>/mcp).\n" +
      "A request matches a recorded one with the same method and params (their _meta aside; initialize by its\n" +
      "method alone): it gets the recorded answer, its notifications and progress, in order, under its own id.\n" +
      "Any other request gets a JSON-RPC error naming the closest recorded one. -s <server> picks one server of\n" +
      "a recording that has several. Each request and what answered it is told on stderr.",
    run: async ({ globals, options }: Call<Modes & { port?: number }>, file: string) =>
      (await import("./replay-command.js")).replayCommand(globals, file, {
        stdio: options.serveStdio,
        http: options.serveHttp,
        port: options.port,
      }),
  },
];

/**
 * `mcp serve --stdio` / `--http` (and `mcp replay <file> --stdio` / `--http`) name the serving mode,
 * while the program's own `--stdio <command>` and `--http <url>` give an ad-hoc server. After
 * `serve` or `replay`, a `--stdio` or `--http` with no value after it (the end, or another option)
 * is the mode.
 */
export function serveModes(argv: string[]): string[] {
  const at = argv.findIndex((word, i) => i >= 2 && (word === "serve" || word === "replay"));
  if (at < 0) return argv;
  return argv.map((word, i) =>
    i > at && (word === "--stdio" || word === "--http") && (argv[i + 1] === undefined || argv[i + 1]!.startsWith("-"))
      ? `--serve-${word.slice(2)}`
      : word,
  );
}
