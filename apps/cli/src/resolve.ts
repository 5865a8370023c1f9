// Which server a command needs, and why one cannot serve it: @mcp/manager's words, the CLI's way out (ui.ts's HINT) on top.
import type { MCPServerConfig } from "@mcp/client";
import {
  configHint,
  failureReport,
  findToolByName,
  serverNamesOf,
  splitToolTarget,
  tokenRefused as refusedWords,
  toolNotFound,
  toolsNamed,
  whyNotStartable,
  type MCPTool,
  type NotFoundWords,
  type ServerStatus,
  type ToolTarget,
} from "@mcp/manager";
import { approveCommandFor } from "./approvals.js";
import { heldCallError } from "./pins-view.js";
import { parseArguments, validateArguments } from "./schema.js";
import type { Session } from "./session.js";
import { CliError, EXIT, HINT } from "./ui.js";

/** How the CLI names a tool to a person: `server.tool`. */
export const label = (tool: Pick<MCPTool, "serverName" | "toolName">): string => `${tool.serverName}.${tool.toolName}`;

/** What the words name (@mcp/manager's splitToolTarget): no words is a usage error. */
export function splitTarget(words: string[], servers: string[]): ToolTarget {
  const target = splitToolTarget(words, servers);
  if (!target) throw new CliError("name a tool: mcp call <tool> [args] (see: mcp tools)", EXIT.usage);
  return target;
}

export const authHint = HINT.signIn;

/** A 401 for the token a server's config sends (@mcp/manager's tokenRefused), with the CLI's flag. */
export const tokenRefused = (s: ServerStatus, config: MCPServerConfig | undefined): string | undefined =>
  refusedWords(s, config, HINT.tokenGiven);

/** Why a server that failed to connect failed (@mcp/manager's failureReport), with the CLI's ways out. */
export function failureOf(session: Pick<Session, "configs">, status: ServerStatus): string {
  return failureReport(status, session.configs[status.name], WORDS);
}

/** The CLI's ways out, on top of @mcp/manager's words for a server that cannot serve or a tool not found. */
const WORDS: NotFoundWords = {
  signIn: HINT.signIn,
  tokenGiven: HINT.tokenGiven,
  notApproved: HINT.notApproved,
  approveAll: (names) => HINT.approveAll(approveCommandFor(names)),
  see: (server) => HINT.see("tools", server),
};

/** What an HTTP failure most likely means (@mcp/manager's `configHint`), as a `hint:` line ("" when nothing comes to mind). */
export function hintFor(config: MCPServerConfig | undefined, status: ServerStatus): string {
  const hint = configHint(config, status);
  return hint === undefined ? "" : `\n    hint: ${hint}`;
}

/** Why a known server cannot serve a command before anything starts (@mcp/manager's whyNotStartable); undefined when it may start. */
export function notStartable(session: Session, name: string): string | undefined {
  const why = whyNotStartable(session, name, session.home);
  return why && why.message + (why.reason === "not-approved" ? HINT.notApproved(name) : "");
}

/** For a command scoped to one server: fails with the reason when that server cannot start. */
export function mustStart(session: Session, server: string | undefined): void {
  const why = server === undefined ? undefined : notStartable(session, server);
  if (why) throw new CliError(why);
}

/** Starts one server and waits for it; a failure is a CliError that says why. */
export async function startOne(session: Session, name: string, signal?: AbortSignal): Promise<void> {
  mustStart(session, name);
  if (session.configs[name] === undefined) throw new CliError(`server "${name}"${HINT.notOurs}`);
  try {
    await session.manager.waitForConnection(name, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const status = session.manager.getConnectionStatus(name);
    throw new CliError(status?.state === "failed" ? failureOf(session, status) : (error as Error).message);
  }
}

/** Why no tool `name` was found on `where` or any server (held, or @mcp/manager's toolNotFound with the CLI's ways out). */
export function unknownTool(
  session: Session,
  name: string,
  among: MCPTool[],
  where?: string,
  candidates?: string[],
): CliError {
  const held = heldCallError(session, name, where);
  if (held) return held;
  const error = toolNotFound(session, session.manager.getStatuses(), name, among, {
    server: where,
    home: session.home,
    candidates,
    words: WORDS,
  });
  // Not asked, it may be there: a failure, not a usage error.
  return new CliError(error.message, error.notAsked.length > 0 ? EXIT.failure : EXIT.usage);
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
  const target = splitTarget(words, serverNamesOf(session));
  if (target.server !== undefined) {
    await startOne(session, target.server, signal);
    const [tool] = toolsNamed(manager.getTools(), target.name, target.server);
    const among = manager.getTools().filter((t) => t.serverName === target.server);
    if (!tool) throw unknownTool(session, target.name, among, target.server);
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
  if (matches.length > 1)
    throw new CliError(
      `tool "${target.name}" is offered by several servers: ${matches.map(label).join(", ")}; name one as server.tool`,
      EXIT.usage,
    );
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
