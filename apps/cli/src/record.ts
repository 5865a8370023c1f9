// `mcp call --record <file>`: the call's connection recorded by @mcp/replay's openRecording.
import { openRecording as openFile, RecordingError, type RecordingFile } from "@mcp/replay";
import { CliError, EXIT, warn } from "./ui.js";

export type { RecordingFile };

/** Opens `--record <path>`: a file that cannot be created is a usage error, before any server starts; a later write failure is warned once. */
export function openRecording(path: string): RecordingFile {
  try {
    return openFile(path, {
      onError: (error) => warn(`--record ${path}: ${error.message}; the recording is incomplete`),
    });
  } catch (error) {
    if (error instanceof RecordingError) throw new CliError(`--record ${error.message}`, EXIT.usage);
    throw error;
  }
}
