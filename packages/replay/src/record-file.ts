// A recording written to a file: each message a `record` listener is given, one NDJSON line, readable by this user only.
import { createWriteStream, openSync } from "node:fs";
import type { RecordListener } from "@mcp/client";
import { RecordingError } from "./file.js";

/** An open recording file. */
export interface RecordingFile {
  /** Gives each message to the file: pass it as the `record` option of a connection (or the manager's `connect`). */
  record: RecordListener;
  /** Writes what is left and closes the file. */
  close(): Promise<void>;
}

/** Options of {@link openRecording}. */
export interface OpenRecordingOptions {
  /** A write that failed after the file was opened; told once, and the recording stops there. */
  onError?: ((error: Error) => void) | undefined;
}

/**
 * Creates (or empties) `path`, readable by this user only (a recording holds what the server
 * answered), and writes each recorded message to it as one NDJSON line, the format
 * `readRecording` reads. A file that cannot be created throws {@link RecordingError} at once,
 * before any server starts; a write that fails later goes to `onError`, once.
 */
export function openRecording(path: string, options: OpenRecordingOptions = {}): RecordingFile {
  let fd: number;
  try {
    fd = openSync(path, "w", 0o600);
  } catch (error) {
    throw new RecordingError(
      `cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      path,
    );
  }
  const stream = createWriteStream(path, { fd });
  let failed = false;
  stream.on("error", (error) => {
    if (!failed) options.onError?.(error);
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
