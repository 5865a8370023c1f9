// Finding the servers, checking approvals, and the manager a command runs on (`withSession`).
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { InvalidConfigError, type MCPServerConfig } from "@mcp/client";
import { MemoryTokenStore } from "@mcp/oauth";
import {
  chooseServers,
  findServers,
  MCPManager,
  serverNamesOf,
  type ChosenServers,
  type MCPTool,
  userConfigDir,
  type MCPManagerOptions,
} from "@mcp/manager";
import { approvalsFile, cliApprovalPolicy } from "./approvals.js";
import { connectingLine } from "./connecting.js";
import type { RedisStores } from "@mcp/store-redis";
import { CliError, EXIT, HINT, note, usageError, warn } from "./ui.js";
import { CLI_VERSION } from "./version.js";

/** Options every command takes. */
export interface GlobalOptions {
  config?: string[] | undefined;
  stdio?: string | undefined;
  http?: string | undefined;
  sse?: string | undefined;
  /** `NAME=VALUE` headers for the ad-hoc `--http` / `--sse` server. */
  header?: string[] | undefined;
  server?: string[] | undefined;
  json?: boolean | undefined;
  timeout?: number | undefined;
  cache?: boolean | undefined;
  yes?: boolean | undefined;
  /**
   * The ad-hoc server was given by its URL to this one command (`mcp call <url>`): nothing about it
   * is kept or read from what is (no tool cache, no pins, OAuth tokens in memory only, no daemon).
   */
  ephemeral?: boolean | undefined;
}

/** How long a stdio server gets to exit after its stdin ends (then SIGTERM), and after SIGTERM (then SIGKILL), unless its config says. */
const CLOSE_GRACE_MS = 500;

/** The name of the embedded default server. */
const EMBEDDED_NAME = "everything";

/** The embedded default: @modelcontextprotocol/server-everything over stdio, a dependency of this app. */
export function embeddedConfig(): MCPServerConfig {
  const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  return { command: process.execPath, args: [entry, "stdio"], timeout: 30_000 };
}

export { CLI_VERSION };

/** Where our own user-scope files live (next to `mcp-client.json`): the manager's folder, so both agree. */
export function configDir(home: string): string {
  return userConfigDir({ home, env: process.env, platform: process.platform });
}

/** What a command works with: the servers chosen and, once connected, the manager. */
export interface Session extends Omit<ChosenServers, "fallback" | "whySkipped"> {
  manager: MCPManager;
  home: string;
  cwd: string;
  /** Why each skipped server was skipped ("not approved yet", "changed since it was approved: env", …). */
  whySkipped?: Map<string, string> | undefined;
  /** The embedded default server is all there is (@mcp/manager's fallback). */
  embedded: boolean;
  /** Registers the servers with the manager (default: `addServers` of them all); the daemon registers only new or changed ones. */
  register?: (() => Promise<MCPTool[]>) | undefined;
  /** The Redis stores in use (MCP_REDIS_URL), if any. */
  shared?: RedisStores | undefined;
  close(): Promise<void>;
}

/** A config given wrong on the command line, or a server name nobody defines, is a usage error. */
const usage = (error: unknown): never => usageError(error, InvalidConfigError.isInstance(error));

/** Every server name a command could mean (configured, invalid or not; or the ad-hoc server), nothing started or asked. */
export async function serverNames(globals: GlobalOptions): Promise<string[]> {
  const home = process.env["HOME"] ?? homedir();
  const { given, loaded } = await findServers(process.cwd(), { ...globals, home, files: globals.config }).catch(usage);
  return serverNamesOf({ configs: given ?? loaded.configs, servers: loaded.servers, configErrors: loaded.errors });
}

/**
 * With MCP_REDIS_URL set, the Redis stores it names (@mcp/store-redis's storesFromEnv, loaded only
 * then): tool lists, OAuth tokens and pins shared by replicas, CI workers or machines. A key that
 * cannot be had, or tokens that would go unencrypted without MCP_REDIS_PLAINTEXT_TOKENS=1, is a usage error.
 */
async function sharedStores(env: NodeJS.ProcessEnv): Promise<RedisStores | undefined> {
  if (!env["MCP_REDIS_URL"]) return undefined;
  const { RedisKeyError, storesFromEnv } = await import("@mcp/store-redis");
  const said = (message: string): string => `Redis (MCP_REDIS_URL): ${message}`;
  return storesFromEnv(env, { onError: (error) => note(said(error.message)), onWarning: (m) => warn(said(m)) }).catch(
    (error: unknown) => {
      if (!(error instanceof RedisKeyError)) throw error;
      const noKey = !env["MCP_REDIS_KEY"] && !env["MCP_REDIS_KEY_FILE"];
      throw new CliError(noKey ? error.message.replace(/\.$/, HINT.redisPlaintext) : error.message, EXIT.usage);
    },
  );
}

/** Finds the servers (ad-hoc flags, `--config` files, or discovery), asks about untrusted ones, and connects them. */
export async function openSession(
  globals: GlobalOptions,
  options: {
    connect?: boolean;
    allowEmbedded?: boolean;
    onNotification?: (server: string, method: string, params: unknown) => void;
    /** Handlers for every connection (the inspector answers elicitation and sampling). */
    handlers?: Pick<MCPManagerOptions, "onElicitation" | "onSampling">;
    /** More manager options (`mcp serve`: logs, roots, elicitation answers passed on unchanged). */
    manager?: Pick<MCPManagerOptions, "onLog" | "onRoots" | "connect"> | undefined;
  } = {},
): Promise<Session> {
  const home = process.env["HOME"] ?? homedir();
  const cwd = process.cwd();
  // Every command that starts servers (call, tools, servers, inspect, serve, and the daemon, which
  // is sent only what passed here) comes through this one check: the manager's review with the
  // CLI's policy (approvals.ts). What passes is marked approved; the rest is left out.
  const policy = cliApprovalPolicy({
    project: cwd,
    file: approvalsFile(configDir(home)),
    yes: globals.yes === true,
    interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
    home,
  });
  const chosen = await chooseServers({
    ...globals,
    cwd,
    home,
    files: globals.config,
    only: globals.server,
    policy,
    fallback: options.allowEmbedded === false ? undefined : { name: EMBEDDED_NAME, config: embeddedConfig },
    timeout: globals.timeout,
    // A one-shot command ends its stdio servers promptly: a server that ignores the end of its stdin
    // gets SIGTERM after half a second, not two (Ctrl-C then exits within a second).
    closeGraceMs: CLOSE_GRACE_MS,
  }).catch(usage);
  const { fallback: embedded, ...found } = chosen;
  if (embedded)
    note(
      `No MCP config found: using the embedded default server (@modelcontextprotocol/server-everything over stdio). See "mcp config add" to add yours.`,
    );

  const shared = await sharedStores(process.env);
  const manager = new MCPManager({
    cwd,
    cache: globals.cache === false || globals.ephemeral ? false : shared?.cache,
    ...(shared ? { oauth: { store: shared.tokens }, pins: { store: shared.pins } } : {}),
    // A server given by URL alone: the user's token store is neither read nor written for it, and its tools are not pinned.
    ...(globals.ephemeral ? { oauth: { store: new MemoryTokenStore() }, pins: false as const } : {}),
    ...options.manager,
    connect: { clientInfo: { name: "mcp-cli", version: CLI_VERSION }, ...options.manager?.connect },
    // A cut result's file (call --max-result-chars) is read after the command ends: kept.
    results: { keep: true },
    ...options.handlers,
    onNotification: options.onNotification,
    // Anything unapproved that reached the manager would be refused there, saying how to approve it.
    approvals: { store: policy.store, howToApprove: policy.howToApprove },
  });
  const stopConnecting = connectingLine(manager);
  const session: Session = {
    ...found,
    manager,
    home,
    cwd,
    embedded,
    shared,
    close: async () => {
      stopConnecting();
      await manager.disconnectAll();
      await shared?.close();
    },
  };
  if (options.connect !== false) await manager.connectServers(found.configs, found.servers);
  return session;
}

/** Opens a session, runs a command in it, and closes it whatever happens (servers ended, cache writes finished). */
export async function withSession<T>(
  globals: GlobalOptions,
  options: Parameters<typeof openSession>[1],
  run: (session: Session) => Promise<T>,
): Promise<T> {
  const session = await openSession(globals, options);
  try {
    return await run(session);
  } finally {
    await session.close();
  }
}

/** Waits for every server that is still connecting (cached tools let the gate pass early), so what is shown is live. */
export async function settle(session: Session): Promise<void> {
  await session.manager.startServers(Object.keys(session.configs));
}

/** The config file a server came from, or how it was given. */
export function sourceOf(session: Session, name: string): string {
  if (session.embedded) return "(embedded default)";
  const file = session.servers[name]?.source.file;
  return file ?? "(command line)";
}
