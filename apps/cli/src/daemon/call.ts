// `mcp call` through the daemon, when one runs: the CLI finds the servers as always (variables
// expanded from this shell's environment, now) and sends them with the call, written as this shell
// runs them (folder and environment: @mcp/daemon's asThisShellRuns); the daemon answers from servers it keeps
// running for exactly that configuration. No daemon (or one that is not this user's, or that
// declines the call because it cannot run it as this shell would) and the CLI starts the server
// itself, saying so when a daemon was expected.

import { existsSync } from "node:fs";
import type { CallToolResult } from "@mcp/client";
import { progressReporter } from "../live.js";
import type { GlobalOptions, Session } from "../session.js";
import { note } from "../ui.js";
import { CALL_METHOD as CALL, callParamsFor, daemonRequest, DaemonError, DaemonUnavailable } from "@mcp/daemon/client";
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
export async function callThroughDaemon(
  session: Session,
  globals: GlobalOptions,
  words: string[],
  maxResultChars: number | undefined,
  signal: AbortSignal,
): Promise<CalledTool | undefined> {
  if (process.env["MCP_NO_DAEMON"] === "1") return undefined;
  const socket = daemonSocket();
  if (process.platform !== "win32" && !existsSync(socket)) return undefined;
  // Tool lists and OAuth tokens in Redis: the daemon keeps none of its own there.
  if (session.shared) {
    note(
      "mcp daemon: not used while MCP_REDIS_URL is set (the daemon keeps tool lists and OAuth tokens only in your folders, not in Redis); starting the server here instead",
    );
    return undefined;
  }
  let progress: ReturnType<typeof progressReporter> | undefined;
  try {
    const params = callParamsFor(session, { words, timeout: globals.timeout, maxResultChars });
    const answer = (await daemonRequest(socket, CALL, params, {
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
    // A daemon of an earlier mcp does not know the call as this mcp sends it: it ran nothing.
    if (error instanceof DaemonError && error.message === `unknown method ${CALL}`) {
      note(
        "mcp daemon: the running daemon is from an earlier mcp and cannot run a call as this shell would (stop it with: mcp daemon stop); starting the server here instead",
      );
      return undefined;
    }
    throw error;
  } finally {
    progress?.stop();
  }
}
