// Which server a command needs, and why one cannot serve it: @mcp/manager's words, the CLI's way out (ui.ts's HINT) on top.
import type { MCPServerConfig } from "@mcp/client";
import {
  AmbiguousToolError,
  checkStartable,
  failureReport,
  findCallTool,
  NoToolNamedError,
  splitToolTarget,
  startNamedServer,
  startServersNamed,
  tokenRefused as refusedWords,
  toolNotFound,
  ToolNotFoundError,
  type MCPTool,
  type ServerStatus,
  type StartWords,
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
  if (!target) throw nameATool();
  return target;
}

const nameATool = (): CliError => new CliError("name a tool: mcp call <tool> [args] (see: mcp tools)", EXIT.usage);

export const authHint = HINT.signIn;

/** A 401 for the token a server's config sends (@mcp/manager's tokenRefused), with the CLI's flag. */
export const tokenRefused = (s: ServerStatus, config: MCPServerConfig | undefined): string | undefined =>
  refusedWords(s, config, HINT.tokenGiven);

/** Why a server that failed to connect failed (@mcp/manager's failureReport), with the CLI's ways out. */
export function failureOf(session: Pick<Session, "configs">, status: ServerStatus): string {
  return failureReport(status, session.configs[status.name], WORDS);
}

/** The CLI's ways out, on top of @mcp/manager's words for a server that cannot serve or a tool not found. */
const WORDS: StartWords = {
  signIn: HINT.signIn,
  tokenGiven: HINT.tokenGiven,
  notApproved: HINT.notApproved,
  approveAll: (names) => HINT.approveAll(approveCommandFor(names)),
  see: (server) => HINT.see("tools", server),
  notChosen: HINT.see("servers"),
};

/** A tool not found or not named as the CLI says it (a held tool's own words; exit 2 for a usage error, 1 else); any other error as it is (a server that cannot start: exit 1). */
function said(session: Session, error: unknown): never {
  if (NoToolNamedError.isInstance(error)) throw nameATool();
  if (AmbiguousToolError.isInstance(error)) throw new CliError(error.message, EXIT.usage);
  if (!ToolNotFoundError.isInstance(error)) throw error;
  // Not asked, it may be there: a failure, not a usage error.
  const code = error.notAsked.length > 0 ? EXIT.failure : EXIT.usage;
  throw heldCallError(session, error.tool, error.serverName) ?? new CliError(error.message, code);
}

/** What @mcp/manager's functions need of a session to start its servers and find its tools, with the CLI's ways out. */
const options = (session: Session, signal?: AbortSignal) => ({ home: session.home, signal, words: WORDS });

/** For a command scoped to one server: fails with the reason when that server cannot start (@mcp/manager's checkStartable). */
export function mustStart(session: Session, server: string | undefined): void {
  if (server !== undefined) checkStartable(session, server, options(session));
}

/** Starts one server and waits for it (@mcp/manager's startNamedServer: its error says why it cannot). */
export const startOne = (session: Session, name: string, signal?: AbortSignal): Promise<void> =>
  startNamedServer(session.manager, session, name, options(session, signal));

/** Starts only `server` when one is named (failing with why it cannot), else every server; the connected ones' names (@mcp/manager's startServersNamed). */
export const startNamed = (session: Session, server: string | undefined): Promise<string[]> =>
  startServersNamed(session.manager, session, server, options(session));

/** Why no tool `name` was found on `where` or any server (held, or @mcp/manager's toolNotFound with the CLI's ways out). */
export function unknownTool(
  session: Session,
  name: string,
  among: MCPTool[],
  where?: string,
  candidates?: string[],
): never {
  const { home } = session;
  said(
    session,
    toolNotFound(session, session.manager.getStatuses(), name, among, {
      server: where,
      home,
      candidates,
      words: WORDS,
    }),
  );
}

/**
 * What `call` runs, wherever it runs (here or in the daemon): the tool the words name
 * (@mcp/manager's findCallTool, starting only the servers needed), its arguments typed by the
 * tool's schema (`@file` read from the session's folder) and checked.
 */
export async function prepareCall(
  session: Session,
  words: string[],
  signal?: AbortSignal,
): Promise<{ tool: MCPTool; args: Record<string, unknown> }> {
  const { tool, rest } = await findCallTool(session.manager, session, words, {
    ...options(session, signal),
    register: session.register,
  }).catch((e) => said(session, e));
  const args = parseArguments(rest, tool.inputSchema, session.cwd);
  await validateArguments(label(tool), args, tool.inputSchema);
  return { tool, args };
}
