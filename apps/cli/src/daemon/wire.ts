// The daemon's wire: one JSON object per line over a Unix socket (a named pipe on Windows), and
// where that socket lives for this user.

import { createHash } from "node:crypto";
import type { Socket } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/** A message between the CLI and the daemon. Requests have `method`; answers echo the `id`. */
export interface DaemonMessage {
  id: number;
  method?: string;
  params?: unknown;
  /** The daemon is about to call the tool: from here on, the call may have run. */
  calling?: string;
  progress?: { progress: number; total?: number | undefined; message?: string | undefined };
  result?: unknown;
  error?: { message: string; exitCode: number };
}

/**
 * The socket of this user's daemon: `MCP_DAEMON_SOCKET`, else `daemon/daemon.sock` in our cache folder,
 * or, when that path is too long for a Unix socket, `daemon.sock` in a folder of its own in the temp
 * folder (`mcp-cli-<uid>-<hash>`); a named pipe on Windows. The socket's folder is private: the
 * daemon creates it (mode 700) or refuses to start, and the CLI checks it before connecting.
 */
export function socketPath(cacheDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env["MCP_DAEMON_SOCKET"];
  if (given) return given;
  const hash = createHash("sha256").update(cacheDir).digest("hex");
  if (process.platform === "win32") return `\\\\.\\pipe\\mcp-cli-daemon-${userInfo().username}-${hash.slice(0, 8)}`;
  const path = join(cacheDir, "daemon", "daemon.sock");
  // sun_path holds 108 bytes on Linux, 104 on macOS.
  return Buffer.byteLength(path) < 100 ? path : join(tmpdir(), `mcp-cli-${process.getuid?.() ?? userInfo().uid}-${hash.slice(0, 12)}`, "daemon.sock");
}

/** Reads newline-framed JSON from `socket`; a line that is not JSON closes it. */
export function onMessages(socket: Socket, handle: (message: DaemonMessage) => void): void {
  let buffer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (line.trim() === "") continue;
      let message: DaemonMessage;
      try {
        message = JSON.parse(line) as DaemonMessage;
      } catch {
        socket.destroy(new Error("the peer sent a line that is not JSON"));
        return;
      }
      handle(message);
    }
  });
}

/** Writes one message. */
export function send(socket: Socket, message: DaemonMessage): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}
