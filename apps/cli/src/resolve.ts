// Which server a command needs, and why one cannot serve it (not found, not approved, needs sign-in).
import type { MCPServerConfig } from "@mcp/client";
import { redactUrl } from "@mcp/jsonrpc/internal";
import {
  commandLine,
  configHint,
  describeServer,
  failureCause,
  failureError,
  needsSignIn,
  refusedTokenHeader,
  type MCPTool,
  type ServerStatus,
  closestNames as closest,
  findToolByName,
  serverNamesOf,
  splitToolTarget,
  toolsNamed,
  type ToolTarget,
} from "@mcp/manager";
import { NEW } from "./approvals.js";
import { heldCallError } from "./pins-view.js";
import { parseArguments, validateArguments } from "./schema.js";
import type { Session } from "./session.js";
import { stderrLines } from "./failure.js";
import { CliError, EXIT, firstLine, tildify } from "./ui.js";

/** What a server runs or reaches, for a person: its command line, or `<type> <url>` (a password in the URL hidden). */
export function describeConfig(config: MCPServerConfig): string {
  return "command" in config
    ? [config.command, ...(config.args ?? [])].join(" ")
    : `${config.type} ${redactUrl(config.url)}`;
}

/**
 * Which server a command needs, so only that one starts: `call server.tool`, `call server tool`,
 * `call mcp__server__tool`, `prompt server.name`, `read server <uri>`. A bare tool name is looked
 * up in the cached tool lists first; only a name nobody is known to have starts every server.
 */

/** How the CLI names a tool to a person: `server.tool`. */
export const label = (tool: Pick<MCPTool, "serverName" | "toolName">): string => `${tool.serverName}.${tool.toolName}`;

/** Every server name the user may mean: configured, not approved, invalid or disabled (@mcp/manager's serverNamesOf). */
export function knownServers(session: Pick<Session, "configs" | "skipped" | "servers" | "configErrors">): string[] {
  return serverNamesOf(session);
}

/** What the words name (@mcp/manager's splitToolTarget): no words is a usage error. */
export function splitTarget(words: string[], servers: string[]): ToolTarget {
  const target = splitToolTarget(words, servers);
  if (!target) throw new CliError("name a tool: mcp call <tool> [args] (see: mcp tools)", EXIT.usage);
  return target;
}

/** A config problem without the `MCP server "x" in <file>: ` its message starts with (we say both already). */
function problemOf(message: string): string {
  return message.replace(/^MCP server "[^"]*" in [^:]*: /, "");
}

/** What to do for a server that needs a token: sign in (`mcp auth`), or for one given on the command line, send a token. */
export function authHint(s: ServerStatus): string {
  return s.source === undefined
    ? `send a token with --header 'Authorization=Bearer …' (or add the server with mcp config add, then run mcp auth <name>)`
    : `run mcp auth ${s.name}`;
}

/** A 401 from a server whose config sends an `Authorization` header: the token it sends was refused. */
export function tokenRefused(s: ServerStatus, config: MCPServerConfig | undefined): string | undefined {
  const header = refusedTokenHeader(s, config);
  if (header === undefined) return undefined;
  return `the server refused the token in the ${header} header (HTTP 401): check the token ${s.source ? `in "headers" of its config (${s.source})` : "given with --header"}`;
}

/** Why a server that failed to connect failed, with its command or URL and its stderr (once), and what to try. */
export function failureOf(session: Session, status: ServerStatus): string {
  const config = session.configs[status.name];
  if (needsSignIn(status, config))
    return `server "${status.name}" needs authentication: ${authHint(status)} (${firstLine(failureError(status), 200)})`;
  const refused = tokenRefused(status, config);
  const what = !config
    ? ""
    : "command" in config
      ? `\n    command: ${describeConfig(config)}`
      : `\n    url: ${redactUrl(config.url)}`;
  return `server "${status.name}" failed to start: ${refused ?? failureCause(status)}${what}${refused ? "" : hintFor(config, status)}${stderrLines(status.stderrTail)}`;
}

/** What an HTTP failure most likely means (@mcp/manager's `configHint`), as a `hint:` line ("" when nothing comes to mind). */
export function hintFor(config: MCPServerConfig | undefined, status: ServerStatus): string {
  const hint = configHint(config, status);
  return hint === undefined ? "" : `\n    hint: ${hint}`;
}

/**
 * Why a known server cannot serve a command before anything starts: not approved (and how to
 * approve it), an invalid entry, disabled. Undefined when it may start.
 */
export function notStartable(session: Session, name: string): string | undefined {
  const home = session.home;
  if (session.skipped.includes(name)) {
    const entry = session.servers[name];
    const why = session.whySkipped?.get(name) ?? NEW;
    const state = why === NEW ? "is not approved yet (" : `is not approved as it is now (${why}; `;
    return `server "${name}" comes from the project file ${tildify(entry?.source.file, home)} and ${state}it would run: ${entry ? describeServer(entry).runs : "?"}); approve it with: mcp config approve ${name}   (or pass --yes for this run)`;
  }
  const invalid = session.configErrors.find((e) => e.server === name);
  if (invalid)
    return `server "${name}" has an invalid entry in ${tildify(invalid.file, home)}: ${problemOf(invalid.message)}`;
  const entry = session.servers[name];
  if (entry && !entry.enabled && session.configs[name] === undefined)
    return `server "${name}" is disabled in ${tildify(entry.source.file, home)}`;
  return undefined;
}

/** Starts one server and waits for it; a failure is a CliError that says why. */
export async function startOne(session: Session, name: string, signal?: AbortSignal): Promise<void> {
  const why =
    notStartable(session, name) ??
    (session.configs[name] === undefined
      ? `server "${name}" is not one of this command's servers (see: mcp servers)`
      : undefined);
  if (why) throw new CliError(why);
  try {
    await session.manager.waitForConnection(name, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const status = session.manager.getConnectionStatus(name);
    throw new CliError(status?.state === "failed" ? failureOf(session, status) : (error as Error).message);
  }
}

/** Lines for every server that could not be asked: failed, not approved, invalid. */
function unreachable(session: Session): string[] {
  const lines: string[] = [];
  for (const status of session.manager.getStatuses())
    if (status.state === "failed") lines.push(`  ${failureOf(session, status)}`);
  for (const name of session.skipped) lines.push(`  ${notStartable(session, name)}`);
  for (const error of session.configErrors)
    lines.push(
      `  ${error.server ? `server "${error.server}" has an invalid entry` : "invalid file"} in ${tildify(error.file, session.home)}: ${problemOf(error.message)}`,
    );
  return lines;
}

function ambiguous(name: string, tools: MCPTool[]): CliError {
  return new CliError(
    `tool "${name}" is offered by several servers: ${tools.map(label).join(", ")}; name one as server.tool`,
    EXIT.usage,
  );
}

function unknownTool(session: Session, name: string, among: MCPTool[], where?: string): CliError {
  const held = heldCallError(session, name, where);
  if (held) return held;
  const near = closest(name, [...new Set([...among.map(label), ...among.map((t) => t.toolName)])]);
  // Servers that were not asked may have it: that is what to say, not "unknown tool".
  const unapproved = where ? [] : session.skipped;
  if (unapproved.length > 0 && !among.some((t) => t.toolName === name)) {
    const asked =
      among.length > 0
        ? `none of the servers that started offers tool "${name}"${near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(", ")}?)` : ""}, and`
        : `tool "${name}" may be on a project server, but`;
    // One: why it is not approved, and what it would run; several: their names.
    if (unapproved.length === 1)
      return new CliError(`${asked} it was not asked: ${notStartable(session, unapproved[0]!)}`);
    const approve = commandLine("mcp", ["config", "approve", ...unapproved]);
    return new CliError(
      `${asked} ${unapproved.length} project servers (${unapproved.join(", ")}) are not approved, so they were not asked. Approve: ${approve.length <= 60 ? approve : "mcp config approve"}   (or --yes for one run)`,
    );
  }
  const lines = where ? [] : unreachable(session);
  const hint = near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : "";
  const tail = lines.length ? `\nThese servers could not be asked:\n${lines.join("\n")}` : "";
  return new CliError(
    `unknown tool "${name}"${where ? ` on server "${where}"` : ""}${hint} (see: mcp tools${where ? ` ${where}` : ""})${tail}`,
    EXIT.usage,
  );
}

/**
 * The tool the words name, starting only the servers needed: the named server; or, for a bare
 * name, the one server whose cached list has it (its live list decides); or, when no cached list
 * has it, every server.
 */
export async function findTool(
  session: Session,
  words: string[],
  signal?: AbortSignal,
): Promise<{ tool: MCPTool; rest: string[] }> {
  const manager = session.manager;
  const cached = await (session.register ? session.register() : manager.addServers(session.configs, session.servers));
  // A long-lived manager (the daemon's) may hold tools approved since in another process (`mcp pins approve`).
  if (manager.pins.held().length > 0) await manager.pins.recheck();
  const target = splitTarget(words, knownServers(session));
  if (target.server !== undefined) {
    await startOne(session, target.server, signal);
    const [tool] = toolsNamed(manager.getTools(), target.name, target.server);
    if (!tool)
      throw unknownTool(
        session,
        target.name,
        manager.getTools().filter((t) => t.serverName === target.server),
        target.server,
      );
    return { tool, rest: target.rest };
  }
  const { matches, asked } = await findToolByName(manager, target.name, {
    // Only this session's servers: the daemon's manager also holds servers that other calls
    // registered (another project's, or this one's as it was before it changed and lost its approval).
    servers: Object.keys(session.configs),
    cached,
    signal,
  });
  if (matches.length === 1) return { tool: matches[0]!, rest: target.rest };
  if (matches.length > 1) throw ambiguous(target.name, matches);
  throw unknownTool(session, target.name, asked);
}

/**
 * What `call` runs, wherever it runs (here or in the daemon): the tool the words name, its
 * arguments typed by the tool's schema (`@file` read from the session's folder) and checked.
 */
export async function prepareCall(
  session: Session,
  words: string[],
  signal?: AbortSignal,
): Promise<{ tool: MCPTool; args: Record<string, unknown> }> {
  const { tool, rest } = await findTool(session, words, signal);
  const args = parseArguments(rest, tool.inputSchema, session.cwd);
  await validateArguments(label(tool), args, tool.inputSchema);
  return { tool, args };
}
