// `SpawnError`: a server that could not be started, and what in its command is wrong.
import { McpError, type McpErrorCode } from "@mcp/jsonrpc";

/** Every `code` of an error a stdio transport gives: its own (`"spawn_failed"`, `"write_queue_full"`) and `@mcp/jsonrpc`'s. */
export type TransportStdioErrorCode = "spawn_failed" | "write_queue_full" | McpErrorCode;

/** The server process could not be started. */
export class SpawnError extends McpError<"spawn_failed"> {
  static override readonly brand: string = "SpawnError";
  declare readonly command: string;
  /** The system error code, e.g. `ENOENT` or `EACCES`. */
  declare readonly errno: string | undefined;

  declare readonly serverName: string | undefined;

  constructor(command: string, cause: NodeJS.ErrnoException, serverName?: string) {
    const why =
      cause.code === "ENOENT"
        ? "command not found (ENOENT); is it installed and on PATH?"
        : cause.code === "EACCES"
          ? "permission denied (EACCES); is the file executable?"
          : `${cause.message}${cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : ""}`;
    const who = serverName === undefined ? "MCP server command" : `MCP server "${serverName}": command`;
    super("spawn_failed", `Failed to start ${who} "${command}": ${why}`, { cause });
    this.command = command;
    this.errno = cause.code;
    this.serverName = serverName;
  }
}
