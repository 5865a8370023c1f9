import { describeServer, printable, type ShownServer } from "@mcp/manager/config";
import { color } from "./ui.js";

// A project server on the terminal, for the person who approves it: what it runs and its details
// as @mcp/manager's describeServer gives them (as the file writes them, untrusted text escaped,
// literal secrets masked), one line per item, never wrapped by us.

/** The details of a server, one indented line each (labels aligned). */
export function detailLines(server: ShownServer, indent: string): string[] {
  const { details } = describeServer(server);
  const width = Math.max(0, ...details.map(([label]) => label.length));
  // A label is written once for its group ("env" above its variables).
  return details.map(
    ([label, value], i) =>
      `${indent}${color.dim((details[i - 1]?.[0] === label ? "" : label).padEnd(width))}  ${value}`,
  );
}

/** A server as the approval prompt shows it: name, what runs and a note on one line, then its details. */
export function serverBlock(name: string, server: ShownServer, note: string): string {
  return [
    `  ${color.bold(printable(name))}  ${describeServer(server).runs}${note ? `  ${color.dim(note)}` : ""}`,
    ...detailLines(server, "      "),
  ].join("\n");
}
