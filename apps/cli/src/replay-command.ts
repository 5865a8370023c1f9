// `mcp replay <file> --stdio | --http [--port N]`: a recording served as an MCP server by @mcp/replay.
import {
  readRecording,
  RecordingError,
  ReplaySession,
  serveReplayHttp,
  serveReplayStdio,
  type Recording,
  type ReplayEvent,
} from "@mcp/replay";
import { printable } from "@mcp/manager";
import type { GlobalOptions } from "./session.js";
import { stopSignal } from "./stop-signal.js";
import { CliError, color, EXIT, note, out, warn } from "./ui.js";

/** Options of `mcp replay`. */
export interface ReplayOptions {
  stdio?: boolean | undefined;
  http?: boolean | undefined;
  port?: number | undefined;
}

/** Each client message on stderr: the recorded line that answered it, or the error sent. */
function tell(event: ReplayEvent): void {
  // The method is the client's, the error quotes the recording: neither may drive the terminal.
  const method = printable(event.method);
  if (event.error !== undefined) warn(`replay: ${method}: ${printable(event.error)}`);
  else if (event.line !== undefined) note(`replay: ${method} ← line ${event.line}`);
  else note(`replay: ${method} (not in the recording; ignored)`);
}

function load(file: string, globals: GlobalOptions): Recording {
  if ((globals.server?.length ?? 0) > 1)
    throw new CliError("mcp replay serves one server: give one --server", EXIT.usage);
  try {
    return readRecording(file, globals.server?.[0]);
  } catch (error) {
    if (error instanceof RecordingError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/** `mcp replay`. */
export async function replayCommand(globals: GlobalOptions, file: string, options: ReplayOptions): Promise<number> {
  if (Boolean(options.stdio) === Boolean(options.http))
    throw new CliError("mcp replay needs one of --stdio or --http", EXIT.usage);
  const recording = load(file, globals);
  const requests = recording.exchanges.filter((exchange) => exchange.kind === "request").length;
  // The server's name comes from the file, which may be anyone's: shown with its control characters escaped.
  const what = `${printable(file)} (server "${printable(recording.server)}", ${requests} recorded request${requests === 1 ? "" : "s"})`;
  if (options.stdio) {
    const session = new ReplaySession(recording, tell);
    note(`mcp replay: serving ${what} over stdio`);
    const done = new AbortController();
    await Promise.race([
      serveReplayStdio(session, process.stdin, process.stdout, (error) => warn(`replay: ${error.message}`)),
      stopSignal(done.signal),
    ]);
    done.abort();
    session.close();
    return EXIT.ok;
  }
  const server = await serveReplayHttp(recording, { port: options.port, onEvent: tell }).catch((error: unknown) => {
    throw new CliError(`mcp replay could not listen on 127.0.0.1:${options.port ?? 0}: ${(error as Error).message}`);
  });
  if (globals.json) out(JSON.stringify({ url: server.url, pid: process.pid, server: recording.server, requests }));
  else out(`mcp replay is serving ${what} at ${color.bold(server.url)}`);
  await stopSignal();
  await server.close();
  return EXIT.ok;
}
