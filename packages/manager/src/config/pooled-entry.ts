// The entry a pool shim (`mcp daemon stdio <name>`) serves, found among the servers a host found: a
// pooled entry's original (unwrapShimConfig), or why it cannot be served (a project server not
// approved, an entry that could not be read, an HTTP server, an entry that runs the shim itself).

import { McpError } from "@mcp/jsonrpc";
import type { StdioServerConfig } from "@mcp/client";
import type { ChosenServers } from "./choose-servers.js";
import { unwrapShimConfig } from "./pool-text.js";

/** Why {@link pooledEntry} cannot serve a server. */
export type PooledEntryProblem = "not_approved" | "invalid" | "not_stdio" | "runs_shim";

/** The named server cannot be served by a pool shim; `problem` says why, the message in words. */
export class PooledEntryError extends McpError<"not_servable"> {
  static override readonly brand: string = "PooledEntryError";
  declare readonly serverName: string;
  declare readonly problem: PooledEntryProblem;

  constructor(serverName: string, problem: PooledEntryProblem, message: string) {
    super("not_servable", message);
    this.serverName = serverName;
    this.problem = problem;
  }
}

/** What {@link pooledEntry} found. */
export interface PooledEntry {
  /** The stdio server the entry runs (a pooled entry's original command and arguments). */
  config: StdioServerConfig;
  /** The file the entry is in (undefined for a server given on the command line). */
  source: string | undefined;
  /** Every config file the search read (entries, shadowed ones and those that could not be read): whose `${VAR}`s matter. */
  files: string[];
  /** Set when the shim was given a command (after `--`) other than the entry's: the entry wins; the words it was given. */
  otherCommand: string[] | undefined;
}

/**
 * The stdio entry `server` names in `found`, as a pool shim serves it: a pooled entry's original
 * command (the shim's own words unwrapped); `command`, the command the shim was given, is only
 * compared (the entry found by name wins). A {@link PooledEntryError} when it cannot be served.
 */
export function pooledEntry(
  found: Pick<ChosenServers, "configs" | "servers" | "skipped" | "configErrors" | "shadowed"> & {
    whySkipped?: ReadonlyMap<string, string> | undefined;
  },
  server: string,
  command: readonly string[] = [],
): PooledEntry {
  const fail = (problem: PooledEntryProblem, message: string): never => {
    throw new PooledEntryError(server, problem, message);
  };
  if (found.skipped.includes(server))
    fail(
      "not_approved",
      `project server "${server}" is not served: ${found.whySkipped?.get(server) ?? "not approved yet"}`,
    );
  const entry = found.configs[server];
  const config = entry === undefined ? undefined : (unwrapShimConfig(entry) ?? entry);
  const broken = found.configErrors.find((error) => error.server === server);
  if (config === undefined)
    return fail("invalid", `server "${server}" cannot be served${broken ? `: ${broken.message}` : ""}`);
  const source = found.servers[server]?.source.file;
  if (!("command" in config))
    return fail(
      "not_stdio",
      `server "${server}" is an HTTP server: a host reaches it directly, the pool serves stdio servers`,
    );
  // Following an entry that runs the shim itself (`… daemon stdio …`) would loop.
  const runs = [config.command, ...(config.args ?? [])];
  if (runs.some((word, i) => word === "daemon" && runs[i + 1] === "stdio"))
    fail("runs_shim", `server "${server}"${source ? ` in ${source}` : ""} runs mcp daemon stdio itself`);
  const [given, ...args] = command;
  const differs =
    given !== undefined && (config.command !== given || (config.args ?? []).join("\0") !== args.join("\0"));
  return {
    config,
    source,
    files: [
      ...[...Object.values(found.servers), ...found.shadowed].map((found) => found.source.file),
      ...found.configErrors.map((error) => error.file),
    ],
    otherCommand: differs ? [...command] : undefined,
  };
}
