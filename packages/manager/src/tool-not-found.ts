// Why no tool by the name a person gave was found, in words every host shows: the closest names;
// project servers left out as not approved, which may have it; the servers that could not be asked.
import { McpError } from "@mcp/jsonrpc";
import { didYouMean, closestNames } from "./tool-target.js";
import type { MCPTool, ServerStatus } from "./types.js";
import { failureReport, invalidEntry, whyNotStartable, type FailureWords, type ServersChosen } from "./unavailable.js";

/** What a host says on top of {@link toolNotFound}'s words (its commands and flags). */
export interface NotFoundWords extends FailureWords {
  /** Said after why a project server is not approved: what approves it (`; approve it with: …`). */
  notApproved?: ((server: string) => string) | undefined;
  /** Said after "so they were not asked.": what approves these project servers (` Approve: …`). */
  approveAll?: ((servers: string[]) => string) | undefined;
  /** Said after "unknown tool …": where to see the tools (of `server`, when one was named). */
  see?: ((server: string | undefined) => string) | undefined;
}

/**
 * No tool by the name a person gave: on the server named, or on any server asked. `notAsked`:
 * project servers left out as not approved, which may offer it (then that is what the words say).
 */
export class ToolNotFoundError extends McpError<"unknown_tool"> {
  static override readonly brand: string = "ToolNotFoundError";
  declare readonly tool: string;
  declare readonly serverName: string | undefined;
  /** The closest names among the candidates, best first. */
  declare readonly near: string[];
  declare readonly notAsked: string[];

  constructor(tool: string, serverName: string | undefined, message: string, near: string[], notAsked: string[]) {
    super("unknown_tool", message);
    this.tool = tool;
    this.serverName = serverName;
    this.near = near;
    this.notAsked = notAsked;
  }
}

/** Options of {@link toolNotFound}. */
export interface ToolNotFoundOptions {
  /** The server the person named, if any. */
  server?: string | undefined;
  /** The home folder (files are shown from `~`). */
  home: string;
  /** The names offered as "did you mean" (default: each tool of `among` as `server.tool` and by its own name). */
  candidates?: readonly string[] | undefined;
  words?: NotFoundWords | undefined;
}

/**
 * Why no tool `name` was found among `among` (the tools asked: the named server's, or every
 * started server's), as a {@link ToolNotFoundError}: `unknown tool "x" on server "s"; did you mean
 * "y"?`, then the servers that could not be asked (failed, not approved, invalid: `statuses` and
 * `chosen` say which). With no server named and project servers not approved: that they were not
 * asked and may have it, with why (one) or their names (several).
 *
 * @example
 * const { matches, asked } = await findToolByName(manager, "ecoh", { cached });
 * if (matches.length === 0) throw toolNotFound(chosen, manager.getStatuses(), "ecoh", asked, { home });
 */
export function toolNotFound(
  chosen: ServersChosen,
  statuses: readonly ServerStatus[],
  name: string,
  among: readonly MCPTool[],
  options: ToolNotFoundOptions,
): ToolNotFoundError {
  const { server: where, home, words = {} } = options;
  const label = (t: MCPTool): string => `${t.serverName}.${t.toolName}`;
  const candidates = options.candidates ?? [...new Set([...among.map(label), ...among.map((t) => t.toolName)])];
  const hint = didYouMean(name, candidates);
  const notStartable = (server: string): string => {
    const why = whyNotStartable(chosen, server, home)!;
    return why.message + (why.reason === "not-approved" ? (words.notApproved?.(server) ?? "") : "");
  };
  const error = (message: string, notAsked: string[] = []): ToolNotFoundError =>
    new ToolNotFoundError(name, where, message, closestNames(name, candidates), notAsked);
  // Servers that were not asked may have it: that is what to say, not "unknown tool".
  const unapproved = where ? [] : chosen.skipped;
  if (unapproved.length > 0 && !among.some((t) => t.toolName === name)) {
    const asked =
      among.length > 0
        ? `none of the servers that started offers tool "${name}"${hint && ` (${hint.slice(2)})`}, and`
        : `tool "${name}" may be on a project server, but`;
    // One: why it is not approved, and what it would run; several: their names.
    if (unapproved.length === 1) return error(`${asked} it was not asked: ${notStartable(unapproved[0]!)}`, unapproved);
    const several = `${unapproved.length} project servers (${unapproved.join(", ")}) are not approved`;
    return error(`${asked} ${several}, so they were not asked.${words.approveAll?.(unapproved) ?? ""}`, unapproved);
  }
  const lines = where
    ? []
    : [
        ...statuses.flatMap((s) => (s.state === "failed" ? [failureReport(s, chosen.configs[s.name], words)] : [])),
        ...chosen.skipped.map(notStartable),
        ...chosen.configErrors.map((e) => invalidEntry(e, home)),
      ];
  const tail = lines.length ? `\nThese servers could not be asked:\n${lines.map((l) => `  ${l}`).join("\n")}` : "";
  return error(
    `unknown tool "${name}"${where ? ` on server "${where}"` : ""}${hint}${words.see?.(where) ?? ""}${tail}`,
  );
}
