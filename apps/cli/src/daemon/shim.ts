// `mcp daemon stdio <server>`: the shim a host runs as a stdio server's command. It finds the server
// as `mcp call` would (the same files, the same approval of project servers), writes in this shell's
// folder and environment (environment.ts), and asks this user's daemon (started if none runs) to
// serve it from the pool: one process per resolved configuration for every host (@mcp/pool). Then
// it passes JSON-RPC lines both ways until the host closes stdin, and exits; it starts nothing else.

import { constants } from "node:buffer";
import { closeSync, openSync, rmSync, statSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import type { MCPServerConfig } from "@mcp/client";
import { approveCommandFor } from "../approvals.js";
import { openSession, type GlobalOptions } from "../session.js";
import { CliError, EXIT } from "../ui.js";
import { claimDaemonSocket, spawnDaemon } from "./command.js";
import { asThisShellRuns } from "./environment.js";
import type { AttachParams } from "./pool-socket.js";
import { checkSocket } from "./private.js";
import { probe } from "./server.js";
import { onMessages, send } from "./wire.js";

/** Whether a config runs this shim itself (`… daemon stdio …`): following it would loop. */
export function runsTheShim(config: MCPServerConfig): boolean {
  if (!("command" in config)) return false;
  const words = [config.command, ...(config.args ?? [])];
  return words.some((word, i) => word === "daemon" && words[i + 1] === "stdio");
}

/** The server as this shell runs it, and where it came from; a `CliError` saying why not. */
async function resolveServer(globals: GlobalOptions, server: string): Promise<{ config: MCPServerConfig; source: string | undefined }> {
  if (globals.yes) throw new CliError("mcp daemon stdio does not take --yes: a project server is served only once approved (mcp config approve)", EXIT.usage);
  if (globals.stdio || globals.http || globals.sse) throw new CliError("mcp daemon stdio serves a configured server: name it (--stdio, --http and --sse are not for the shim)", EXIT.usage);
  const session = await openSession({ ...globals, server: [server] }, { connect: false, allowEmbedded: false });
  try {
    if (session.skipped.includes(server)) {
      throw new CliError(`project server "${server}" is not served: ${session.whySkipped?.get(server) ?? "not approved yet"}. Approve it with: ${approveCommandFor([server])}`, EXIT.failure);
    }
    const config = session.configs[server];
    const broken = session.configErrors.find((error) => error.server === server);
    if (config === undefined) throw new CliError(`server "${server}" cannot be served${broken ? `: ${broken.message}` : ""}`, EXIT.failure);
    const source = session.servers[server]?.source.file;
    if (!("command" in config)) throw new CliError(`server "${server}" is an HTTP server: a host reaches it directly, the pool serves stdio servers`, EXIT.usage);
    if (runsTheShim(config)) throw new CliError(`server "${server}"${source ? ` in ${source}` : ""} runs mcp daemon stdio itself: give the file that has its own command with --config <file>`, EXIT.usage);
    return { config: asThisShellRuns({ [server]: config }, session.cwd).configs[server]!, source };
  } finally {
    await session.close();
  }
}

/** How long a start lock may be held before another shim takes it over (its holder died). */
const LOCK_STALE_MS = 20_000;

/**
 * This user's daemon, started when none answers. Shims that start at once (a host opening all its
 * servers) start one daemon between them: the first takes a lock file next to the socket, the rest
 * wait for the socket to answer.
 */
async function ensureDaemon(): Promise<string> {
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
      if ((await probe(socket, 1000)) !== "live") await spawnDaemon(socket, {});
    } finally {
      rmSync(lock, { force: true });
    }
  }
  const trusted = checkSocket(socket);
  if (trusted.state === "foreign") throw new CliError(`not using ${socket}: ${trusted.problem}`);
  return socket;
}

function connect(socket: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    connection.once("connect", () => {
      connection.off("error", reject);
      resolve(connection);
    });
    connection.once("error", reject);
  });
}

/** `mcp daemon stdio <server>`: serves the host on stdin/stdout until it closes stdin. */
export async function daemonStdio(globals: GlobalOptions, server: string): Promise<number> {
  if (process.platform === "win32") throw new CliError("mcp daemon stdio needs a Unix socket: Windows named pipes are not supported for the pool yet", EXIT.usage);
  const { config, source } = await resolveServer(globals, server);
  const connection = await connect(await ensureDaemon());
  connection.on("error", () => {});
  const params: AttachParams = { server, config: config as AttachParams["config"], source, shimPid: process.pid, parentPid: process.ppid };
  return new Promise<number>((resolve) => {
    let code: number = EXIT.ok;
    let attached = false;
    const fail = (message: string, exitCode: number = EXIT.failure): void => {
      process.stderr.write(`mcp daemon stdio ${server}: ${message}\n`);
      code = exitCode;
      connection.destroy();
    };
    let hostDone = false;
    connection.once("close", () => {
      if (!hostDone && code === EXIT.ok) {
        process.stderr.write(`mcp daemon stdio ${server}: the mcp daemon went away\n`);
        code = EXIT.failure;
      }
      process.stdin.destroy();
      resolve(code);
    });
    onMessages(
      connection,
      (message) => {
        if (message.error) return fail(message.error.message, message.error.exitCode);
        if (message.id === 0 && message.mcp !== undefined) return void process.stdout.write(`${JSON.stringify(message.mcp)}\n`);
        if (message.id === 1 && !attached) {
          attached = true;
          readHost();
        }
      },
      (problem) => fail(`the daemon sent ${problem}`),
      constants.MAX_STRING_LENGTH,
    );
    const readHost = (): void => {
      const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
      lines.on("line", (line) => {
        if (line.trim() === "") return;
        let mcp: unknown;
        try {
          mcp = JSON.parse(line);
        } catch {
          process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: a line that is not JSON" } })}\n`);
          return;
        }
        send(connection, { id: 0, mcp });
      });
      // The host closed stdin: this session ends (the daemon cancels what it had in flight).
      lines.once("close", () => {
        hostDone = true;
        connection.end();
      });
    };
    send(connection, { id: 1, method: "pool/attach", params });
  });
}
