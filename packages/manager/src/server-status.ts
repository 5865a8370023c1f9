// A supervised server's status: the one it starts with, and what a failed attempt or a closed connection writes into it
// (the message, the error's code and HTTP status, why a process ended).
import type { MCPServerConfig } from "@mcp/client";
import type { DiscoveredServer } from "./config/types.js";
import { transportOf } from "./server.js";
import type { ServerState, ServerStatus } from "./types.js";

/** The status of a server not yet connected. */
export function initialStatus(
  name: string,
  config: MCPServerConfig,
  discovered: DiscoveredServer | undefined,
  state: ServerState,
): ServerStatus {
  return {
    name,
    state,
    transport: transportOf(config),
    source: discovered?.source.file,
    scope: discovered?.source.scope,
    connectMs: undefined,
    lastError: undefined,
    lastErrorCode: undefined,
    lastErrorStatus: undefined,
    stderrTail: undefined,
    toolCount: 0,
    toolsFromCache: false,
    failures: 0,
    since: Date.now(),
  };
}

/** A failure's message (prefixed by the method it failed, when it does not say so) and its code and HTTP status. */
export function failureOf(error: Error): {
  message: string;
  detail: Pick<ServerStatus, "lastErrorCode" | "lastErrorStatus">;
} {
  const code = (error as { code?: unknown }).code;
  const status = (error as { status?: unknown }).status;
  const detail = {
    lastErrorCode: typeof code === "string" || typeof code === "number" ? code : undefined,
    lastErrorStatus: typeof status === "number" ? status : undefined,
  };
  // "Request timeout after 5000ms" says more as "tools/list: Request timeout after 5000ms".
  const method = (error as { method?: unknown }).method;
  const message =
    typeof method === "string" && !error.message.includes(method) ? `${method}: ${error.message}` : error.message;
  return { message, detail };
}

/** Why a connection closed: how its server process ended, when it had one. */
export function closeReason(transport: unknown): string {
  const exit = (transport as { exitStatus?: { code: number | null; signal: string | null } } | undefined)?.exitStatus;
  if (!exit) return "the connection closed";
  return exit.signal
    ? `the server process was killed by ${exit.signal}`
    : `the server process exited with code ${String(exit.code)}`;
}
