// `mcp daemon stdio <server>`: the shim a host runs as a stdio server's command. A child process
// (`mcp daemon resolve`, shim.ts) finds the server and starts the daemon; this process, which stays
// with the host for its whole session, only asks the daemon to serve that server from its pool (one
// process per resolved configuration for every host, @mcp/pool) and passes JSON-RPC lines both ways
// until the host closes stdin. It loads nothing else, to stay small (see docs/benchmarks.md).

import { spawnSync } from "node:child_process";
import { constants } from "node:buffer";
import { createConnection, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { CliError, EXIT } from "../ui.js";
import type { AttachParams } from "./pool-socket.js";
import { checkSocket } from "./private.js";
import { onMessages, send } from "./wire.js";

/** What `mcp daemon resolve` prints. */
interface Resolved {
  config: AttachParams["config"];
  source?: string | undefined;
  /** The `--from <host>:<scope>` label `mcp hosts pool` wrote. */
  from?: string | undefined;
  /** The shell's folder: whose project files the daemon's approval check reads. */
  project?: string | undefined;
  /** This shell's values of the variables the config files name (`${VAR}`). */
  vars?: Record<string, string> | undefined;
  socket: string;
}

/** The server and the daemon's socket, from `mcp daemon resolve` run with this process's own words; its exit code when it failed (it said why on stderr). */
function resolveInChild(server: string): Resolved | number {
  const argv = process.argv.slice(2);
  const at = argv.findIndex((word, i) => word === "stdio" && argv[i - 1] === "daemon");
  if (at < 0) throw new CliError("mcp daemon stdio: cannot find its own words in the command line", EXIT.usage);
  argv[at] = "resolve";
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (child.status !== 0) return child.status ?? EXIT.failure;
  try {
    return JSON.parse(child.stdout) as Resolved;
  } catch {
    throw new CliError(`mcp daemon stdio ${server}: mcp daemon resolve printed no server`);
  }
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
export async function daemonStdio(server: string): Promise<number> {
  if (process.platform === "win32")
    throw new CliError(
      "mcp daemon stdio needs a Unix socket: Windows named pipes are not supported for the pool yet",
      EXIT.usage,
    );
  const resolved = resolveInChild(server);
  if (typeof resolved === "number") return resolved;
  const { config, source, from, project, vars, socket } = resolved;
  const trusted = checkSocket(socket);
  if (trusted.state !== "ours")
    throw new CliError(`not using ${socket}: ${trusted.state === "foreign" ? trusted.problem : "no daemon socket"}`);
  const connection = await connect(socket);
  connection.on("error", () => {});
  const params: AttachParams = {
    server,
    config,
    source,
    from,
    project,
    vars,
    shimPid: process.pid,
    parentPid: process.ppid,
  };
  return new Promise<number>((resolve) => {
    let code: number = EXIT.ok;
    let attached = false;
    let hostDone = false;
    const fail = (message: string, exitCode: number = EXIT.failure): void => {
      process.stderr.write(`mcp daemon stdio ${server}: ${message}\n`);
      code = exitCode;
      connection.destroy();
    };
    connection.once("close", () => {
      if (!hostDone && code === EXIT.ok) {
        process.stderr.write(`mcp daemon stdio ${server}: the mcp daemon went away\n`);
        code = EXIT.failure;
      }
      process.stdin.destroy();
      resolve(code);
    });
    const readHost = (): void => {
      const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
      lines.on("line", (line) => {
        if (line.trim() === "") return;
        let mcp: unknown;
        try {
          mcp = JSON.parse(line);
        } catch {
          process.stdout.write(
            `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: a line that is not JSON" } })}\n`,
          );
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
    onMessages(
      connection,
      (message) => {
        if (message.error) return fail(message.error.message, message.error.exitCode);
        if (message.id === 0 && message.mcp !== undefined)
          return void process.stdout.write(`${JSON.stringify(message.mcp)}\n`);
        if (message.id === 1 && !attached) {
          attached = true;
          readHost();
        }
      },
      (problem) => fail(`the daemon sent ${problem}`),
      constants.MAX_STRING_LENGTH,
    );
    send(connection, { id: 1, method: "pool/attach", params });
  });
}
