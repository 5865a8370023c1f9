import type { MCPTool } from "@mcp/manager";
import { commandLine, printable } from "./approval-view.js";
import { describeType, signature, sub, typeOf, type Schema } from "./schema.js";
import { grid, terminalWidth, wrap } from "./table.js";
import { color, firstLine } from "./ui.js";

// A tool for a person: `mcp tools` gives one line each; `mcp tools <server>.<tool>` (or
// `--verbose`) its whole docs: the description, each parameter with its type, whether it is
// required, its description and default, and a `mcp call` line to start from.

/** One parameter of a tool, nested ones named by their path (`customer.name`, `lines[].sku`). */
interface Parameter {
  name: string;
  type: string;
  required: boolean;
  description: string;
  default: unknown;
}

/** The parameters of a schema, nested objects' own a level down (three levels at most). */
function parameters(schema: Schema | undefined, prefix = "", depth = 0): Parameter[] {
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const list: Parameter[] = [];
  for (const [key, value] of Object.entries(schema?.properties ?? {})) {
    const property = sub(value);
    const name = `${prefix}${key}`;
    // An enum's values are in its description: the type column stays narrow.
    const values = Array.isArray(property?.enum)
      ? `one of ${property.enum.map((v) => JSON.stringify(v)).join(", ")}`
      : "";
    const description = [
      typeof property?.description === "string" ? property.description.replace(/\s+/g, " ").trim() : "",
      values,
    ]
      .filter(Boolean)
      .join("; ");
    list.push({
      name,
      type: property?.enum ? (typeof property.enum[0] === "number" ? "number" : "string") : describeType(property),
      required: required.has(key),
      description,
      default: property?.default,
    });
    if (depth < 2 && typeOf(property) === "object" && property?.properties)
      list.push(...parameters(property, `${name}.`, depth + 1));
    const items = sub(property?.items);
    if (depth < 2 && typeOf(property) === "array" && items?.properties)
      list.push(...parameters(items, `${name}[].`, depth + 1));
  }
  return list;
}

/** A value that fits a schema, for the example: its default, example or first allowed value, else one of its type. */
function sample(schema: Schema | undefined, depth = 0, name = ""): unknown {
  if (schema?.default !== undefined) return schema.default;
  if (Array.isArray(schema?.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema?.const !== undefined) return schema.const;
  switch (typeOf(schema)) {
    case "number":
    case "integer":
      return typeof schema?.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return depth > 3 ? [] : [sample(sub(schema?.items), depth + 1)];
    case "object": {
      const required = Array.isArray(schema?.required) ? schema.required : [];
      return depth > 3
        ? {}
        : Object.fromEntries(required.map((key) => [key, sample(sub(schema?.properties?.[key]), depth + 1, key)]));
    }
    case "string": {
      const format = schema?.format;
      if (format === "uri" || format === "url" || /ur[il]$/i.test(name)) return "https://example.com";
      if (format === "date") return "2026-01-01";
      if (format === "date-time") return "2026-01-01T00:00:00Z";
      if (format === "email") return "me@example.com";
      return /path|file/i.test(name) ? "./README.md" : /dir|folder/i.test(name) ? "." : "text";
    }
    default:
      return "text";
  }
}

/** The `mcp call` line for a tool, with a value for each required argument (as `key=value`, or `key:=<json>`). */
export function exampleCall(tool: Pick<MCPTool, "serverName" | "toolName" | "inputSchema">): string {
  const schema = tool.inputSchema as Schema | undefined;
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const words = required.map((key) => {
    const value = sample(sub(schema?.properties?.[key]), 0, key);
    if (typeof value === "string") return `${key}=${value.startsWith("@") ? `\\${value}` : value}`;
    if (typeof value === "number" || typeof value === "boolean") return `${key}=${String(value)}`;
    return `${key}:=${JSON.stringify(value)}`;
  });
  return commandLine("mcp", ["call", `${tool.serverName}.${tool.toolName}`, ...words]);
}

/** Text from a server, safe on a terminal: each line's control characters shown as escapes. */
function safe(text: string): string {
  return text
    .split("\n")
    .map((line) => printable(line.replace(/\t/g, "  ")))
    .join("\n");
}

/** What the annotations say, in words (`read-only`, `destructive`, …). */
function hints(annotations: MCPTool["annotations"]): string[] {
  const a = annotations ?? {};
  return [
    a.readOnlyHint === true && "read-only",
    a.destructiveHint === true && a.readOnlyHint !== true && "destructive",
    a.idempotentHint === true && "idempotent",
    a.openWorldHint === true && "open world",
  ].filter((h): h is string => typeof h === "string");
}

/** One tool's whole docs, each line after `indent` (their width fits the terminal with it). */
export function toolDocs(tool: MCPTool, indent = ""): string {
  const width = terminalWidth() - indent.length;
  const schema = tool.inputSchema as Schema | undefined;
  const lines = [
    `${color.bold(`${tool.serverName}.${tool.toolName}`)}${tool.title && tool.title !== tool.toolName ? `  ${safe(tool.title)}` : ""}`,
  ];
  // The description whole: its own lines kept, each wrapped at the terminal's width.
  if (tool.description)
    for (const line of safe(tool.description.trim()).split("\n"))
      lines.push(...(line.trim() === "" ? [""] : wrap(line, width - 2).map((part) => `  ${part}`)));
  const said = hints(tool.annotations);
  if (said.length) lines.push(color.dim(`  (${said.join(", ")})`));
  const list = parameters(schema);
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
  const output = sub(tool.outputSchema)?.properties;
  if (output) lines.push("", `  Returns structured content: ${Object.keys(output).join(", ")}`);
  lines.push("", `  Example: ${exampleCall(tool)}`);
  return lines.map((line) => (line === "" ? line : `${indent}${line}`)).join("\n");
}

/** One tool in one line: its signature, never cut, then its description, cut to the terminal's width (whole into a pipe). */
export function toolLine(tool: MCPTool): string {
  const sig = signature(tool.toolName, tool.inputSchema);
  const description = safe((tool.description ?? "").replace(/\s+/g, " ").trim());
  const width = terminalWidth();
  if (width === Number.POSITIVE_INFINITY) return `  ${sig}${description ? `  ${description}` : ""}`;
  const room = width - sig.length - 4;
  return `  ${sig}${description && room >= 10 ? color.dim(`  ${firstLine(description, room)}`) : ""}`;
}
