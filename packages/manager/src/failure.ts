import type { MCPServerConfig } from "@mcp/client";
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { ServerStatus } from "./types.js";

// Why a server failed, in words a person reads: the error without the stderr lines a stdio
// server's message carries (`Transport closed (process exited with code 1)\nstderr:\n…`), the
// line of a crash's stderr that names its cause, and which lines of a crash report are worth
// showing; whether signing in is the fix, and what an HTTP failure says about the config. Every
// host shows why a server died; this is the one place that finds it.

/**
 * A server's last error without the stderr lines its message may carry (a host shows those from
 * {@link ServerStatus.stderrTail}, once). Empty when the server has no error.
 */
export function failureError(status: Pick<ServerStatus, "lastError">): string {
  return (status.lastError ?? "").replace(/\nstderr:\n[\s\S]*$/, "").trim();
}

/** A line shaped like an error report's: `TypeError: fetch failed`, `[cause]: Error: …`, `panic: …` (the kind, then the message). */
const ERROR_LINE =
  /^\s*(?:\[cause\]:\s*)?((?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?: \[[A-Z0-9_]+\])?|panic|fatal error|error|FATAL|ERROR)(?:\[[^\]]*\])?:\s+(\S.*)$/;

/**
 * The line of a crash's stderr that says why, without its `Error: ` (the last line shaped like
 * `TypeError: fetch failed`, `[cause]: Error: getaddrinfo ENOTFOUND svelte.dev`,
 * `ModuleNotFoundError: No module named 'x'`, `panic: …`): the last is the innermost cause in
 * Node's and Python's reports. Undefined when no line looks like one.
 */
export function stderrCause(tail: string | undefined): string | undefined {
  if (!tail) return undefined;
  let found: string | undefined;
  for (const line of tail.split("\n")) {
    const match = ERROR_LINE.exec(line);
    if (match)
      found =
        match[1] === "Error" || /^(error|ERROR|FATAL|fatal error)$/.test(match[1]!)
          ? match[2]!.trim()
          : `${match[1]}: ${match[2]!.trim()}`;
  }
  return found;
}

/** How a process ended, from a transport's message (`process exited with code 1`, `process killed by SIGKILL`). */
function howItEnded(message: string): string | undefined {
  return /process (exited with code \d+|killed by SIG[A-Z0-9]+)/.exec(message)?.[1];
}

/**
 * Why a server failed, in one line: for a process that died, the cause its stderr names and how
 * it ended (`getaddrinfo ENOTFOUND svelte.dev (the process exited with code 1)`); otherwise its
 * error, without the `Failed to start MCP server "<name>": ` a host that names the server would
 * say twice. `"unknown error"` when there is none.
 */
export function failureCause(status: Pick<ServerStatus, "lastError" | "stderrTail">): string {
  const error = failureError(status);
  const ended = howItEnded(error);
  const cause = ended ? stderrCause(status.stderrTail) : undefined;
  return cause
    ? `${cause} (the process ${ended})`
    : error.replace(/^Failed to start MCP server "[^"]*": /, "") || "unknown error";
}

/** Lines of a crash report that say nothing a person reads: stack frames, a lone brace or caret, blank ones. */
const NOISE = /^\s*(at\s.*|[{}\]^]+|\^+)?\s*$/;

/**
 * The lines of a stderr tail worth showing: of a crash report, at most `max` lines from the first
 * that names an error, stack frames left out; of other output, its last `max` lines. `whole`
 * keeps every line. Leading blank lines are dropped.
 */
export function crashReportLines(tail: string | undefined, options: { max?: number; whole?: boolean } = {}): string[] {
  const { max = 5, whole = false } = options;
  const all = (tail ?? "").trimEnd().split("\n");
  let shown: string[];
  if (whole) shown = all;
  else {
    const read = all.filter((line) => !NOISE.test(line));
    const first = read.findIndex((line) => ERROR_LINE.test(line));
    shown = first >= 0 ? read.slice(first, first + max) : read.slice(-max);
  }
  while (shown.length > 0 && shown[0]!.trim() === "") shown.shift();
  return shown;
}

/** The name of the `Authorization` header a config sends as it is (a static token), if any. */
export function staticAuthorization(config: MCPServerConfig | undefined): string | undefined {
  if (!config || !("url" in config)) return undefined;
  return Object.keys(config.headers ?? {}).find((name) => name.toLowerCase() === "authorization");
}

/**
 * A server that failed for want of a token (OAuth, or a plain 401): signing in (`MCPManager.authenticate`)
 * is the fix. Not when the config sends its own `Authorization` header: that token was refused,
 * and signing in with OAuth would not change what is sent ({@link refusedTokenHeader} says so).
 */
export function needsSignIn(status: ServerStatus, config: MCPServerConfig | undefined): boolean {
  return (
    status.state === "failed" &&
    (status.lastErrorCode === "oauth_error" || status.lastErrorStatus === 401) &&
    staticAuthorization(config) === undefined
  );
}

/** A 401 from a server whose config sends an `Authorization` header: that header's name (the token in it was refused). */
export function refusedTokenHeader(status: ServerStatus, config: MCPServerConfig | undefined): string | undefined {
  const header = staticAuthorization(config);
  return status.state === "failed" && status.lastErrorStatus === 401 ? header : undefined;
}

/**
 * What an HTTP server's failure most likely means about its config, in a few words: the other
 * kind of HTTP transport (`try "type": "http"`), or a wrong path (a 404). Undefined when nothing
 * comes to mind (and for stdio servers).
 */
export function configHint(config: MCPServerConfig | undefined, status: ServerStatus): string | undefined {
  if (!config || !("url" in config)) return undefined;
  const code = status.lastErrorStatus;
  if (
    config.type === "sse" &&
    (code === 400 || code === 405 || code === 406 || /text\/event-stream|Accept/i.test(status.lastError ?? ""))
  )
    return `it answers like a Streamable HTTP server; try "type": "http"`;
  if (config.type === "http" && (code === 405 || /\/sse\/?$/.test(new URL(config.url).pathname)))
    return `it answers like a HTTP+SSE server; try "type": "sse"`;
  if (code === 404) return `there is no MCP endpoint at ${redactUrl(config.url)}; check the path (often /mcp)`;
  return undefined;
}
