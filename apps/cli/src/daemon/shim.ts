// What `mcp daemon stdio <server>` (shim-relay.ts) needs before it relays: the server found as `mcp
// call` finds it (the same files, the same approval of project servers), written with this shell's
// folder and environment (environment.ts), and this user's daemon, started if none runs.

import { closeSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { unwrapShimConfig } from "@mcp/manager";
import { approveCommandFor } from "../approvals.js";
import { openSession, type GlobalOptions } from "../session.js";
import { CliError, EXIT } from "../ui.js";
import { claimDaemonSocket, spawnDaemon } from "./command.js";
import { asThisShellRuns } from "./environment.js";
import { checkSocket } from "./private.js";
import { probe } from "./server.js";

/** Whether a config runs this shim itself (`… daemon stdio …`): following it would loop. */
export function runsTheShim(config: MCPServerConfig): boolean {
  if (!("command" in config)) return false;
  const words = [config.command, ...(config.args ?? [])];
  return words.some((word, i) => word === "daemon" && words[i + 1] === "stdio");
}

/** What `mcp hosts pool` writes after the name: `--from <host>:<scope> -- <command> [args…]`. */
export interface ShimWords {
  /** The original command and arguments (after `--`), as the host's entry had them. */
  command?: string[] | undefined;
  from?: string | undefined;
}

/** A `${VAR}` (or `${env:VAR}`, `${VAR:-default}`) in a config file: the variable's name. */
const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * This shell's values of the variables the config files name: the daemon's approval check reads
 * the same files and expands them as this shell did, not with the environment it was started with.
 */
export function variablesNamedIn(
  files: Iterable<string>,
  shell: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const file of new Set(files)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue; // gone or unreadable: the daemon finds the same
    }
    for (const match of text.matchAll(VARIABLE)) {
      const value = shell[match[1]!];
      if (value !== undefined) vars[match[1]!] = value;
    }
  }
  return vars;
}

/** The server as this shell runs it, and where it came from; a `CliError` saying why not. */
async function resolveServer(
  globals: GlobalOptions,
  server: string,
  words: ShimWords = {},
): Promise<{ config: MCPServerConfig; source: string | undefined; project: string; vars: Record<string, string> }> {
  if (globals.yes)
    throw new CliError(
      "mcp daemon stdio does not take --yes: a project server is served only once approved (mcp config approve)",
      EXIT.usage,
    );
  if (globals.stdio || globals.http || globals.sse)
    throw new CliError(
      "mcp daemon stdio serves a configured server: name it (--stdio, --http and --sse are not for the shim)",
      EXIT.usage,
    );
  const session = await openSession({ ...globals, server: [server] }, { connect: false, allowEmbedded: false });
  try {
    if (session.skipped.includes(server)) {
      throw new CliError(
        `project server "${server}" is not served: ${session.whySkipped?.get(server) ?? "not approved yet"}. Approve it with: ${approveCommandFor([server])}`,
        EXIT.failure,
      );
    }
    // An entry `mcp hosts pool` rewrote runs this shim: what it serves is the original (its approval too).
    const found = session.configs[server];
    const config = found === undefined ? undefined : (unwrapShimConfig(found) ?? found);
    const broken = session.configErrors.find((error) => error.server === server);
    if (config === undefined)
      throw new CliError(`server "${server}" cannot be served${broken ? `: ${broken.message}` : ""}`, EXIT.failure);
    const source = session.servers[server]?.source.file;
    if (!("command" in config))
      throw new CliError(
        `server "${server}" is an HTTP server: a host reaches it directly, the pool serves stdio servers`,
        EXIT.usage,
      );
    if (runsTheShim(config))
      throw new CliError(
        `server "${server}"${source ? ` in ${source}` : ""} runs mcp daemon stdio itself: give the file that has its own command with --config <file>`,
        EXIT.usage,
      );
    const [command, ...args] = words.command ?? [];
    if (command !== undefined && (config.command !== command || (config.args ?? []).join("\0") !== args.join("\0"))) {
      // The entry found by name wins over the words the host passed (they may be another file's, or unexpanded): said, not refused.
      process.stderr.write(
        `mcp daemon stdio ${server}: serving the entry in ${source ?? "your config"} (${[config.command, ...(config.args ?? [])].join(" ")}), not the command this shim was given after --\n`,
      );
    }
    return {
      config: asThisShellRuns({ [server]: config }, session.cwd).configs[server]!,
      source,
      project: session.cwd,
      vars: variablesNamedIn([
        ...[...Object.values(session.servers), ...session.shadowed].map((entry) => entry.source.file),
        ...session.configErrors.map((error) => error.file),
      ]),
    };
  } finally {
    await session.close();
  }
}

/** Variables that decide where the daemon's socket and files are. */
const WHERE_IT_LIVES = /^(HOME|XDG_[A-Z_]+|MCP_DAEMON_SOCKET|TMPDIR)$/;

/** How long a start lock may be held before another shim takes it over (its holder died). */
const LOCK_STALE_MS = 20_000;

/**
 * This user's daemon, started when none answers. Shims that start at once (a host opening all its
 * servers) start one daemon between them: the first takes a lock file next to the socket, the rest
 * wait for the socket to answer.
 */
async function ensureDaemon(entryEnv: readonly string[] = []): Promise<string> {
  const socket = claimDaemonSocket();
  const lock = join(dirname(socket), "start.lock");
  const deadline = Date.now() + 20_000;
  while ((await probe(socket, 1000)) !== "live") {
    if (Date.now() > deadline) throw new CliError(`the mcp daemon did not start on ${socket}`);
    let held: number | undefined;
    try {
      held = openSync(lock, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
      } catch {
        // removed meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 50)); // another shim is starting it: poll its socket
      continue;
    }
    try {
      closeSync(held);
      // The host gave this shim the entry's own env (a server's token, its NODE_OPTIONS): the daemon,
      // which serves every host after, starts without it (the server still gets it, from its config).
      // Where the daemon lives (HOME, XDG_*, MCP_DAEMON_SOCKET) is kept: it must listen where this shim looks.
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !entryEnv.includes(name) || WHERE_IT_LIVES.test(name)),
      );
      if ((await probe(socket, 1000)) !== "live") await spawnDaemon(socket, {}, env);
    } finally {
      rmSync(lock, { force: true });
    }
  }
  const trusted = checkSocket(socket);
  if (trusted.state === "foreign") throw new CliError(`not using ${socket}: ${trusted.problem}`);
  return socket;
}

/** What the shim serves, resolved as this shell runs it, and the daemon's socket (started if need be). */
export interface ShimResolved {
  config: MCPServerConfig & { command: string };
  source?: string | undefined;
  from?: string | undefined;
  /** The shim's folder: the project whose files the pool's approval check reads. */
  project?: string | undefined;
  /** The shell's values of the variables the config files name, for the pool's approval check only (pool-socket.ts's `AttachParams.vars`). */
  vars?: Record<string, string> | undefined;
  socket: string;
}

/** The server as this shell runs it and this user's daemon (started if need be); a `CliError` saying why not. */
export async function resolveForShim(
  globals: GlobalOptions,
  server: string,
  words: ShimWords = {},
): Promise<ShimResolved> {
  if (process.platform === "win32")
    throw new CliError(
      "mcp daemon stdio needs a Unix socket: Windows named pipes are not supported for the pool yet",
      EXIT.usage,
    );
  const { config, source, project, vars } = await resolveServer(globals, server, words);
  const socket = await ensureDaemon("env" in config ? Object.keys(config.env ?? {}) : []);
  return {
    config: config as ShimResolved["config"],
    source: source ?? words.from,
    from: words.from,
    project,
    vars,
    socket,
  };
}

/**
 * The hidden `mcp daemon resolve <server>`, run by the shim in a child process so the shim that
 * stays with the host for its whole session holds none of the code that finds servers: prints the
 * server as this shell runs it, its source and the daemon's socket (started if need be), as one
 * JSON line; or fails saying why (on stderr, which the shim passes on).
 */
export async function daemonResolve(globals: GlobalOptions, server: string, words: ShimWords = {}): Promise<number> {
  const resolved = await resolveForShim(globals, server, words);
  process.stdout.write(`${JSON.stringify(resolved)}\n`);
  return EXIT.ok;
}
