import { commandLine, printable, type MCPTool } from "@mcp/manager";
import { toolDoc, toolSignature } from "@mcp/adapters/arguments";
import { grid, terminalWidth, wrap } from "./table.js";
import { color, firstLine } from "./ui.js";

// A tool for a person: `mcp tools` gives one line each; `mcp tools <server>.<tool>` (or
// `--verbose`) its whole docs: the description, each parameter with its type, whether it is
// required, its description and default, and a `mcp call` line to start from.

/** Text from a server, safe on a terminal: each line's control characters shown as escapes. */
function safe(text: string): string {
  return text
    .split("\n")
    .map((line) => printable(line.replace(/\t/g, "  ")))
    .join("\n");
}

/** One tool's whole docs, each line after `indent` (their width fits the terminal with it). */
export function toolDocs(tool: MCPTool, indent = ""): string {
  const width = terminalWidth() - indent.length;
  const doc = toolDoc({ ...tool, name: tool.toolName });
  const lines = [`${color.bold(`${tool.serverName}.${tool.toolName}`)}${doc.title ? `  ${safe(doc.title)}` : ""}`];
  // The description whole: its own lines kept, each wrapped at the terminal's width.
  for (const line of doc.description.map(safe))
    lines.push(...(line.trim() === "" ? [""] : wrap(line, width - 2).map((part) => `  ${part}`)));
  if (doc.hints.length) lines.push(color.dim(`  (${doc.hints.join(", ")})`));
  const list = doc.parameters;
  lines.push("");
  if (list.length === 0) lines.push("  No parameters.");
  else {
    const withDefault = list.some((p) => p.default !== undefined);
    const columns = [
      { title: "PARAMETER", cut: "never" as const },
      { title: "TYPE", cut: "never" as const },
      { title: "REQUIRED" },
      ...(withDefault ? [{ title: "DEFAULT", yields: 1 }] : []),
      { title: "DESCRIPTION" },
    ];
    const rows = list.map((p) => [
      p.name,
      p.type,
      p.required ? "yes" : "no",
      ...(withDefault ? [p.default === undefined ? "" : safe(JSON.stringify(p.default))] : []),
      safe(p.description),
    ]);
    lines.push(
      ...grid(columns, rows, width - 2, { wrapLast: true })
        .split("\n")
        .map((line) => `  ${line}`),
    );
  }
  if (doc.returns) lines.push("", `  Returns structured content: ${doc.returns.join(", ")}`);
  // A value for each required argument, as `key=value` or `key:=<json>`.
  const example = commandLine("mcp", ["call", `${tool.serverName}.${tool.toolName}`, ...doc.example]);
  lines.push("", `  Example: ${example}`);
  return lines.map((line) => (line === "" ? line : `${indent}${line}`)).join("\n");
}

/** One tool in one line: its signature, never cut, then its description, cut to the terminal's width (whole into a pipe). */
export function toolLine(tool: MCPTool): string {
  const sig = toolSignature(tool.toolName, tool.inputSchema);
  const description = safe((tool.description ?? "").replace(/\s+/g, " ").trim());
  const width = terminalWidth();
  if (width === Number.POSITIVE_INFINITY) return `  ${sig}${description ? `  ${description}` : ""}`;
  const room = width - sig.length - 4;
  return `  ${sig}${description && room >= 10 ? color.dim(`  ${firstLine(description, room)}`) : ""}`;
}
