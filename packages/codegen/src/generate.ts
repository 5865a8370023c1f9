// generateClient: MCP tools → a TypeScript module with one typed function per tool, on @mcp/client.
import type { Implementation, Tool } from "@mcp/client";
import { camelCase, docComment, Names, pascalCase, SchemaWriter } from "./schema.js";

/** The module's fixed part: its imports, the caller type and the structured result check. */
const PRELUDE = `import { callTool, type CallToolOptions, type CallToolResult, type MCPServerConnection, type MCPTransport } from "@mcp/client";

/** Calls one tool by its server's name for it: a connection's, or your own (a manager's tool, a gateway). */
export type ToolCaller = (name: string, args: Record<string, unknown>, options?: CallToolOptions) => Promise<CallToolResult>;

/** A result whose \`structuredContent\` the tool's output schema describes: there unless \`isError\`. */
export type StructuredResult<T> = (CallToolResult & { isError?: false | undefined; structuredContent: T }) | (CallToolResult & { isError: true });

function callerOf(target: MCPServerConnection<MCPTransport> | ToolCaller): (name: string, args: unknown, options?: CallToolOptions) => Promise<CallToolResult> {
  const caller: ToolCaller = typeof target === "function" ? target : (name, args, options) => callTool(target, name, args, options);
  return (name, args, options) => caller(name, args as Record<string, unknown>, options);
}

function structured<T>(name: string, result: CallToolResult): StructuredResult<T> {
  if (result.isError !== true && (typeof result.structuredContent !== "object" || result.structuredContent === null)) {
    throw new TypeError(\`tool "\${name}" answered without structuredContent, which its output schema promises\`);
  }
  return result as StructuredResult<T>;
}
`;

/** True when a tool's input schema lists no required property (its argument may be left out). */
function argsOptional(schema: Tool["inputSchema"]): boolean {
  return !Array.isArray(schema.required) || schema.required.length === 0;
}

/** A tool's doc comment: its description, title and hints, and the name the server knows it by. */
function toolDoc(tool: Tool): string[] {
  const lines: string[] = [];
  if (tool.title && tool.title !== tool.description) lines.push(tool.title);
  if (tool.description) lines.push(tool.description);
  const hints = tool.annotations ?? {};
  const notes = [
    hints["readOnlyHint"] === true ? "read-only" : "",
    hints["destructiveHint"] === true ? "destructive" : "",
    hints["idempotentHint"] === true ? "idempotent" : "",
    hints["openWorldHint"] === true ? "open world" : "",
  ].filter(Boolean);
  if (lines.length) lines.push("");
  lines.push(`Tool \`${tool.name}\`${notes.length ? ` (${notes.join(", ")})` : ""}.`);
  return lines;
}

/** A TypeScript identifier (what a client name must be). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An option {@link generateClient} cannot use, named in `option`. */
export class CodegenError extends Error {
  /** The option at fault, e.g. `"name"`. */
  readonly option: string;
  constructor(option: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CodegenError";
    this.option = option;
  }
}

/** Options of {@link generateClient}. */
export interface GenerateClientOptions {
  /** The server's name (in comments, and the default client name `<Server>Client`). */
  server: string;
  /** The server's `serverInfo`, named in the module's first comment. */
  serverInfo?: Implementation | undefined;
  /** The client's type name (a TypeScript identifier); the factory is `create<name>`. Default `<Server>Client`. */
  name?: string | undefined;
  /** What the first comment says generated the module. Default `@mcp/codegen`. */
  generator?: string | undefined;
}

/**
 * The client type's name {@link generateClient} gives for these options: `name`, else
 * `<Server>Client`. Throws {@link CodegenError} for a `name` that is not a TypeScript identifier.
 */
export function clientNameOf(options: Pick<GenerateClientOptions, "server" | "name">): string {
  if (options.name !== undefined && !IDENTIFIER.test(options.name))
    throw new CodegenError("name", `name must be a TypeScript identifier, not "${options.name}"`);
  return options.name ?? `${pascalCase(options.server)}Client`;
}

/**
 * A TypeScript module with one typed function per tool, on `@mcp/client`: for each tool an
 * argument type from its input schema (and a result type from its output schema), a method on the
 * client type with the tool's description as its comment, and `create<Name>(connection | caller)`.
 * A pure function: the same tools give the same text. Throws {@link CodegenError} for a `name`
 * that is not a TypeScript identifier.
 *
 * @example
 * const text = generateClient(await listTools(conn), { server: "everything" });
 * writeFileSync("everything.ts", text); // createEverythingClient(conn).getSum({ a: 1, b: 2 })
 */
export function generateClient(tools: readonly Tool[], options: GenerateClientOptions): string {
  const clientName = clientNameOf(options);
  const names = new Names();
  for (const taken of ["ToolCaller", "StructuredResult", "callerOf", "structured", clientName, `create${clientName}`])
    names.claim(taken);
  const methodNames = new Set<string>();
  const declarations: string[] = [];
  const members: string[] = [];
  const bodies: string[] = [];
  for (const tool of tools) {
    let method = camelCase(tool.name);
    for (let n = 2; methodNames.has(method); n++) method = `${camelCase(tool.name)}${n}`;
    methodNames.add(method);
    const base = pascalCase(tool.name);
    const argsName = names.claim(`${base}Args`);
    const inputWriter = new SchemaWriter(tool.inputSchema, argsName, names);
    declarations.push(
      `${docComment([`Arguments of \`${tool.name}\`.`], "")}export type ${argsName} = ${inputWriter.type(tool.inputSchema, "")};\n`,
      ...inputWriter.declarations,
    );
    let result = "CallToolResult";
    let outputName: string | undefined;
    if (tool.outputSchema) {
      outputName = names.claim(`${base}Output`);
      const outputWriter = new SchemaWriter(tool.outputSchema, outputName, names);
      declarations.push(
        `${docComment([`\`structuredContent\` of \`${tool.name}\` (its output schema).`], "")}export type ${outputName} = ${outputWriter.type(tool.outputSchema, "")};\n`,
        ...outputWriter.declarations,
      );
      result = `StructuredResult<${outputName}>`;
    }
    const optional = argsOptional(tool.inputSchema);
    members.push(
      `${docComment(toolDoc(tool), "  ")}  ${method}(args${optional ? "?" : ""}: ${argsName}, options?: CallToolOptions): Promise<${result}>;\n`,
    );
    const call = `call(${JSON.stringify(tool.name)}, args${optional ? " ?? {}" : ""}, options)`;
    bodies.push(
      outputName
        ? `    ${method}: async (args, options) => structured<${outputName}>(${JSON.stringify(tool.name)}, await ${call}),\n`
        : `    ${method}: (args, options) => ${call},\n`,
    );
  }
  const server = options.server;
  const from = options.serverInfo ? ` (${options.serverInfo.name} ${options.serverInfo.version})` : "";
  return [
    `// Generated by ${options.generator ?? "@mcp/codegen"} from the tools of server "${server}"${from}.\n// Generate it again when they change; edits here are lost.\n`,
    PRELUDE,
    ...declarations.map((declaration) => `\n${declaration}`),
    `\n${docComment([`The tools of "${server}", one function each.`], "")}export interface ${clientName} {\n${members.join("")}}\n`,
    `\n${docComment([`The tools of "${server}" on a connection (\`connectToServer\`), or on your own {@link ToolCaller}.`], "")}export function create${clientName}(target: MCPServerConnection<MCPTransport> | ToolCaller): ${clientName} {\n  const call = callerOf(target);\n  return {\n${bodies.join("")}  };\n}\n`,
  ].join("");
}
