// A recording served on stdin/stdout, one JSON-RPC message per line.
import type { Readable, Writable } from "node:stream";
import { ErrorCodes, type JsonRpcMessage } from "@mcp/jsonrpc";
import type { ReplaySession } from "./session.js";

/** The longest line read from the client (16 MiB); a longer one is answered with a parse error and skipped. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Calls `onLine` for each newline-ended line of `input` (a final line without one too), each chunk
 * scanned once; a line over `maxBytes` goes to `onTooLong` instead, unbuffered.
 */
export function readLines(
  input: Readable,
  onLine: (line: string) => void,
  onTooLong: () => void,
  maxBytes = MAX_LINE_BYTES,
): void {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const finish = (): void => {
    const line = Buffer.concat(parts).toString("utf8");
    parts = [];
    size = 0;
    if (line.trim() !== "") onLine(line);
  };
  input.on("data", (chunk: Buffer) => {
    let start = 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
      if (!skipping && size + (at - start) <= maxBytes) {
        parts.push(chunk.subarray(start, at));
        finish();
      } else if (!skipping) {
        onTooLong();
      }
      parts = [];
      size = 0;
      skipping = false;
      start = at + 1;
    }
    if (start < chunk.length && !skipping) {
      size += chunk.length - start;
      if (size > maxBytes) {
        skipping = true;
        parts = [];
        onTooLong();
      } else {
        parts.push(chunk.subarray(start));
      }
    }
  });
  input.on("end", () => {
    if (!skipping && size > 0) finish();
  });
}

/** Serves `session` on `input`/`output` until `input` ends; resolves then. A failure while answering goes to `onError`. */
export function serveReplayStdio(
  session: ReplaySession,
  input: Readable,
  output: Writable,
  onError: (error: Error) => void,
): Promise<void> {
  const send = (message: JsonRpcMessage): void => {
    if (!output.writableEnded) output.write(`${JSON.stringify(message)}\n`);
  };
  const parseError = (message: string): void =>
    send({ jsonrpc: "2.0", id: null, error: { code: ErrorCodes.ParseError, message } });
  readLines(
    input,
    (line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        parseError("Parse error: a line that is not JSON");
        return;
      }
      session
        .receive(value, send)
        .catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
    },
    () => parseError(`Parse error: a line over ${MAX_LINE_BYTES} bytes`),
  );
  return new Promise((resolve) => {
    const done = (): void => {
      session.close();
      resolve();
    };
    input.once("end", done);
    input.once("close", done);
  });
}
