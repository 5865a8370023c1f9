// The CLI's side of the daemon: send one request, get progress and the answer. A daemon that is
// not there, is not this user's, or goes away before it starts the call, is `DaemonUnavailable`:
// the CLI then does the work itself. Once the daemon has said it is calling the tool, the call is
// never sent again.

import { constants } from "node:buffer";
import { createConnection } from "node:net";
import { CliError } from "../ui.js";
import { checkSocket } from "./private.js";
import { onMessages, send, type DaemonMessage } from "./wire.js";

/** The daemon did not take the request: nothing was run, the CLI may do it itself. */
export class DaemonUnavailable extends Error {
  override readonly name: string = "DaemonUnavailable";
}

/** The socket is not this user's (its owner, or its folder's owner or mode): nothing was sent to it. */
export class DaemonUntrusted extends DaemonUnavailable {
  override readonly name = "DaemonUntrusted";
}

/** Sends `method` to the daemon on `socket` and resolves with its answer. */
export function daemonRequest(
  socket: string,
  method: string,
  params: unknown,
  options: {
    signal?: AbortSignal | undefined;
    onProgress?: ((progress: NonNullable<DaemonMessage["progress"]>) => void) | undefined;
    connectTimeoutMs?: number | undefined;
  } = {},
): Promise<unknown> {
  // Before connecting: a socket someone else made (or one in a folder others can enter) gets nothing.
  const socketIs = checkSocket(socket);
  if (socketIs.state === "absent") return Promise.reject(new DaemonUnavailable(`no mcp daemon socket at ${socket}`));
  if (socketIs.state === "foreign")
    return Promise.reject(new DaemonUntrusted(`not using ${socket}: ${socketIs.problem}`));
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let calling: string | undefined;
    let settled = false;
    const done = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      connection.destroy();
      fn();
    };
    const timer = setTimeout(
      () =>
        done(() =>
          reject(
            new DaemonUnavailable(
              `the daemon did not answer on ${socket} within ${options.connectTimeoutMs ?? 2000}ms`,
            ),
          ),
        ),
      options.connectTimeoutMs ?? 2000,
    );
    // Closing the socket is how a call is cancelled: the daemon aborts it.
    const onAbort = (): void => done(() => reject(options.signal!.reason));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    connection.once("connect", () => {
      clearTimeout(timer);
      send(connection, { id: 1, method, params });
    });
    const wentAway = (why: string): Error =>
      calling === undefined
        ? new DaemonUnavailable(why)
        : new CliError(`the mcp daemon went away while calling ${calling}; it may have run, so it is not sent again`);
    connection.on("error", (error: NodeJS.ErrnoException) =>
      done(() => reject(wentAway(`the daemon is not answering on ${socket} (${error.code ?? error.message})`))),
    );
    connection.once("close", () => done(() => reject(wentAway(`the daemon closed the connection on ${socket}`))));
    onMessages(
      connection,
      (message) => {
        if (message.calling !== undefined) calling = message.calling;
        else if (typeof message.declined === "string" && calling === undefined)
          done(() => reject(new DaemonUnavailable(`it does not take this call: ${message.declined}`)));
        else if (message.progress) options.onProgress?.(message.progress);
        else if (message.error) done(() => reject(new CliError(message.error!.message, message.error!.exitCode)));
        else if ("result" in message) done(() => resolve(message.result));
      },
      // An answer may be a whole tool result: as long as a string can be.
      (problem) =>
        done(() =>
          reject(
            calling === undefined
              ? new DaemonUnavailable(`the daemon sent ${problem}`)
              : new CliError(
                  `the mcp daemon sent ${problem} while calling ${calling}; it may have run, so it is not sent again`,
                ),
          ),
        ),
      constants.MAX_STRING_LENGTH,
    );
  });
}
