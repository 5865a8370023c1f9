import { failureError, needsSignIn, type MCPTool, type ServerStatus } from "@mcp/manager";
import { authHint, tokenRefused } from "./resolve.js";
import { sourceOf, type Session } from "./session.js";

// The rows of the listing commands' --json output: the CLI's contract. `mcp inspect` gives the
// inspector its server rows (the compiler checks they fit @mcp/inspector's `ServerRow`), and the
// inspector's API answers the same shapes (apps/cli/test/inspect.test.ts holds them equal).

/** One row of `mcp servers` (before `--json` turns `undefined` into `null`). */
export interface ServerRow {
  name: string;
  transport: string;
  /** The config file, `(embedded default)` or `(command line)`. */
  source: string;
  /** `connecting`, `connected`, `reconnecting`, `failed`, `disabled`, `needs authentication`, `not approved` or `invalid`. */
  status: string;
  tools: number | undefined;
  connectMs: number | undefined;
  lastError: string | undefined;
  stderrTail?: string | undefined;
}

/** One element of `mcp tools --json`. */
export interface ToolRow {
  /** The model-safe name, `mcp__<server>__<tool>`. */
  name: string;
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  title: string | undefined;
  description: string | undefined;
  inputSchema: MCPTool["inputSchema"] | undefined;
  outputSchema: MCPTool["outputSchema"];
  annotations: MCPTool["annotations"];
}

/** One element of `mcp resources --json`: a resource, or a template (`uri` is then its URI template). */
export interface ResourceRow {
  server: string;
  uri: string;
  name: string;
  mimeType?: string | undefined;
  description?: string | undefined;
  template: boolean;
}

/** One element of `mcp prompts --json`. */
export interface PromptRow {
  server: string;
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  arguments?: { name: string; description?: string | undefined; required?: boolean | undefined }[] | undefined;
}

/** The rows of `mcp servers --json -v` (and of the inspector's server list). */
export function serverRows(session: Session): ServerRow[] {
  const statuses = session.manager.getStatuses();
  const result: ServerRow[] = statuses.map((s: ServerStatus) => {
    const config = session.configs[s.name];
    const auth = needsSignIn(s, config);
    // The error once: its message's copy of the stderr lines is left out (they are in stderrTail).
    const error = s.lastError === undefined ? undefined : (tokenRefused(s, config) ?? failureError(s));
    return {
      name: s.name,
      transport: s.transport,
      source: sourceOf(session, s.name),
      status: auth ? "needs authentication" : s.state === "not-approved" ? "not approved" : s.state,
      tools: s.state === "connected" || s.toolsFromCache ? s.toolCount : undefined,
      connectMs: s.connectMs,
      lastError: auth ? `${s.source === undefined ? authHint(s) : `run: mcp auth ${s.name}`} (${error ?? ""})` : error,
      stderrTail: s.stderrTail,
    };
  });
  for (const name of session.skipped)
    result.push({
      name,
      transport: session.servers[name]?.config.type ?? "stdio",
      source: sourceOf(session, name),
      status: "not approved",
      tools: undefined,
      connectMs: undefined,
      lastError: `project server ${session.whySkipped?.get(name) ?? "not approved"} (approve it: mcp config approve ${name})`,
    });
  for (const error of session.configErrors)
    result.push({
      name: error.server ?? "(file)",
      transport: "",
      source: error.file,
      status: "invalid",
      tools: undefined,
      connectMs: undefined,
      lastError: error.message,
    });
  return result;
}

/** The elements of `mcp tools --json` (and of the inspector's tool list). */
export function toolRows(tools: MCPTool[]): ToolRow[] {
  return tools.map((t) => ({
    name: t.name,
    server: t.serverName,
    tool: t.toolName,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: t.annotations,
  }));
}

/** The elements of `mcp resources --json` for the given connected servers. */
export async function resourceRows(session: Session, names: string[]): Promise<ResourceRow[]> {
  const all: ResourceRow[] = [];
  for (const name of names) {
    for (const r of await session.manager.listResources(name))
      all.push({
        server: name,
        uri: r.uri,
        name: r.name,
        mimeType: r.mimeType,
        description: r.description,
        template: false,
      });
    for (const t of await session.manager.listResourceTemplates(name))
      all.push({
        server: name,
        uri: t.uriTemplate,
        name: t.name,
        mimeType: t.mimeType,
        description: t.description,
        template: true,
      });
  }
  return all;
}

/** The elements of `mcp prompts --json` for the given connected servers. */
export async function promptRows(session: Session, names: string[]): Promise<PromptRow[]> {
  const all: PromptRow[] = [];
  for (const name of names)
    for (const prompt of await session.manager.listPrompts(name)) all.push({ server: name, ...prompt });
  return all;
}
