// The server a command names, started, and the tool a command's words name, found, as every host
// needs them (the CLI's `mcp call`, directly and through its daemon, finds a call's words this one
// way): only the servers needed start, never one left out as not approved, and each way it cannot
// be is a typed error that says what and where, with the host's way out on top (its words).
import { McpError } from "@mcp/jsonrpc";
import { serverNamesOf } from "./config/command-servers.js";
import { findToolByName } from "./find-tool.js";
import type { MCPManager } from "./manager.js";
import { toolNotFound, type NotFoundWords } from "./tool-not-found.js";
import { splitToolTarget, toolsNamed } from "./tool-target.js";
import type { MCPTool } from "./types.js";
import { failureReport, whyNotStartable, type NotStartable, type ServersChosen } from "./unavailable.js";

/** Why a server a command named cannot serve it: {@link whyNotStartable}'s reasons, not one of the servers chosen, or it failed to start. */
export type NotStartedReason = NotStartable["reason"] | "not-chosen" | "failed";

/**
 * A server a command named that cannot serve it (`reason`): a project server not approved (the
 * words say why, its file and what it would run, then the host's `notApproved`), an invalid or
 * disabled entry, a server that is not one of the servers chosen, or one that failed to start
 * ({@link failureReport}'s words).
 */
export class ServerNotStartedError extends McpError<"server_unavailable"> {
  static override readonly brand: string = "ServerNotStartedError";
  declare readonly serverName: string;
  declare readonly reason: NotStartedReason;

  constructor(serverName: string, reason: NotStartedReason, message: string, options?: { cause?: unknown }) {
    super("server_unavailable", message, options);
    this.serverName = serverName;
    this.reason = reason;
  }
}

/** The words name no tool at all (the host says how to name one). */
export class NoToolNamedError extends McpError<"no_tool_named"> {
  static override readonly brand: string = "NoToolNamedError";

  constructor() {
    super("no_tool_named", "no tool named");
  }
}

/** A bare tool name several servers offer (`matches`: each as `server.tool`): name one. */
export class AmbiguousToolError extends McpError<"ambiguous_tool"> {
  static override readonly brand: string = "AmbiguousToolError";
  declare readonly tool: string;
  declare readonly matches: string[];

  constructor(tool: string, matches: string[]) {
    super(
      "ambiguous_tool",
      `tool "${tool}" is offered by several servers: ${matches.join(", ")}; name one as server.tool`,
    );
    this.tool = tool;
    this.matches = matches;
  }
}

/** What {@link checkStartable}, {@link startNamedServer} and {@link findCallTool} need besides the manager. */
export interface StartOptions {
  /** The home folder (files are shown from `~`). */
  home: string;
  /** Stops the wait for servers that are starting: it throws the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The host's ways out, added to the words. */
  words?: StartWords | undefined;
}

/** What a host says on top of the words of a server that cannot start or a tool not found. */
export interface StartWords extends NotFoundWords {
  /** Said after `server "x" is not one of this command's servers`: where to see them. */
  notChosen?: string | undefined;
}

/** Fails with a {@link ServerNotStartedError} when `name` is known but cannot start (not approved, invalid, disabled); else does nothing. */
export function checkStartable(chosen: ServersChosen, name: string, options: StartOptions): void {
  const why = whyNotStartable(chosen, name, options.home);
  if (!why) return;
  const more = why.reason === "not-approved" ? (options.words?.notApproved?.(name) ?? "") : "";
  throw new ServerNotStartedError(name, why.reason, why.message + more);
}

/**
 * Starts the one server a command named and waits for it: a {@link ServerNotStartedError} when it
 * cannot start ({@link checkStartable}), is not one of `chosen`'s servers, or failed to start.
 *
 * @example
 * await startNamedServer(manager, chosen, "db", { home });
 */
export async function startNamedServer(
  manager: Pick<MCPManager, "waitForConnection" | "getConnectionStatus">,
  chosen: ServersChosen,
  name: string,
  options: StartOptions,
): Promise<void> {
  checkStartable(chosen, name, options);
  if (chosen.configs[name] === undefined)
    throw new ServerNotStartedError(
      name,
      "not-chosen",
      `server "${name}" is not one of this command's servers${options.words?.notChosen ?? ""}`,
    );
  try {
    await manager.waitForConnection(name, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const status = manager.getConnectionStatus(name);
    const message =
      status?.state === "failed"
        ? failureReport(status, chosen.configs[name], options.words)
        : (error as Error).message;
    throw new ServerNotStartedError(name, "failed", message, { cause: error });
  }
}

/** The servers finding the tool `words` name may start: the one they name, else every one (a bare name may start each). */
export function serversForWords(
  chosen: Pick<ServersChosen, "configs" | "servers" | "configErrors" | "skipped">,
  words: readonly string[],
): string[] {
  const all = Object.keys(chosen.configs);
  const server = splitToolTarget(words, serverNamesOf(chosen))?.server;
  return server === undefined ? all : all.filter((name) => name === server);
}

/** Options of {@link findCallTool}. */
export interface FindCallToolOptions extends StartOptions {
  /** Registers the servers with the manager; the tools known now (default: `addServers` of `chosen`'s). */
  register?: (() => Promise<MCPTool[]>) | undefined;
}

/**
 * The tool a call's words name, and the words after it (its arguments), starting only the servers
 * needed: the server named (`server tool`, `server.tool`, `mcp__server__tool`:
 * {@link splitToolTarget}) alone; for a bare name, the one server whose cached list has it (its live
 * list decides), or, when no cached list has it, every server of `chosen` ({@link findToolByName}).
 * A server left out as not approved never starts. Held tools approved since (in another process)
 * are rechecked first. Fails with {@link NoToolNamedError}, {@link ServerNotStartedError},
 * {@link AmbiguousToolError} or a {@link ToolNotFoundError} ({@link toolNotFound}'s words).
 *
 * @example
 * const chosen = await chooseServers({ cwd, home, policy });
 * const { tool, rest } = await findCallTool(manager, chosen, ["everything.echo", "message=hi"], { home });
 */
export async function findCallTool(
  manager: MCPManager,
  chosen: ServersChosen,
  words: readonly string[],
  options: FindCallToolOptions,
): Promise<{ tool: MCPTool; rest: string[] }> {
  const cached = await (options.register ? options.register() : manager.addServers(chosen.configs, chosen.servers));
  // A long-lived manager (a daemon's) may hold tools approved since in another process.
  if (manager.pins.held().length > 0) await manager.pins.recheck();
  const target = splitToolTarget(words, serverNamesOf(chosen));
  if (!target) throw new NoToolNamedError();
  const notFound = (among: MCPTool[], server?: string) =>
    toolNotFound(chosen, manager.getStatuses(), target.name, among, {
      server,
      home: options.home,
      words: options.words,
    });
  if (target.server !== undefined) {
    await startNamedServer(manager, chosen, target.server, options);
    const [tool] = toolsNamed(manager.getTools(), target.name, target.server);
    if (!tool)
      throw notFound(
        manager.getTools().filter((t) => t.serverName === target.server),
        target.server,
      );
    return { tool, rest: target.rest };
  }
  const { matches, asked } = await findToolByName(manager, target.name, {
    // Only these servers: a long-lived manager also holds servers other calls registered.
    servers: Object.keys(chosen.configs),
    cached,
    signal: options.signal,
  });
  if (matches.length === 1) return { tool: matches[0]!, rest: target.rest };
  if (matches.length > 1)
    throw new AmbiguousToolError(
      target.name,
      matches.map((t) => `${t.serverName}.${t.toolName}`),
    );
  throw notFound(asked);
}

/**
 * Waits for every server of `chosen` still connecting (cached tools let the manager's gate pass
 * early), so what is listed next is live; the names of the servers connected (`only` alone, when named).
 */
export async function connectedServers(
  manager: Pick<MCPManager, "startServers" | "getStatuses">,
  chosen: Pick<ServersChosen, "configs">,
  only?: string,
): Promise<string[]> {
  await manager.startServers(Object.keys(chosen.configs));
  return manager
    .getStatuses()
    .filter((s) => s.state === "connected" && (only === undefined || s.name === only))
    .map((s) => s.name);
}

/**
 * Starts only `server` when a command names one ({@link startNamedServer}: a
 * {@link ServerNotStartedError} says why it cannot), else every server of `chosen`; the names of
 * the servers connected.
 *
 * @example
 * const names = await startServersNamed(manager, chosen, undefined, { home });
 * const read = await readResourceFrom(manager, "file:///notes.md", names);
 */
export async function startServersNamed(
  manager: MCPManager,
  chosen: ServersChosen,
  server: string | undefined,
  options: StartOptions,
): Promise<string[]> {
  if (server === undefined) {
    await manager.connectServers(chosen.configs, chosen.servers);
    return connectedServers(manager, chosen);
  }
  await manager.addServers(chosen.configs, chosen.servers);
  await startNamedServer(manager, chosen, server, options);
  return [server];
}
