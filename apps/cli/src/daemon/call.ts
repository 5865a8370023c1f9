// `mcp call` through the daemon, when one runs: the CLI finds the servers as always and sends them
// with the call; the daemon answers from servers it keeps running. No daemon (or one that does not
// take the call) and the CLI starts the server itself, saying so when a daemon was expected.

import { existsSync } from "node:fs";
import type { CallToolResult } from "@mcp/client";
import { progressReporter } from "../live.js";
import type { GlobalOptions, Session } from "../session.js";
import { note } from "../ui.js";
import { daemonRequest, DaemonUnavailable } from "./client.js";
import { daemonSocket } from "./command.js";

/** A tool call's outcome, wherever it ran. */
export interface CalledTool {
  label: string;
  toolName: string;
  value: CallToolResult;
}

/**
 * Calls through the daemon. Undefined when there is none (or it did not take the call): the
 * caller then runs it here. `MCP_NO_DAEMON=1` never uses it.
 */
export async function callThroughDaemon(session: Session, globals: GlobalOptions, words: string[], maxResultChars: number | undefined, signal: AbortSignal): Promise<CalledTool | undefined> {
  if (process.env["MCP_NO_DAEMON"] === "1") return undefined;
  const socket = daemonSocket();
  if (process.platform !== "win32" && !existsSync(socket)) return undefined;
  let progress: ReturnType<typeof progressReporter> | undefined;
  try {
    const answer = (await daemonRequest(socket, "call", { configs: session.configs, servers: session.servers, words, cwd: session.cwd, timeout: globals.timeout, maxResultChars, skipped: Object.fromEntries(session.skipped.map((name) => [name, session.whySkipped?.get(name) ?? "not approved yet"])) }, {
      signal,
      onProgress: (p) => {
        progress ??= progressReporter(words[0] ?? "tool");
        progress.update(p);
      },
    })) as CalledTool;
    return answer;
  } catch (error) {
    if (error instanceof DaemonUnavailable) {
      note(`mcp daemon: ${error.message}; starting the server here instead`);
      return undefined;
    }
    throw error;
  } finally {
    progress?.stop();
  }
}
