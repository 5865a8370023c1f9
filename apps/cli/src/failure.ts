import type { ServerStatus } from "@mcp/manager";

// A server's failure for a person: the error once, its stderr once, and the cause a crash wrote
// there named in words. A stdio server's error message carries its stderr (`Transport closed
// (process exited with code 1)\nstderr:\n…`) and the status carries the same lines as
// `stderrTail`: everything shown here takes the error without them and the lines from the tail.

/** The error without the stderr lines its message may carry (they are shown from the tail, once). */
export function errorText(status: Pick<ServerStatus, "lastError">): string {
  return (status.lastError ?? "").replace(/\nstderr:\n[\s\S]*$/, "").trim();
}

/** A line shaped like an error report's: `TypeError: fetch failed`, `[cause]: Error: …`, `panic: …` (the kind, then the message). */
const ERROR_LINE = /^\s*(?:\[cause\]:\s*)?((?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?: \[[A-Z0-9_]+\])?|panic|fatal error|error|FATAL|ERROR)(?:\[[^\]]*\])?:\s+(\S.*)$/;

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
    if (match) found = match[1] === "Error" || /^(error|ERROR|FATAL|fatal error)$/.test(match[1]!) ? match[2]!.trim() : `${match[1]}: ${match[2]!.trim()}`;
  }
  return found;
}

/** How a process ended, from a transport's message (`process exited with code 1`, `process killed by SIGKILL`). */
function howItEnded(message: string): string | undefined {
  return /process (exited with code \d+|killed by SIG[A-Z0-9]+)/.exec(message)?.[1];
}

/**
 * Why a server failed, in one line: for a process that died, the cause its stderr names
 * (`getaddrinfo ENOTFOUND svelte.dev (the process exited with code 1)`); otherwise the error.
 */
export function causeOf(status: Pick<ServerStatus, "lastError" | "stderrTail">): string {
  const error = errorText(status);
  const ended = howItEnded(error);
  const cause = ended ? stderrCause(status.stderrTail) : undefined;
  // The server is named by whoever shows this: `Failed to start MCP server "x": ` would say it twice.
  return cause ? `${cause} (the process ${ended})` : error.replace(/^Failed to start MCP server "[^"]*": /, "") || "unknown error";
}

/** Lines of a crash report that say nothing a person reads: stack frames, a lone brace or caret, blank ones. */
const NOISE = /^\s*(at\s.*|[{}\]^]+|\^+)?\s*$/;

/**
 * A stderr tail under `stderr: ` (each line after the first aligned with it). Of a crash report,
 * at most `max` lines from the first that names an error, stack frames left out (all of them with
 * `whole`, as `--verbose` asks); of other output, its last `max` lines.
 */
export function stderrLines(tail: string | undefined, indent = "    ", max = 5, whole = false): string {
  const all = (tail ?? "").trimEnd().split("\n");
  let shown: string[];
  if (whole) shown = all;
  else {
    const read = all.filter((line) => !NOISE.test(line));
    const first = read.findIndex((line) => ERROR_LINE.test(line));
    shown = first >= 0 ? read.slice(first, first + max) : read.slice(-max);
  }
  while (shown.length > 0 && shown[0]!.trim() === "") shown.shift();
  if (shown.length === 0) return "";
  const label = `${indent}stderr: `;
  const pad = " ".repeat(label.length);
  return `\n${label}${shown.map((line, i) => (line.trim() === "" ? "" : i === 0 ? line.trim() : `${pad}${line}`)).join("\n")}`;
}

/** "1 tool", "2 tools". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
