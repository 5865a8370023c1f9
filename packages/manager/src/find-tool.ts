// A tool by a bare name, starting only the servers that may have it: those whose cached list has
// it, or, when no cached list does (or the cache was wrong), every server not started yet; a
// prompt by its name among the servers' prompts.
import type { Prompt } from "@mcp/client";
import { McpError } from "@mcp/jsonrpc";
import type { MCPManager } from "./manager.js";
import { closestNames, didYouMean, toolsNamed } from "./tool-target.js";
import type { MCPTool } from "./types.js";

/** Options of {@link findToolByName}. */
export interface FindToolOptions {
  /** The servers whose tools count (a long-lived manager may hold others'); all the manager's when left out. */
  servers?: readonly string[] | undefined;
  /** The tools known before any server starts (what `addServers` returned from the cache). */
  cached?: readonly MCPTool[] | undefined;
  /** Stops the wait for servers that are starting: it throws the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** What {@link findToolByName} found. */
export interface FoundTools {
  /** The tools `name` names: one (found), several (ambiguous: name the server) or none. */
  matches: MCPTool[];
  /** The live tools looked at when none matched, for "did you mean" (empty otherwise). */
  asked: MCPTool[];
}

/**
 * The tools a bare `name` names (as {@link toolsNamed} reads it: model-facing name,
 * `server.tool`, or the tool's own name), starting only the servers needed: the servers whose
 * cached list has it, and their live lists decide; when no cached list has it, or none of those
 * servers still offers it, every server of `servers` that is not started yet. A server that fails
 * to start is left out (its status says why). Only connected tools count (none deferred).
 *
 * @example
 * const cached = await manager.addServers(configs);
 * const { matches } = await findToolByName(manager, "echo", { cached });
 * if (matches.length === 1) await matches[0]!.call({ message: "hi" });
 */
export async function findToolByName(
  manager: Pick<MCPManager, "getTools" | "getStatuses" | "startServers">,
  name: string,
  options: FindToolOptions = {},
): Promise<FoundTools> {
  const { signal } = options;
  const ours = options.servers ? new Set(options.servers) : undefined;
  const counts = (server: string): boolean => ours === undefined || ours.has(server);
  const cached = (options.cached ?? []).filter((t) => counts(t.serverName));
  const owners = [...new Set(toolsNamed(cached, name).map((t) => t.serverName))];
  if (owners.length > 0) {
    await manager.startServers(owners, signal);
    if (signal?.aborted) throw signal.reason;
    const live = toolsNamed(
      manager.getTools().filter((t) => owners.includes(t.serverName) && !t.deferred),
      name,
    );
    if (live.length > 0) return { matches: live, asked: [] };
  }
  await manager.startServers(
    manager
      .getStatuses()
      .filter((s) => s.state === "idle" && counts(s.name))
      .map((s) => s.name),
    signal,
  );
  if (signal?.aborted) throw signal.reason;
  const tools = manager.getTools().filter((t) => counts(t.serverName) && !t.deferred);
  const matches = toolsNamed(tools, name);
  return { matches, asked: matches.length > 0 ? [] : tools };
}

/** A prompt and the server that offers it. */
export interface ServerPrompt {
  server: string;
  prompt: Prompt;
}

/** What {@link findPromptByName} found. */
export interface FoundPrompts {
  /** The prompts `name` names: one (found), several (offered by several servers: name one) or none. */
  matches: ServerPrompt[];
  /** Every prompt of the servers asked, in their order (for "did you mean"). */
  all: ServerPrompt[];
}

/**
 * The prompts `name` names among those of `servers` (listed in turn): `server.prompt` names that
 * one; else every prompt whose own name it is.
 *
 * @example
 * const { matches } = await findPromptByName(manager, "simple-prompt", ["everything"]);
 * if (matches.length === 1) await getPrompt(manager.getConnection(matches[0]!.server)!, "simple-prompt");
 */
export async function findPromptByName(
  manager: Pick<MCPManager, "listPrompts">,
  name: string,
  servers: readonly string[],
): Promise<FoundPrompts> {
  const all: ServerPrompt[] = [];
  for (const server of servers) for (const prompt of await manager.listPrompts(server)) all.push({ server, prompt });
  const dotted = all.find(({ server, prompt }) => `${server}.${prompt.name}` === name);
  return { matches: dotted ? [dotted] : all.filter(({ prompt }) => prompt.name === name), all };
}

/**
 * No prompt by the name a person gave among the servers asked (`near`: the closest names, as
 * `server.prompt`, or the prompts' own names when one server was named), or several (`ambiguous`:
 * each as `server.prompt`; name one).
 */
export class PromptNotFoundError extends McpError<"unknown_prompt"> {
  static override readonly brand: string = "PromptNotFoundError";
  declare readonly prompt: string;
  declare readonly serverName: string | undefined;
  declare readonly near: string[];
  declare readonly ambiguous: string[];

  constructor(prompt: string, serverName: string | undefined, found: FoundPrompts) {
    const ambiguous = found.matches.length > 1 ? found.matches.map((m) => `${m.server}.${prompt}`) : [];
    const names = found.all.map((p) => (serverName ? p.prompt.name : `${p.server}.${p.prompt.name}`));
    super(
      "unknown_prompt",
      ambiguous.length > 0
        ? `prompt "${prompt}" is offered by several servers: ${ambiguous.join(", ")}`
        : `unknown prompt "${prompt}"${serverName ? ` on server "${serverName}"` : ""}${didYouMean(prompt, names)}`,
    );
    this.prompt = prompt;
    this.serverName = serverName;
    this.near = ambiguous.length > 0 ? [] : closestNames(prompt, names);
    this.ambiguous = ambiguous;
  }
}

/**
 * The one prompt `name` names among those of `servers` ({@link findPromptByName}); none, or
 * several, is a {@link PromptNotFoundError}. `serverName`: the server the person named, if any
 * (the error's words then name it).
 *
 * @example
 * const { server, prompt } = await findPrompt(manager, "simple-prompt", ["everything"]);
 * await getPrompt(manager.getConnection(server)!, prompt.name);
 */
export async function findPrompt(
  manager: Pick<MCPManager, "listPrompts">,
  name: string,
  servers: readonly string[],
  serverName?: string,
): Promise<ServerPrompt> {
  const found = await findPromptByName(manager, name, servers);
  if (found.matches.length !== 1) throw new PromptNotFoundError(name, serverName, found);
  return found.matches[0]!;
}
