// The daemon: one process per user that keeps MCP servers connected between CLI commands. It
// listens on a Unix socket (mode 600, in a folder it made that only the user can enter); the CLI
// sends it a call with the servers it resolved, as its shell runs them, and the daemon answers from
// servers it already runs for exactly that configuration (see views.ts), or declines a call it
// cannot run as the shell would (see environment.ts).

import { chmodSync, existsSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import type { MCPServerConfig } from "@mcp/client";
import { managerApprovals, ServerPool } from "@mcp/pool";
import {
  createApprovalStore,
  defaultCacheDir,
  FileToolCache,
  type ConfigError,
  type DiscoveredServer,
} from "@mcp/manager";
import { approveCommandFor, approvalsFile } from "../approvals.js";
import { failureHint } from "../live.js";
import { knownServers, label, prepareCall, splitTarget } from "../resolve.js";
import { CLI_VERSION, configDir, type Session } from "../session.js";
import { CliError, EXIT } from "../ui.js";
import { whyNotHere } from "./environment.js";
import { LightRelay } from "./light-relay.js";
import { attachHost, poolRequest, type AttachParams, type PoolHostSession } from "./pool-socket.js";
import { makePrivateFolder } from "./private.js";
import { Views, type DaemonServerStatus } from "./views.js";
import { onMessages, send, type DaemonMessage } from "./wire.js";

/** Options of {@link runDaemon}. */
export interface DaemonOptions {
  socket: string;
  home: string;
  /** The daemon exits after this long without a request (ms). */
  idleMs: number;
  /** A server unused this long is stopped (ms), unless named in `keepAlive`. */
  serverIdleMs: number;
  keepAlive: string[];
  /** A pooled server (`mcp daemon stdio`) with no host attached is ended after this long (ms). */
  poolIdleMs: number;
  /** Concurrent tool calls per pooled server. */
  poolMaxCalls: number;
  /** Memory a pooled server's processes may use (bytes); undefined: no cap. */
  poolMaxRssBytes?: number | undefined;
}

/** What `status` answers. */
export interface DaemonStatus {
  pid: number;
  version: string;
  socket: string;
  uptimeMs: number;
  clients: number;
  calls: number;
  /** How long since the last call (ms); `status` itself is not counted. */
  idleMs: number;
  /** The daemon exits after this long without a call (ms). */
  idleLimitMs: number;
  servers: DaemonServerStatus[];
}

/**
 * The method of a call. Named anew when what a call carries changed (each server as the shell runs
 * it, and the shell's `environment`): a daemon of an earlier mcp answers "unknown method" and runs
 * nothing, rather than running the servers its own way.
 */
export const CALL = "call/2";

/** What the CLI sends with a call: the session it resolved (its servers, and why others are missing) and the words. */
export interface CallParams {
  /** Each server as the calling shell runs it (see environment.ts). */
  configs: Record<string, MCPServerConfig>;
  /** The calling shell's values of the variables the daemon's own process would use for HTTP servers. */
  environment: Record<string, string>;
  servers: Record<string, DiscoveredServer>;
  configErrors: ConfigError[];
  skipped: string[];
  shadowed: DiscoveredServer[];
  embedded: boolean;
  words: string[];
  cwd: string;
  timeout?: number | undefined;
  maxResultChars?: number | undefined;
  /** Why each skipped project server was skipped (the CLI's approval check): the call says so, as a direct call does. */
  whySkipped?: Record<string, string> | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The params of a `call`, checked: a usage error naming the field that is wrong. */
function callParams(value: unknown): CallParams {
  const wrong = (field: string, what: string): CliError =>
    new CliError(`the daemon's call: params.${field} must be ${what}`, EXIT.usage);
  if (!isRecord(value)) throw new CliError("the daemon's call: params must be an object", EXIT.usage);
  for (const field of ["configs", "servers"]) {
    if (!isRecord(value[field]) || !Object.values(value[field]).every(isRecord))
      throw wrong(field, "an object of objects");
  }
  for (const field of ["configErrors", "shadowed"])
    if (value[field] !== undefined && !(Array.isArray(value[field]) && value[field].every(isRecord)))
      throw wrong(field, "a list of objects");
  for (const field of ["words", "skipped"]) {
    if (
      (field === "words" || value[field] !== undefined) &&
      !(Array.isArray(value[field]) && value[field].every((w) => typeof w === "string"))
    )
      throw wrong(field, "a list of strings");
  }
  for (const field of ["whySkipped", "environment"]) {
    if (
      (field === "environment" || value[field] !== undefined) &&
      !(isRecord(value[field]) && Object.values(value[field]).every((w) => typeof w === "string"))
    )
      throw wrong(field, "an object of strings");
  }
  if (typeof value["cwd"] !== "string") throw wrong("cwd", "a string");
  for (const field of ["timeout", "maxResultChars"])
    if (value[field] !== undefined && typeof value[field] !== "number") throw wrong(field, "a number");
  return {
    configErrors: [],
    skipped: [],
    shadowed: [],
    ...value,
    embedded: value["embedded"] === true,
  } as unknown as CallParams;
}

/** The servers a call may start: the one its words name, else all of them (a bare tool name may start each). */
function mayStart(params: CallParams): string[] {
  const all = Object.keys(params.configs);
  try {
    const { server } = splitTarget(
      params.words,
      knownServers({
        configs: params.configs,
        servers: params.servers,
        skipped: params.skipped,
        configErrors: params.configErrors,
      }),
    );
    return server === undefined ? all : all.filter((name) => name === server);
  } catch {
    return all; // no words: the call fails as a direct one does
  }
}

/** Whether a daemon answers on `socket`: "live", "stale" (a socket file nobody listens on) or "absent". */
export function probe(socket: string, timeoutMs = 1000): Promise<"live" | "stale" | "absent"> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    const timer = setTimeout(() => {
      connection.destroy();
      resolve("stale");
    }, timeoutMs);
    connection.once("connect", () => {
      clearTimeout(timer);
      connection.destroy();
      resolve("live");
    });
    connection.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === "ENOENT" && !existsSync(socket) ? "absent" : "stale");
    });
  });
}

/** Runs the daemon until `stop`, SIGTERM, or `idleMs` without a request. */
export async function runDaemon(options: DaemonOptions): Promise<void> {
  // The folder first: nothing is probed or removed in a folder that is not ours alone.
  makePrivateFolder(options.socket);
  const state = await probe(options.socket);
  if (state === "live") throw new CliError(`an mcp daemon already answers on ${options.socket}`);
  // A socket file left by a daemon that died is replaced.
  if (state === "stale" && process.platform !== "win32") rmSync(options.socket, { force: true });
  const started = Date.now();
  const views = new Views({ serverIdleMs: options.serverIdleMs, keepAlive: options.keepAlive });
  // The servers hosts share through `mcp daemon stdio` (see pool-socket.ts and @mcp/pool).
  const pool = new ServerPool({
    idleMs: options.poolIdleMs,
    maxConcurrentCalls: options.poolMaxCalls,
    maxRssBytes: options.poolMaxRssBytes,
    clientInfo: { name: "mcp-pool", version: CLI_VERSION },
    // The CLI's approvals file and words; the shim's own check (session.ts) ran before, with its shell's env.
    approvals: managerApprovals({
      policy: {
        store: createApprovalStore({ file: approvalsFile(configDir(options.home)) }),
        howToApprove: (server) => approveCommandFor([server.name]),
      },
      load: { home: options.home },
    }),
    // Start on first use: a host's initialize and tools/list from a list read live before (the manager's cache folder).
    toolCache: new FileToolCache(defaultCacheDir(process.env, process.platform, options.home)),
  });
  // The light shims' loopback listener (light-relay.ts), opened on the first ticket only.
  const light = new LightRelay<AttachParams>(
    (params, host) => {
      const session = attachHost(pool, params, host);
      return { session, approved: pool.approval(session) };
    },
    (params) => params.shimPid,
  );
  const clients = new Set<Socket>();
  let calls = 0;
  let lastRequest = Date.now();
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const call = async (socket: Socket, message: DaemonMessage, signal: AbortSignal): Promise<void> => {
    const params = callParams(message.params);
    const declined = whyNotHere(params.configs, mayStart(params), params.environment);
    if (declined !== undefined) return send(socket, { id: message.id, declined });
    calls += 1;
    const view = views.acquire(params.configs, params.servers, params.cwd);
    try {
      // Exactly what the CLI resolved: its servers, and why the others are missing.
      const session: Session = {
        manager: view.manager,
        home: options.home,
        cwd: params.cwd,
        configs: params.configs,
        servers: params.servers,
        configErrors: params.configErrors,
        shadowed: params.shadowed,
        skipped: params.skipped,
        whySkipped: new Map(Object.entries(params.whySkipped ?? {})),
        embedded: params.embedded,
        register: () => view.register(),
        close: async () => {},
      };
      const { tool, args } = await prepareCall(session, params.words, signal);
      view.used.set(tool.serverName, Date.now());
      send(socket, { id: message.id, calling: label(tool) });
      const result = await tool
        .call(args, {
          signal,
          resetTimeoutOnProgress: true,
          onProgress: (progress) =>
            send(socket, {
              id: message.id,
              progress: { progress: progress.progress, total: progress.total, message: progress.message },
            }),
          ...(params.timeout === undefined ? {} : { timeout: params.timeout }),
          ...(params.maxResultChars === undefined ? {} : { maxResultChars: params.maxResultChars }),
        })
        .catch((error: unknown) => failureHint(error, `calling ${label(tool)}`)); // what `mcp call` says without the daemon
      view.used.set(tool.serverName, Date.now());
      send(socket, { id: message.id, result: { label: label(tool), toolName: tool.toolName, value: result } });
    } finally {
      views.release(view);
    }
  };

  const status = (): DaemonStatus => ({
    pid: process.pid,
    version: CLI_VERSION,
    socket: options.socket,
    uptimeMs: Date.now() - started,
    // Not counting the connection that asks.
    clients: clients.size - 1,
    calls,
    idleMs: Date.now() - lastRequest,
    idleLimitMs: options.idleMs,
    servers: views.statuses(),
  });

  const server = createServer((socket) => {
    clients.add(socket);
    const running = new Map<number, AbortController>();
    // Set once a shim attached this connection to a pooled server: from then on it carries that host's messages.
    let host: PoolHostSession | undefined;
    socket.on("error", () => {});
    socket.on("close", () => {
      clients.delete(socket);
      host?.close();
      // The CLI went away (Ctrl-C, killed): its calls are cancelled.
      for (const controller of running.values()) controller.abort(new Error("the CLI went away"));
    });
    onMessages(
      socket,
      (message) => {
        // Asking for the status is not a use: the idle time it reports is the time since the last call.
        if (message.method === "status") return send(socket, { id: message.id, result: status() });
        if (message.method === "pool/status" && host === undefined) return poolRequest(pool, socket, message, () => {});
        lastRequest = Date.now();
        if (host !== undefined) return host.receive(message.mcp);
        if (message.method?.startsWith("pool/"))
          return poolRequest(pool, socket, message, (session) => (host = session), light);
        if (message.method === "stop") {
          send(socket, { id: message.id, result: { stopping: true } });
          return finish();
        }
        if (message.method !== CALL)
          return send(socket, {
            id: message.id,
            error: { message: `unknown method ${String(message.method)}`, exitCode: EXIT.usage },
          });
        if (running.has(message.id))
          return send(socket, {
            id: message.id,
            error: {
              message: `a call with id ${message.id} is already running on this connection`,
              exitCode: EXIT.usage,
            },
          });
        const controller = new AbortController();
        running.set(message.id, controller);
        call(socket, message, controller.signal)
          .catch((error: unknown) =>
            send(socket, {
              id: message.id,
              error: {
                message: error instanceof Error ? error.message : String(error),
                exitCode: error instanceof CliError ? error.exitCode : EXIT.failure,
              },
            }),
          )
          .finally(() => running.delete(message.id));
      },
      // A line that is not a message is refused and ends this connection (and its calls); the
      // daemon and every other connection go on.
      (problem) => {
        send(socket, { id: 0, error: { message: `the mcp daemon refused ${problem}`, exitCode: EXIT.usage } });
        socket.end(() => socket.destroy());
      },
    );
  });
  // Made 600 from the start (umask), not after: no moment when another user could connect.
  const umask = process.platform === "win32" ? undefined : process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.socket, () => resolve());
    });
  } finally {
    if (umask !== undefined) process.umask(umask);
  }
  if (process.platform !== "win32") chmodSync(options.socket, 0o600);

  // Idle servers are stopped (kept-alive ones stay); an idle daemon exits.
  const sweep = setInterval(
    () => {
      views.sweep();
      if (clients.size === 0 && light.connections === 0 && Date.now() - lastRequest > options.idleMs) finish();
    },
    Math.min(30_000, Math.max(50, Math.floor(Math.min(options.idleMs, options.serverIdleMs) / 4))),
  );
  const onSignal = (): void => finish();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  await finished;
  clearInterval(sweep);
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
  for (const socket of clients) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all([views.closeAll(), light.close(), pool.close()]);
  if (process.platform !== "win32") rmSync(options.socket, { force: true });
}
