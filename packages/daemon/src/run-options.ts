// A daemon's settings as a command line gives them (minutes, megabytes) and the environment adds
// (MCP_POOL_IDLE_MS, MCP_POOL_MAX_CALLS, MCP_POOL_MAX_RSS_MB, MCP_POOL_MAX_UNREAD_MB): `startDaemon`'s options from them, and
// the arguments that give the same settings to a daemon started in the background (`daemon run`).

import { DaemonError, EXIT } from "./errors.js";
import type { DaemonOptions } from "./server.js";

/** A daemon's settings in a command line's units (`mcp daemon start`'s flags). */
export interface DaemonRunFlags {
  /** Minutes without a request before the daemon exits (default 60). */
  idle?: number | undefined;
  /** Minutes a server may go unused before it is stopped (default 10). */
  serverIdle?: number | undefined;
  /** Servers never stopped for idleness. */
  keepAlive?: string[] | undefined;
  /** Minutes a pooled server with no host attached is kept (default 10; `MCP_POOL_IDLE_MS` in ms). */
  poolIdle?: number | undefined;
  /** Concurrent tool calls per pooled server (default 16; `MCP_POOL_MAX_CALLS`). */
  poolMaxCalls?: number | undefined;
  /** Memory a pooled server may use, in MB (default none; `MCP_POOL_MAX_RSS_MB`; 0: none). */
  poolMaxRss?: number | undefined;
}

const MINUTE = 60_000;

/**
 * `startDaemon`'s timing and pool options from `flags`, a flag not given taken from `env`
 * (`MCP_POOL_IDLE_MS`, `MCP_POOL_MAX_CALLS` rounded down and at least 1, `MCP_POOL_MAX_RSS_MB`,
 * `MCP_POOL_MAX_UNREAD_MB`: what a host may leave unread, 0 or unset the default 16), else
 * the defaults. A `DaemonError` (exit code 2) names a variable that is not a non-negative number.
 */
export function daemonRunOptions(
  flags: DaemonRunFlags,
  env: NodeJS.ProcessEnv = process.env,
): Pick<
  DaemonOptions,
  "idleMs" | "serverIdleMs" | "keepAlive" | "poolIdleMs" | "poolMaxCalls" | "poolMaxRssBytes" | "poolMaxUnreadBytes"
> {
  const fromEnv = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === "") return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
      throw new DaemonError(`${name} must be a non-negative number; got ${JSON.stringify(value)}`, EXIT.usage);
    return n;
  };
  const maxRssMb = flags.poolMaxRss ?? fromEnv("MCP_POOL_MAX_RSS_MB");
  const maxUnreadMb = fromEnv("MCP_POOL_MAX_UNREAD_MB");
  return {
    idleMs: (flags.idle ?? 60) * MINUTE,
    serverIdleMs: (flags.serverIdle ?? 10) * MINUTE,
    keepAlive: flags.keepAlive ?? [],
    poolIdleMs: flags.poolIdle !== undefined ? flags.poolIdle * MINUTE : (fromEnv("MCP_POOL_IDLE_MS") ?? 10 * MINUTE),
    poolMaxCalls: flags.poolMaxCalls ?? Math.max(1, Math.floor(fromEnv("MCP_POOL_MAX_CALLS") ?? 16)),
    // 0 or unset: no cap.
    poolMaxRssBytes: maxRssMb ? maxRssMb * 1024 * 1024 : undefined,
    poolMaxUnreadBytes: maxUnreadMb ? maxUnreadMb * 1024 * 1024 : undefined,
  };
}

/** The command-line arguments that give `flags` again (`--idle 5 --keep-alive a,b …`), those not given left out. */
export function daemonRunArgs(flags: DaemonRunFlags): string[] {
  const args: string[] = [];
  if (flags.idle !== undefined) args.push("--idle", String(flags.idle));
  if (flags.serverIdle !== undefined) args.push("--server-idle", String(flags.serverIdle));
  if (flags.keepAlive?.length) args.push("--keep-alive", flags.keepAlive.join(","));
  if (flags.poolIdle !== undefined) args.push("--pool-idle", String(flags.poolIdle));
  if (flags.poolMaxCalls !== undefined) args.push("--pool-max-calls", String(flags.poolMaxCalls));
  if (flags.poolMaxRss !== undefined) args.push("--pool-max-rss", String(flags.poolMaxRss));
  return args;
}
