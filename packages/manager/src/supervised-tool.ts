// A supervised server's tool as the manager offers it: a callable that waits for the server, checks the tool is still
// offered and not held, and retries once on a new session when that is safe.
import { callTool, type CallToolOptions, type CallToolResult, type MCPServerConnection, type Tool } from "@mcp/client";
import { NetworkError } from "@mcp/jsonrpc";
import type { DiscoveredServer } from "./config/types.js";
import { isRetryableAfterReconnect, offersTool } from "./server.js";
import { ToolUnavailableError, type MCPTool, type ServerStatus } from "./types.js";

const PROBE_TIMEOUT_MS = 5000; // the ping after a network error mid-call

/** What a tool needs of the server that offers it (a ServerSupervisor, with its private parts passed in). */
export interface ToolServer {
  readonly name: string;
  readonly discovered: DiscoveredServer | undefined;
  readonly status: ServerStatus;
  readonly connection: MCPServerConnection | undefined;
  readonly tools: Tool[];
  waitForConnection(signal?: AbortSignal): Promise<MCPServerConnection>;
  probe(timeout: number, connection?: MCPServerConnection): Promise<void>;
  /** The error a held tool's call fails with (tool pins), or undefined. */
  held(tool: string): Error | undefined;
  /** Reconnects after a call found the session `stale` gone (shared by concurrent callers). */
  recover(stale: MCPServerConnection): Promise<MCPServerConnection>;
}

/** One of a server's tools as the manager offers it, under the model-facing `name`. */
export function supervisedTool(server: ToolServer, tool: Tool, name: string): MCPTool {
  return {
    name,
    serverName: server.name,
    toolName: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
    definition: tool,
    get deferred() {
      return server.status.state !== "connected";
    },
    call: (args = {}, options = {}) => {
      const timeout = options.timeout ?? server.discovered?.toolTimeoutMs;
      const callOptions: CallToolOptions = timeout === undefined ? options : { ...options, timeout };
      // Checked per connection: a cached tool, or a retry's new session, whose live list may hold or drop it.
      const checked = (connection: MCPServerConnection): Promise<CallToolResult> => {
        const refused =
          server.held(tool.name) ??
          (offersTool(server.tools, tool.name) ? undefined : new ToolUnavailableError(server.name, tool.name));
        return refused ? Promise.reject(refused) : callTool(connection, tool.name, args, callOptions);
      };
      const send = (connection: MCPServerConnection): Promise<CallToolResult> =>
        checked(connection).catch(async (error: unknown) => {
          if (!isRetryableAfterReconnect(error) || options.signal?.aborted) {
            // A reset mid-call may mean the server is gone: find out now, not at the next call.
            if (NetworkError.isInstance(error)) void server.probe(PROBE_TIMEOUT_MS, connection);
            throw error;
          }
          return checked(await server.recover(connection));
        });
      // Connected (the usual case): the call goes at once, with no wait and no promise of its own.
      return server.status.state === "connected" && server.connection
        ? send(server.connection)
        : server.waitForConnection(options.signal).then(send);
    },
  };
}
