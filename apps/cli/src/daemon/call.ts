// `mcp call` through the daemon, when one runs: the CLI finds the servers as always (variables
// expanded from this shell's environment, now) and sends them with the call; the daemon answers
// from servers it keeps running for exactly that resolved configuration. No daemon (or one that is
// not this user's, or does not take the call) and the CLI starts the server itself, saying so when
// a daemon was expected.

import { existsSync } from "node:fs";
import type { CallToolResult, MCPServerConfig } from "@mcp/client";
import { progressReporter } from "../live.js";
import type { GlobalOptions, Session } from "../session.js";
import { note } from "../ui.js";
import { daemonRequest, DaemonUnavailable } from "./client.js";
import { daemonSocket } from "./command.js";
import type { CallParams } from "./server.js";

/** A tool call's outcome, wherever it ran. */
export interface CalledTool {
  label: string;
  toolName: string;
  value: CallToolResult;
}

/**
 * The configs as this shell would run them: a stdio server that inherits the environment gets this
 * shell's, now (the daemon's own, from when it started, never reaches it).
 */
function resolvedHere(configs: Record<string, MCPServerConfig>): Record<string, MCPServerConfig> {
  const shell = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return Object.fromEntries(Object.entries(configs).map(([name, config]) => [name, "command" in config && config.inheritEnv === true ? { ...config, inheritEnv: false, env: { ...shell, ...config.env } } : config]));
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
    const params: CallParams = {
      configs: resolvedHere(session.configs),
      servers: session.servers,
      configErrors: session.configErrors,
      skipped: session.skipped,
      whySkipped: Object.fromEntries(session.skipped.map((name) => [name, session.whySkipped?.get(name) ?? "not approved yet"])),
      shadowed: session.shadowed,
      embedded: session.embedded,
      words,
      cwd: session.cwd,
      timeout: globals.timeout,
      maxResultChars,
    };
    const answer = (await daemonRequest(socket, "call", params, {
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
