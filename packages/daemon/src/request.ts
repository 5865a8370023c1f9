// A client's side of the daemon: send one request, get progress and the answer. A daemon that is
// not there, is not this user's, or goes away before it starts the call, is `DaemonUnavailable`:
// the caller then does the work itself. Once the daemon has said it is calling the tool, the call
// is never sent again.

import { constants } from "node:buffer";
import { existsSync } from "node:fs";
import { createConnection } from "node:net";
import { CALL, type CallParams } from "./call.js";
import { DaemonError, DaemonUnavailable, DaemonUntrusted } from "./errors.js";
import type { Ticket } from "./light-relay.js";
import type { AttachParams } from "./pool-socket.js";
import { checkSocket } from "./private.js";
import { onMessages, send, type DaemonMessage } from "./wire.js";

/** Options of {@link daemonRequest}. */
export interface DaemonRequestOptions {
  /** Aborting closes the connection, which is how the daemon is told to cancel the call. */
  signal?: AbortSignal | undefined;
  /** Each progress notification of the call. */
  onProgress?: ((progress: NonNullable<DaemonMessage["progress"]>) => void) | undefined;
  /** How long the daemon may take to accept the connection (default 2000 ms). */
  connectTimeoutMs?: number | undefined;
}

/**
 * Sends `method` with `params` to the daemon on `socket` and resolves with its answer. Rejects with
 * `DaemonUntrusted` (nothing sent: the socket or its folder is not this user's alone),
 * `DaemonUnavailable` (nothing ran: no daemon, or it declined) or `DaemonError` (its error answer
 * with the exit code it gave, or it went away after it said it was calling: the call may have run).
 */
export function daemonRequest(
  socket: string,
  method: string,
  params: unknown,
  options: DaemonRequestOptions = {},
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
        : new DaemonError(
            `the mcp daemon went away while calling ${calling}; it may have run, so it is not sent again`,
          );
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
        else if (message.error) done(() => reject(new DaemonError(message.error!.message, message.error!.exitCode)));
        else if ("result" in message) done(() => resolve(message.result));
      },
      // An answer may be a whole tool result: as long as a string can be.
      (problem) =>
        done(() =>
          reject(
            calling === undefined
              ? new DaemonUnavailable(`the daemon sent ${problem}`)
              : new DaemonError(
                  `the mcp daemon sent ${problem} while calling ${calling}; it may have run, so it is not sent again`,
                ),
          ),
        ),
      constants.MAX_STRING_LENGTH,
    );
  });
}

/**
 * What {@link callThroughDaemon} came to: the daemon's answer, or why nothing ran there (the
 * caller then runs the call itself): `absent` (no socket), `unavailable` (not this user's, not
 * answering, or it declined the call: `message` says), `outdated` (a daemon of an earlier version,
 * which does not know the call as this one sends it).
 */
export type DaemonCall =
  { ran: true; answer: unknown } | { ran: false; why: "absent" | "unavailable" | "outdated"; message: string };

/**
 * A call (`call/2`, see `callParamsFor`) through the daemon on `socket`, or why it ran nothing
 * there ({@link DaemonCall}). Anything else (the call's own failure, or the daemon going away once
 * it said it was calling: the call may have run) is thrown, as {@link daemonRequest} throws it.
 */
export async function callThroughDaemon(
  socket: string,
  params: CallParams,
  options: DaemonRequestOptions = {},
): Promise<DaemonCall> {
  if (process.platform !== "win32" && !existsSync(socket))
    return { ran: false, why: "absent", message: `no mcp daemon socket at ${socket}` };
  try {
    return { ran: true, answer: await daemonRequest(socket, CALL, params, options) };
  } catch (error) {
    if (error instanceof DaemonUnavailable) return { ran: false, why: "unavailable", message: error.message };
    if (error instanceof DaemonError && error.message === `unknown method ${CALL}`)
      return { ran: false, why: "outdated", message: error.message };
    throw error;
  }
}

/** Whether a daemon answers on `socket`: "live", "stale" (a socket file nobody listens on) or "absent". */
export function probeDaemon(socket: string, timeoutMs = 1000): Promise<"live" | "stale" | "absent"> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    const timer = setTimeout(() => {
      connection.destroy();
      resolve("stale");
    }, timeoutMs);
    connection.once("connect", () => {
      clearTimeout(timer);
      connection.destroy();
      resolve("live");
    });
    connection.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === "ENOENT" && !existsSync(socket) ? "absent" : "stale");
    });
  });
}

/**
 * A single-use ticket for the light shim's loopback connection to the pooled server `params` names
 * (`pool/ticket`): where to connect, the ticket to say, and the proof the daemon answers it with,
 * each checked to be one. A `DaemonError` when the daemon gave none (a daemon of an earlier version).
 */
export async function requestTicket(socket: string, params: AttachParams, connectTimeoutMs = 10_000): Promise<Ticket> {
  const answer = (await daemonRequest(socket, "pool/ticket", params, { connectTimeoutMs })) as Partial<Ticket> | null;
  const { port, ticket, proof } = answer ?? {};
  const token = /^[A-Za-z0-9_-]{43}$/;
  if (
    !Number.isInteger(port) ||
    typeof ticket !== "string" ||
    !token.test(ticket) ||
    typeof proof !== "string" ||
    !token.test(proof)
  )
    throw new DaemonError("the daemon gave no ticket (an older daemon? stop it with: mcp daemon stop)");
  return { port: port!, ticket, proof };
}
