// The daemon's wire: one JSON object per line over a Unix socket (a named pipe on Windows; where it
// lives: place.ts).

import type { Socket } from "node:net";

/** A message between a client (the CLI, a shim) and the daemon. Requests have `method`; answers echo the `id`. */
export interface DaemonMessage {
  id: number;
  method?: string;
  params?: unknown;
  /** The daemon is about to call the tool: from here on, the call may have run. */
  calling?: string;
  /** The daemon does not take this call, and why (it cannot run it as the calling shell would): nothing ran. */
  declined?: string;
  progress?: { progress: number; total?: number | undefined; message?: string | undefined };
  result?: unknown;
  error?: { message: string; exitCode: number };
  /** A JSON-RPC message between a host (through its `mcp daemon stdio` shim) and a pooled server. */
  mcp?: unknown;
}

/** The longest line the daemon reads (16 MiB): a request is a call's configs and words, far less. */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** What {@link onMessages} does with a line it refuses. */
export type Refusal = (problem: string) => void;

/** The message in `line`, or why it is not one: a JSON object with a whole-number `id`. */
function parse(line: string): DaemonMessage | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "a line that is not JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `a message that is not a JSON object (${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value})`;
  const id = (value as { id?: unknown }).id;
  if (typeof id !== "number" || !Number.isSafeInteger(id)) return "a message without a whole-number id";
  return value as DaemonMessage;
}

/**
 * Reads newline-framed JSON messages from `socket` (`handle` is given each with its line's length
 * in bytes). Each chunk is scanned once (a long line costs
 * its length, not its length squared); a line over `maxLineBytes`, a line that is not JSON and a
 * message that is not an object with an `id` go to `refuse` and end the reading (the owner answers
 * and closes the connection), as does a message `handle` throws on: nothing escapes into the
 * socket's event, where it would end the process. A `handle` that pauses the socket stops the
 * reading there: the chunk's other lines wait for `resume`.
 */
export function onMessages(
  socket: Socket,
  handle: (message: DaemonMessage, bytes: number) => void,
  refuse: Refusal,
  maxLineBytes = MAX_REQUEST_BYTES,
): void {
  let parts: Buffer[] = [];
  let size = 0;
  let refused = false;
  const stop = (problem: string): void => {
    refused = true;
    parts = [];
    refuse(problem);
  };
  socket.on("data", (chunk: Buffer) => {
    if (refused) return;
    let start = 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, at);
      start = at + 1;
      if (size + piece.length > maxLineBytes) return stop(`a line longer than ${maxLineBytes} bytes`);
      // A newline byte is never inside a UTF-8 character: the bytes before it decode on their own.
      const bytes = size + piece.length;
      const line = (size === 0 ? piece : Buffer.concat([...parts, piece], bytes)).toString("utf8");
      parts = [];
      size = 0;
      if (line.trim() === "") continue;
      const message = parse(line);
      if (typeof message === "string") return stop(message);
      try {
        handle(message, bytes);
      } catch (error) {
        return stop(`a message that could not be handled (${(error as Error).message})`);
      }
      if (refused || socket.destroyed) return;
      if (socket.isPaused()) {
        if (start < chunk.length) socket.unshift(chunk.subarray(start));
        return;
      }
    }
    if (start < chunk.length) {
      if (size + chunk.length - start > maxLineBytes) return stop(`a line longer than ${maxLineBytes} bytes`);
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  });
}

/** Writes one message. */
export function send(socket: Socket, message: DaemonMessage): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}
