// The Node shim's relay (`@mcp/daemon/shim`; what `mcp daemon stdio <server>` runs): a host runs the
// shim as a stdio server's command; once the server is resolved and the daemon runs (the caller's
// part: the `mcp` CLI does both in a child process), this process, which stays with the host for its
// whole session, only asks the daemon to serve that server from its pool (one process per resolved
// configuration for every host, @mcp/pool) and passes JSON-RPC lines both ways until the host closes
// stdin. It loads nothing else, to stay small (see docs/benchmarks.md).

import { constants } from "node:buffer";
import { createConnection, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { DaemonError, EXIT } from "./errors.js";
import type { AttachParams } from "./pool-socket.js";
import { checkSocket } from "./private.js";
import { onMessages, send } from "./wire.js";

export { DaemonError } from "./errors.js";
export type { AttachParams } from "./pool-socket.js";

/** Options of {@link relayStdio}. */
export interface RelayStdioOptions {
  /** The daemon's socket (checked to be this user's alone before anything is sent). */
  socket: string;
  /** The server to attach to, resolved as the host's shell runs it (`asThisShellRuns`). */
  params: AttachParams;
  /** What the host writes (default: this process's stdin). */
  input?: NodeJS.ReadableStream | undefined;
  /** What the host reads (default: this process's stdout). */
  output?: NodeJS.WritableStream | undefined;
  /** Where a problem is said, one line each (default: this process's stderr, `mcp daemon stdio <server>: …`). */
  onProblem?: ((message: string) => void) | undefined;
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

/**
 * Relays a host's JSON-RPC lines (`input`/`output`, default this process's stdin/stdout) to the
 * server `params` names in the daemon's pool on `socket`, until the host closes its input or the
 * daemon ends the session; resolves with the exit code a shim ends with (0 when the host closed its
 * input; else the daemon's, after saying why on `onProblem`). Unix only (a `DaemonError` on Windows).
 */
export async function relayStdio(options: RelayStdioOptions): Promise<number> {
  const { socket, params } = options;
  const server = params.server;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const say =
    options.onProblem ?? ((message: string) => process.stderr.write(`mcp daemon stdio ${server}: ${message}\n`));
  if (process.platform === "win32")
    throw new DaemonError(
      "mcp daemon stdio needs a Unix socket: Windows named pipes are not supported for the pool yet",
      EXIT.usage,
    );
  const trusted = checkSocket(socket);
  if (trusted.state !== "ours")
    throw new DaemonError(`not using ${socket}: ${trusted.state === "foreign" ? trusted.problem : "no daemon socket"}`);
  const connection = await connect(socket);
  connection.on("error", () => {});
  return new Promise<number>((resolve) => {
    let code: number = 0;
    let attached = false;
    let hostDone = false;
    const fail = (message: string, exitCode: number = EXIT.failure): void => {
      say(message);
      code = exitCode;
      connection.destroy();
    };
    connection.once("close", () => {
      if (!hostDone && code === 0) {
        say("the mcp daemon went away");
        code = EXIT.failure;
      }
      (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      resolve(code);
    });
    const readHost = (): void => {
      const lines = createInterface({ input, crlfDelay: Infinity });
      lines.on("line", (line) => {
        if (line.trim() === "") return;
        let mcp: unknown;
        try {
          mcp = JSON.parse(line);
        } catch {
          output.write(
            `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: a line that is not JSON" } })}\n`,
          );
          return;
        }
        // The daemon reads no more of this host (its requests held are over the pool's mark): neither does the shim.
        if (!connection.destroyed && !connection.write(`${JSON.stringify({ id: 0, mcp })}\n`)) {
          input.pause();
          connection.once("drain", () => input.resume());
        }
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
        if (message.id === 0 && message.mcp !== undefined) {
          // The host does not read its stdout: neither does the shim read the daemon (which then stops reading the host).
          if (!output.write(`${JSON.stringify(message.mcp)}\n`) && !connection.isPaused()) {
            connection.pause();
            output.once("drain", () => connection.resume());
          }
          return;
        }
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
