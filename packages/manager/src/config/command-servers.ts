// The servers a command means: those its command line gives (a `--stdio` command line, an `--http`
// or `--sse` URL with `--header`s; then no config file is read), or those its config files define
// (every host's, or the `--config` files alone), and every name the user may mean among them.

import { InvalidConfigError, type MCPServerConfig } from "@mcp/client";
import { splitCommandLine } from "./command-line.js";
import { headerPair } from "./header-pair.js";
import { loadAllMCPConfigs } from "./load.js";
import type { ConfigError, DiscoveredServer, LoadResult } from "./types.js";

/** Servers a command line gives, as a person writes them (`mcp --stdio "npx -y server" …`). */
export interface CommandLineServers {
  /** A stdio server's command line, split as a POSIX shell splits it (nothing expanded): the server `stdio`. */
  stdio?: string | undefined;
  /** A Streamable HTTP server's URL: the server `http`. */
  http?: string | undefined;
  /** A legacy SSE server's URL: the server `sse`. */
  sse?: string | undefined;
  /** `NAME=VALUE` (or `Name: value`) headers for the `http` and `sse` servers. */
  header?: string[] | undefined;
}

/**
 * The servers a command line gives (named `stdio`, `http` and `sse`), or undefined when it gives
 * none. An `InvalidConfigError` (`field` `stdio` or `header`) for a command line that cannot be
 * split or is empty, a header not written `NAME=VALUE`, or headers with no HTTP server.
 */
export function commandLineServers(given: CommandLineServers): Record<string, MCPServerConfig> | undefined {
  const configs: Record<string, MCPServerConfig> = {};
  if (given.stdio) {
    let words: string[];
    try {
      words = splitCommandLine(given.stdio);
    } catch (error) {
      throw new InvalidConfigError(`--stdio: ${(error as Error).message}`, { field: "stdio", cause: error });
    }
    const [command, ...args] = words;
    if (!command)
      throw new InvalidConfigError(
        '--stdio needs a command line, e.g. --stdio "npx -y @modelcontextprotocol/server-everything"',
        { field: "stdio" },
      );
    configs["stdio"] = { command, args };
  }
  const headers = headersOf(given.header);
  if (headers && !given.http && !given.sse)
    throw new InvalidConfigError(
      "--header is for an ad-hoc HTTP server: give it with --http <url> or --sse <url> (a configured server's headers are in its config)",
      { field: "header" },
    );
  for (const type of ["http", "sse"] as const) {
    const url = given[type];
    if (url) configs[type] = { type, url, ...(headers ? { headers } : {}) };
  }
  return Object.keys(configs).length > 0 ? configs : undefined;
}

/**
 * Headers from values written `NAME=VALUE` (or `Name: value`, as curl writes them; see
 * `headerPair`), undefined for none. An `InvalidConfigError` (`field`: `flag` without its dashes)
 * quotes a value that is not a header, saying how `flag` is written.
 */
export function headersOf(
  values: readonly string[] | undefined,
  flag = "--header",
): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  const headers: Record<string, string> = {};
  for (const value of values) {
    const pair = headerPair(value);
    if (!pair)
      throw new InvalidConfigError(
        `${flag} takes NAME=VALUE (e.g. ${flag} 'Authorization=Bearer \${TOKEN}'), got ${JSON.stringify(value)}`,
        { field: flag.replace(/^-+/, "") },
      );
    headers[pair[0]] = pair[1];
  }
  return headers;
}

/** What {@link findServers} found. */
export interface FoundServers {
  /** The command line's servers, when it gives any (then `loaded` is empty: no file was read). */
  given: Record<string, MCPServerConfig> | undefined;
  /** What the config files define (`loadAllMCPConfigs`). */
  loaded: LoadResult;
}

/**
 * The servers a command means: the command line's ({@link commandLineServers}), else those of the
 * config files found from `cwd` (every host's, or `files` alone when given). Throws as
 * {@link commandLineServers} does.
 */
export async function findServers(
  cwd: string,
  options: CommandLineServers & { home?: string | undefined; files?: string[] | undefined },
): Promise<FoundServers> {
  const given = commandLineServers(options);
  if (given !== undefined)
    return { given, loaded: { configs: {}, sources: {}, servers: {}, shadowed: [], errors: [] } };
  return {
    given,
    loaded: await loadAllMCPConfigs(cwd, {
      home: options.home,
      ...(options.files?.length ? { extraFiles: options.files, families: [] } : {}),
    }),
  };
}

/**
 * Every server name a person may mean, once each: those that may start (`configs`), those left
 * out (`skipped`, e.g. not approved), and those the files name, valid or not, enabled or not.
 */
export function serverNamesOf(found: {
  configs: Readonly<Record<string, unknown>>;
  servers: Readonly<Record<string, DiscoveredServer>>;
  configErrors: readonly ConfigError[];
  skipped?: readonly string[] | undefined;
}): string[] {
  return [
    ...new Set([
      ...Object.keys(found.configs),
      ...(found.skipped ?? []),
      ...Object.keys(found.servers),
      ...found.configErrors.flatMap((e) => (e.server ? [e.server] : [])),
    ]),
  ];
}
