// The daemon: one process per user that keeps MCP servers connected between CLI commands. It
// listens on a Unix socket (mode 600, in a folder only the user can enter); the CLI sends it a
// `call` with the servers it found, and the daemon answers from servers it already runs.

import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { dirname } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { MCPManager, type DiscoveredServer } from "@mcp/manager";
import { failureHint } from "../live.js";
import { label, prepareCall } from "../resolve.js";
import { CLI_VERSION, type Session } from "../session.js";
import { CliError } from "../ui.js";
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
}

/** What `status` answers. */
export interface DaemonStatus {
  pid: number;
  version: string;
  socket: string;
  uptimeMs: number;
  clients: number;
  calls: number;
  idleMs: number;
  servers: { name: string; state: string; tools: number; keepAlive: boolean; idleForMs: number | undefined }[];
}

interface CallParams {
  configs: Record<string, MCPServerConfig>;
  servers: Record<string, DiscoveredServer>;
  words: string[];
  cwd: string;
  timeout?: number | undefined;
  maxResultChars?: number | undefined;
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
  const state = await probe(options.socket);
  if (state === "live") throw new CliError(`an mcp daemon already answers on ${options.socket}`);
  if (process.platform !== "win32") {
    mkdirSync(dirname(options.socket), { recursive: true, mode: 0o700 });
    chmodSync(dirname(options.socket), 0o700);
    // A socket file left by a daemon that died is replaced.
    if (state === "stale") rmSync(options.socket, { force: true });
  }
  const started = Date.now();
  const manager = new MCPManager({ connect: { clientInfo: { name: "mcp-cli-daemon", version: CLI_VERSION } }, results: { keep: true } });
  const registered = new Map<string, string>();
  const lastUsed = new Map<string, number>();
  const clients = new Set<Socket>();
  let calls = 0;
  let lastRequest = Date.now();
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const register = async (configs: Record<string, MCPServerConfig>, servers: Record<string, DiscoveredServer>) => {
    const changed = Object.entries(configs)
      .map(([name, config]) => ({ name, config, key: JSON.stringify(config) }))
      .filter(({ name, key }) => registered.get(name) !== key);
    if (changed.length > 0) {
      await manager.addServers(Object.fromEntries(changed.map(({ name, config }) => [name, config])), servers);
      for (const { name, key } of changed) registered.set(name, key);
    }
    return manager.getTools();
  };

  const call = async (socket: Socket, message: DaemonMessage, signal: AbortSignal): Promise<void> => {
    const params = message.params as CallParams;
    const session: Session = {
      manager,
      home: options.home,
      cwd: params.cwd,
      configs: params.configs,
      servers: params.servers,
      configErrors: [],
      shadowed: [],
      skipped: [],
      embedded: false,
      register: () => register(params.configs, params.servers),
      close: async () => {},
    };
    const { tool, args } = await prepareCall(session, params.words, signal);
    lastUsed.set(tool.serverName, Date.now());
    send(socket, { id: message.id, calling: label(tool) });
    const result = await tool
      .call(args, {
        signal,
        resetTimeoutOnProgress: true,
        onProgress: (progress) => send(socket, { id: message.id, progress: { progress: progress.progress, total: progress.total, message: progress.message } }),
        ...(params.timeout === undefined ? {} : { timeout: params.timeout }),
        ...(params.maxResultChars === undefined ? {} : { maxResultChars: params.maxResultChars }),
      })
      .catch((error: unknown) => failureHint(error, `calling ${label(tool)}`)); // what `mcp call` says without the daemon
    lastUsed.set(tool.serverName, Date.now());
    send(socket, { id: message.id, result: { label: label(tool), toolName: tool.toolName, value: result } });
  };

  const status = (): DaemonStatus => ({
    pid: process.pid,
    version: CLI_VERSION,
    socket: options.socket,
    uptimeMs: Date.now() - started,
    // Not counting the connection that asks.
    clients: clients.size - 1,
    calls,
    idleMs: options.idleMs,
    servers: manager.getStatuses().map((s) => ({ name: s.name, state: s.state, tools: s.toolCount, keepAlive: options.keepAlive.includes(s.name), idleForMs: lastUsed.has(s.name) ? Date.now() - lastUsed.get(s.name)! : undefined })),
  });

  const server = createServer((socket) => {
    clients.add(socket);
    const running = new Map<number, AbortController>();
    socket.on("error", () => {});
    socket.on("close", () => {
      clients.delete(socket);
      // The CLI went away (Ctrl-C, killed): its calls are cancelled.
      for (const controller of running.values()) controller.abort(new Error("the CLI went away"));
    });
    onMessages(socket, (message) => {
      lastRequest = Date.now();
      if (message.method === "status") return send(socket, { id: message.id, result: status() });
      if (message.method === "stop") {
        send(socket, { id: message.id, result: { stopping: true } });
        return finish();
      }
      if (message.method !== "call") return send(socket, { id: message.id, error: { message: `unknown method ${String(message.method)}`, exitCode: 2 } });
      calls += 1;
      const controller = new AbortController();
      running.set(message.id, controller);
      call(socket, message, controller.signal)
        .catch((error: unknown) => send(socket, { id: message.id, error: { message: (error as Error).message ?? String(error), exitCode: error instanceof CliError ? error.exitCode : 1 } }))
        .finally(() => running.delete(message.id));
    });
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
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const s of manager.getStatuses()) {
      const used = lastUsed.get(s.name) ?? started;
      if (s.state === "connected" && !options.keepAlive.includes(s.name) && now - used > options.serverIdleMs) {
        registered.delete(s.name);
        void manager.disconnectServer(s.name);
      }
    }
    if (clients.size === 0 && now - lastRequest > options.idleMs) finish();
  }, Math.min(30_000, Math.max(50, Math.floor(Math.min(options.idleMs, options.serverIdleMs) / 4))));
  const onSignal = (): void => finish();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  await finished;
  clearInterval(sweep);
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
  for (const socket of clients) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await manager.disconnectAll();
  if (process.platform !== "win32") rmSync(options.socket, { force: true });
}
