// The servers one command runs, chosen as every host must before it can call a tool: found (the
// command line's, else the config files'), narrowed to the names asked for, the project servers
// reviewed by an approval policy, a fallback server when nothing at all is configured, and the
// command's timeout and close graces laid over each config.

import type { MCPServerConfig } from "@mcp/client";
import { McpError } from "@mcp/jsonrpc";
import { reviewProjectServers } from "../approvals/review-found.js";
import type { ApprovalPolicy } from "../approvals/policy.js";
import { closestNames, didYouMean } from "../tool-target.js";
import { findServers, serverNamesOf, type CommandLineServers } from "./command-servers.js";
import type { ConfigError, DiscoveredServer } from "./types.js";

/** A server name asked for that no config defines (valid or not, enabled or not). */
export class UnknownServerError extends McpError<"unknown_server"> {
  static override readonly brand: string = "UnknownServerError";
  declare readonly serverName: string;
  /** The known names closest to it, best first (none when nothing is near). */
  declare readonly near: string[];

  constructor(serverName: string, near: string[]) {
    super("unknown_server", `no server named "${serverName}"${didYouMean(serverName, near)}`);
    this.serverName = serverName;
    this.near = near;
  }
}

/** Options of {@link chooseServers}. */
export interface ChooseServersOptions extends CommandLineServers {
  /** The project folder: config files are found from it, approvals are kept for it. */
  cwd: string;
  /** The home folder (the user's config files). */
  home?: string | undefined;
  /** Config files read instead of discovery (our `mcp-client.json` format). */
  files?: string[] | undefined;
  /** Only these servers (an {@link UnknownServerError} for a name nobody defines). */
  only?: string[] | undefined;
  /** What decides about project-scope servers (see `reviewProjectServers`). */
  policy?: ApprovalPolicy | undefined;
  /**
   * The server used when nothing is configured, nothing is invalid or left out, and no name but
   * its own is asked for (e.g. a demo server); none by default.
   */
  fallback?: { name: string; config: () => MCPServerConfig } | undefined;
  /** Each server's `timeout`, replacing its config's. */
  timeout?: number | undefined;
  /** A stdio server's `closeGraceMs` and `killGraceMs` unless its config says (a one-shot command ends its servers promptly). */
  closeGraceMs?: number | undefined;
}

/** What {@link chooseServers} chose. */
export interface ChosenServers {
  /** The configs to start. */
  configs: Record<string, MCPServerConfig>;
  /** The config files' entries (approved project servers marked so). */
  servers: Record<string, DiscoveredServer>;
  /** Entries the files hold that could not be read. */
  configErrors: ConfigError[];
  /** Entries hidden by a same-named one of higher precedence. */
  shadowed: DiscoveredServer[];
  /** Project servers left out (not approved as they are now). */
  skipped: string[];
  /** Why each was left out. */
  whySkipped: Map<string, string>;
  /** Whether the configs are the fallback alone. */
  fallback: boolean;
}

/**
 * Finds the servers a command means (`findServers`), keeps those `only` names, reviews the project
 * servers with `policy` (`reviewProjectServers`), falls back to `fallback` when nothing is left
 * and nothing explains why, and lays `timeout` and `closeGraceMs` over the configs. Throws an
 * {@link UnknownServerError} for a name in `only` nobody defines, and as `findServers` does.
 */
export async function chooseServers(options: ChooseServersOptions): Promise<ChosenServers> {
  const { given, loaded } = await findServers(options.cwd, options);
  let configs: Record<string, MCPServerConfig> = given ?? { ...loaded.configs };
  const only = options.only ?? [];
  const fallbackName = options.fallback?.name;
  if (only.length) {
    const known = serverNamesOf({ configs, servers: loaded.servers, configErrors: loaded.errors });
    for (const name of only)
      if (!known.includes(name) && !(name === fallbackName && Object.keys(configs).length === 0))
        throw new UnknownServerError(name, closestNames(name, known));
    configs = Object.fromEntries(Object.entries(configs).filter(([name]) => only.includes(name)));
  }
  const reviewed = await reviewProjectServers(
    { configs, servers: loaded.servers },
    { project: options.cwd, policy: options.policy },
  );
  configs = reviewed.configs;
  const named = given === undefined && only.some((name) => name !== fallbackName);
  const fallback =
    options.fallback !== undefined &&
    Object.keys(configs).length === 0 &&
    loaded.errors.length === 0 &&
    reviewed.skipped.length === 0 &&
    !named;
  if (fallback) configs = { [fallbackName!]: options.fallback!.config() };
  const grace = options.closeGraceMs;
  configs = Object.fromEntries(
    Object.entries(configs).map(([name, config]) => [
      name,
      {
        ...("command" in config && grace !== undefined ? { closeGraceMs: grace, killGraceMs: grace } : {}),
        ...config,
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      },
    ]),
  );
  return {
    configs,
    servers: reviewed.servers,
    configErrors: loaded.errors,
    shadowed: loaded.shadowed,
    skipped: reviewed.skipped,
    whySkipped: reviewed.whySkipped,
    fallback,
  };
}
