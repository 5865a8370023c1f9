// `mcp call --record <file>`: every JSON-RPC message of the call's connection, one JSON object a line.
import { createWriteStream, openSync } from "node:fs";
import type { RecordListener } from "@mcp/client";
import { CliError, EXIT, warn } from "./ui.js";

/** An open recording file. */
export interface RecordingFile {
  /** Gives each message to the file (the `record` option of a connection). */
  record: RecordListener;
  /** Writes what is left and closes the file. */
  close(): Promise<void>;
}

/**
 * Creates (or empties) `path`, readable by this user only (a recording holds what the server
 * answered), and writes each recorded message to it as one NDJSON line. A file that cannot be
 * created fails at once, before any server starts; a write that fails later is told once.
 */
export function openRecording(path: string): RecordingFile {
  let fd: number;
  try {
    fd = openSync(path, "w", 0o600);
  } catch (error) {
    throw new CliError(`--record ${path}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, EXIT.usage);
  }
  const stream = createWriteStream(path, { fd });
  let failed = false;
  stream.on("error", (error) => {
    if (!failed) warn(`--record ${path}: ${error.message}; the recording is incomplete`);
    failed = true;
  });
  return {
    record: (entry) => {
      if (!failed) stream.write(`${JSON.stringify(entry)}\n`);
    },
    close: () =>
      new Promise((resolve) => {
        if (stream.destroyed) return resolve();
        stream.end(() => resolve());
        stream.once("error", () => resolve());
      }),
  };
}
