// What a host lists of the manager's servers, as plain rows ready for JSON: a server's status in
// words, its tools, resources (and templates) and prompts, each server's round-trip time. `mcp
// servers | tools | resources | prompts | ping --json` print these rows, and @mcp/inspector's API
// answers the same shapes.
import { roundTrip, type MCPServerConfig } from "@mcp/client";
import type { ConfigError, DiscoveredServer } from "./config/types.js";
import { failureCause, needsSignIn } from "./failure.js";
import type { MCPManager } from "./manager.js";
import type { MCPTool, ServerStatus } from "./types.js";

/** One server in a listing (`undefined` where nothing applies; {@link serverJsonRow} makes those `null`). */
export interface ServerRow {
  name: string;
  transport: string;
  /** The config file, `(embedded default)` or `(command line)`. */
  source: string;
  /** {@link statusWord}'s, or `invalid` for a config entry that could not be read. */
  status: string;
  tools: number | undefined;
  connectMs: number | undefined;
  lastError: string | undefined;
  stderrTail?: string | undefined;
}

/** A {@link ServerRow} for JSON: every key present whatever the status, `null` where nothing applies. */
export interface ServerJsonRow {
  name: string;
  transport: string;
  source: string;
  status: string;
  tools: number | null;
  connectMs: number | null;
  lastError: string | null;
  stderrTail: string | null;
}

/** One tool in a listing. */
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

/** One resource in a listing, or a template (`uri` is then its URI template). */
export interface ResourceRow {
  server: string;
  uri: string;
  name: string;
  mimeType?: string | undefined;
  description?: string | undefined;
  template: boolean;
}

/** One prompt in a listing. */
export interface PromptRow {
  server: string;
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  arguments?: { name: string; description?: string | undefined; required?: boolean | undefined }[] | undefined;
}

/**
 * A server's state in words: `connecting`, `connected`, `reconnecting`, `failed`, `disabled`, `not
 * approved`, or `needs authentication` (failed for want of a sign-in: {@link needsSignIn}).
 */
export function statusWord(status: ServerStatus, config?: MCPServerConfig): string {
  if (needsSignIn(status, config)) return "needs authentication";
  return status.state === "not-approved" ? "not approved" : status.state;
}

/** A server's row from its status; `source` and `lastError` as the caller words them (default: the status's own). */
export function serverRow(
  status: ServerStatus,
  config?: MCPServerConfig,
  said: { source?: string | undefined; lastError?: string | undefined } = {},
): ServerRow {
  return {
    name: status.name,
    transport: status.transport,
    source: "source" in said ? (said.source ?? "") : (status.source ?? ""),
    status: statusWord(status, config),
    tools: status.state === "connected" || status.toolsFromCache ? status.toolCount : undefined,
    connectMs: status.connectMs,
    lastError: "lastError" in said ? said.lastError : status.lastError,
    stderrTail: status.stderrTail,
  };
}

/** A row for JSON, with `null` for what does not apply (JSON has no `undefined`: the key would be missing). */
export function serverJsonRow(row: ServerRow): ServerJsonRow {
  return {
    name: row.name,
    transport: row.transport,
    source: row.source,
    status: row.status,
    tools: row.tools ?? null,
    connectMs: row.connectMs ?? null,
    lastError: row.lastError ?? null,
    stderrTail: row.stderrTail ?? null,
  };
}

/**
 * The rows a listing shows besides the manager's servers: each project server left out (`not
 * approved`, `lastError` saying why) and each config entry that could not be read (`invalid`; named
 * `(file)` when the whole file could not be).
 */
export function leftOutRows(found: {
  skipped: string[];
  whySkipped?: ReadonlyMap<string, string> | undefined;
  servers: Record<string, DiscoveredServer>;
  configErrors: ConfigError[];
}): ServerRow[] {
  const row = (name: string, transport: string, source: string, status: string, lastError: string): ServerRow => ({
    name,
    transport,
    source,
    status,
    tools: undefined,
    connectMs: undefined,
    lastError,
  });
  return [
    ...found.skipped.map((name) => {
      const entry = found.servers[name];
      const why = found.whySkipped?.get(name) ?? "not approved";
      return row(name, entry?.config.type ?? "stdio", entry?.source.file ?? "", "not approved", why);
    }),
    ...found.configErrors.map((error) => row(error.server ?? "(file)", "", error.file, "invalid", error.message)),
  ];
}

/**
 * Why a failed row's server failed, in words for a line that names the server already: a crash's
 * cause from its stderr ({@link failureCause}), without the `Failed to start MCP server "<name>": `
 * its message starts with.
 */
export function rowCause(row: ServerRow): string {
  const error =
    row.status === "failed" && row.stderrTail
      ? failureCause({ lastError: row.lastError, stderrTail: row.stderrTail })
      : (row.lastError ?? "");
  return error.replace(/^Failed to start MCP server "[^"]*": /, "");
}

/** The rows of these tools. */
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

/** The resources, then the resource templates, of each of these connected servers, in the order given. */
export async function resourceRows(manager: MCPManager, names: string[]): Promise<ResourceRow[]> {
  const all: ResourceRow[] = [];
  for (const server of names) {
    for (const r of await manager.listResources(server))
      all.push({ server, uri: r.uri, name: r.name, mimeType: r.mimeType, description: r.description, template: false });
    for (const t of await manager.listResourceTemplates(server))
      all.push({
        server,
        uri: t.uriTemplate,
        name: t.name,
        mimeType: t.mimeType,
        description: t.description,
        template: true,
      });
  }
  return all;
}

/** The prompts of each of these connected servers, in the order given. */
export async function promptRows(manager: MCPManager, names: string[]): Promise<PromptRow[]> {
  const all: PromptRow[] = [];
  for (const server of names) for (const prompt of await manager.listPrompts(server)) all.push({ server, ...prompt });
  return all;
}

/** One server's round trip ({@link roundTrips}): its time and the method that made it, or why there is none. */
export interface RoundTripRow {
  server: string;
  /** Milliseconds, to a tenth. */
  ms?: number;
  /** `ping`, or `server/discover` on 2026-07-28 (which has no ping). */
  method?: "ping" | "server/discover";
  error?: string;
}

/**
 * Each managed server's round-trip time, one after the other in the manager's order. A server not
 * connected gets `errorOf(status)` (default: its last error, else its state) as `error`; a
 * disabled one is left out unless `disabled`. A round trip that fails (or takes over `timeout`
 * ms, default 10 s) has its error's message.
 */
export async function roundTrips(
  manager: MCPManager,
  options: {
    timeout?: number | undefined;
    disabled?: boolean | undefined;
    errorOf?: ((status: ServerStatus) => string | undefined) | undefined;
  } = {},
): Promise<RoundTripRow[]> {
  const rows: RoundTripRow[] = [];
  for (const status of manager.getStatuses()) {
    if (status.state === "disabled" && !options.disabled) continue;
    const connection = manager.getConnection(status.name);
    if (!connection) {
      rows.push({ server: status.name, error: options.errorOf?.(status) ?? status.lastError ?? status.state });
      continue;
    }
    const started = performance.now();
    try {
      const method = await roundTrip(connection, { timeout: options.timeout ?? 10_000 });
      rows.push({ server: status.name, ms: Math.round((performance.now() - started) * 10) / 10, method });
    } catch (error) {
      rows.push({ server: status.name, error: (error as Error).message });
    }
  }
  return rows;
}
