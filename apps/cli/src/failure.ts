import { crashReportLines } from "@mcp/manager/config";

// A server's failure on the terminal: its stderr lines under `stderr: `, once. Finding why a
// server failed (the error without its stderr, the cause a crash wrote) is @mcp/manager's
// (`failureCause`, `failureError`, `stderrCause`), which every host shares.

/**
 * A stderr tail under `stderr: ` (each line after the first aligned with it). Of a crash report,
 * at most `max` lines from the first that names an error, stack frames left out (all of them with
 * `whole`, as `--verbose` asks); of other output, its last `max` lines.
 */
export function stderrLines(tail: string | undefined, indent = "    ", max = 5, whole = false): string {
  const shown = crashReportLines(tail, { max, whole });
  if (shown.length === 0) return "";
  const label = `${indent}stderr: `;
  const pad = " ".repeat(label.length);
  return `\n${label}${shown.map((line, i) => (line.trim() === "" ? "" : i === 0 ? line.trim() : `${pad}${line}`)).join("\n")}`;
}

/** "1 tool", "2 tools". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
