import { commandLine, printable, type MCPTool } from "@mcp/manager";
import { describeSchemaType as describeType, exampleValue, toolSignature } from "@mcp/adapters/arguments";
import { grid, terminalWidth, wrap } from "./table.js";
import { color, firstLine } from "./ui.js";

// A tool for a person: `mcp tools` gives one line each; `mcp tools <server>.<tool>` (or
// `--verbose`) its whole docs: the description, each parameter with its type, whether it is
// required, its description and default, and a `mcp call` line to start from.

/** A JSON Schema, as far as the docs read one. */
type Schema = {
  properties?: Record<string, unknown>;
  required?: string[];
  enum?: unknown[];
  [key: string]: unknown;
};

/** A value as a schema, when it is an object. */
const sub = (value: unknown): Schema | undefined =>
  typeof value === "object" && value !== null ? (value as Schema) : undefined;

/** The schema's type (the first that is not `null`, when it lists several). */
function typeOf(schema: Schema | undefined): string | undefined {
  const type = schema?.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  return typeof type === "string" ? type : undefined;
}

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

/** The `mcp call` line for a tool, with a value for each required argument (as `key=value`, or `key:=<json>`). */
export function exampleCall(tool: Pick<MCPTool, "serverName" | "toolName" | "inputSchema">): string {
  const schema = tool.inputSchema as Schema | undefined;
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const words = required.map((key) => {
    const value = exampleValue(sub(schema?.properties?.[key]), key);
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
  const sig = toolSignature(tool.toolName, tool.inputSchema);
  const description = safe((tool.description ?? "").replace(/\s+/g, " ").trim());
  const width = terminalWidth();
  if (width === Number.POSITIVE_INFINITY) return `  ${sig}${description ? `  ${description}` : ""}`;
  const room = width - sig.length - 4;
  return `  ${sig}${description && room >= 10 ? color.dim(`  ${firstLine(description, room)}`) : ""}`;
}
