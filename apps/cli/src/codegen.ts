// `mcp codegen <server>`: a TypeScript module with one typed function per tool, on @mcp/client.
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Implementation, Tool } from "@mcp/client";
import { camelCase, docComment, Names, pascalCase, SchemaWriter } from "./codegen-schema.js";
import { mustStart } from "./commands.js";
import { failureOf } from "./resolve.js";
import { settle, withSession, type GlobalOptions } from "./session.js";
import { CliError, EXIT, note } from "./ui.js";

/** What the module is generated from. */
export interface CodegenInput {
  /** The server's name in the config (used in comments and the default client name). */
  server: string;
  serverInfo?: Implementation | undefined;
  tools: readonly Tool[];
  /** The client's type name; the factory is `create<name>`. Default `<Server>Client`. */
  name?: string | undefined;
}

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
  const notes = [hints["readOnlyHint"] === true ? "read-only" : "", hints["destructiveHint"] === true ? "destructive" : "", hints["idempotentHint"] === true ? "idempotent" : "", hints["openWorldHint"] === true ? "open world" : ""].filter(Boolean);
  if (lines.length) lines.push("");
  lines.push(`Tool \`${tool.name}\`${notes.length ? ` (${notes.join(", ")})` : ""}.`);
  return lines;
}

/**
 * The module's text: for each tool an argument type from its input schema (and a result type from
 * its output schema), a method on the client type with the tool's description as its comment, and
 * `create<Name>(connection | caller)`. Deterministic: the same tools give the same text.
 */
export function generateClient(input: CodegenInput): string {
  const clientName = input.name ?? `${pascalCase(input.server)}Client`;
  const names = new Names();
  for (const taken of ["ToolCaller", "StructuredResult", "callerOf", "structured", clientName, `create${clientName}`]) names.claim(taken);
  const methodNames = new Set<string>();
  const declarations: string[] = [];
  const members: string[] = [];
  const bodies: string[] = [];
  for (const tool of input.tools) {
    let method = camelCase(tool.name);
    for (let n = 2; methodNames.has(method); n++) method = `${camelCase(tool.name)}${n}`;
    methodNames.add(method);
    const base = pascalCase(tool.name);
    const argsName = names.claim(`${base}Args`);
    const inputWriter = new SchemaWriter(tool.inputSchema, argsName, names);
    declarations.push(`${docComment([`Arguments of \`${tool.name}\`.`], "")}export type ${argsName} = ${inputWriter.type(tool.inputSchema, "")};\n`, ...inputWriter.declarations);
    let result = "CallToolResult";
    let outputName: string | undefined;
    if (tool.outputSchema) {
      outputName = names.claim(`${base}Output`);
      const outputWriter = new SchemaWriter(tool.outputSchema, outputName, names);
      declarations.push(`${docComment([`\`structuredContent\` of \`${tool.name}\` (its output schema).`], "")}export type ${outputName} = ${outputWriter.type(tool.outputSchema, "")};\n`, ...outputWriter.declarations);
      result = `StructuredResult<${outputName}>`;
    }
    const optional = argsOptional(tool.inputSchema);
    members.push(`${docComment(toolDoc(tool), "  ")}  ${method}(args${optional ? "?" : ""}: ${argsName}, options?: CallToolOptions): Promise<${result}>;\n`);
    const call = `call(${JSON.stringify(tool.name)}, args${optional ? " ?? {}" : ""}, options)`;
    bodies.push(outputName ? `    ${method}: async (args, options) => structured<${outputName}>(${JSON.stringify(tool.name)}, await ${call}),\n` : `    ${method}: (args, options) => ${call},\n`);
  }
  const from = input.serverInfo ? ` (${input.serverInfo.name} ${input.serverInfo.version})` : "";
  return [
    `// Generated by \`mcp codegen ${input.server}\` from the tools of server "${input.server}"${from}.\n// Generate it again when they change; edits here are lost.\n`,
    PRELUDE,
    ...declarations.map((declaration) => `\n${declaration}`),
    `\n${docComment([`The tools of "${input.server}", one function each.`], "")}export interface ${clientName} {\n${members.join("")}}\n`,
    `\n${docComment([`The tools of "${input.server}" on a connection (\`connectToServer\`), or on your own {@link ToolCaller}.`], "")}export function create${clientName}(target: MCPServerConnection<MCPTransport> | ToolCaller): ${clientName} {\n  const call = callerOf(target);\n  return {\n${bodies.join("")}  };\n}\n`,
  ].join("");
}

/** `mcp codegen <server> [--out <file.ts | folder>] [--name <ClientName>]`. */
export async function codegenCommand(globals: GlobalOptions, server: string, options: { out?: string; name?: string }): Promise<number> {
  if (options.name !== undefined && !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(options.name)) throw new CliError(`--name must be a TypeScript identifier, not "${options.name}"`, EXIT.usage);
  return withSession({ ...globals, server: [server] }, {}, async (session) => {
    mustStart(session, server);
    await settle(session);
    const status = session.manager.getConnectionStatus(server);
    if (status?.state === "failed") throw new CliError(failureOf(session, status));
    const connection = session.manager.getConnection(server);
    const tools = session.manager
      .getTools()
      .filter((tool) => tool.serverName === server)
      .map((tool): Tool => tool.definition ?? { name: tool.toolName, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations });
    const text = generateClient({ server, serverInfo: connection?.serverInfo, tools, name: options.name });
    if (options.out === undefined) {
      process.stdout.write(text);
      return EXIT.ok;
    }
    // A folder (one that exists, or a path ending in a slash) gets <folder>/<server>.ts.
    const folder = /[/\\]$/.test(options.out) || statSync(options.out, { throwIfNoEntry: false })?.isDirectory() === true;
    const file = folder ? join(options.out, `${server.replace(/[^A-Za-z0-9._-]/g, "-")}.ts`) : options.out;
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new CliError(`--out ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    note(`${file}: ${tools.length} tool${tools.length === 1 ? "" : "s"} of "${server}" as functions (create${options.name ?? `${pascalCase(server)}Client`})`);
    return EXIT.ok;
  });
}
