// The daemon: one process per user that keeps MCP servers connected between commands, and pools
// stdio servers for every host on the machine. It listens on a Unix socket (mode 600, in a folder
// it made that only the user can enter); a client sends it a call with the servers it resolved, as
// its shell runs them, and the daemon answers from servers it already runs for exactly that
// configuration (views.ts), or declines a call it cannot run as the shell would (environment.ts);
// a shim attaches a host to a pooled server (pool-socket.ts, light-relay.ts).

import { createRequire } from "node:module";
import { chmodSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { createServer, type Socket } from "node:net";
import { managerApprovals, ServerPool, type PoolApprovals } from "@mcp/pool";
import {
  createApprovalStore,
  defaultApprovalsFile,
  defaultCacheDir,
  FileToolCache,
  type ToolCache,
} from "@mcp/manager/config";
import { CALL, runCall, type CallHandler } from "./call.js";
import { probeDaemon } from "./request.js";
import { DaemonError, EXIT, exitCodeOf } from "./errors.js";
import { LightRelay } from "./light-relay.js";
import { attachHost, poolRequest, type AttachParams, type PoolHostSession } from "./pool-socket.js";
import { HostLedger } from "./unread.js";
import { makePrivateFolder } from "./private.js";
import { Views, type DaemonServerStatus } from "./views.js";
import { onMessages, send } from "./wire.js";

const MINUTE = 60_000;

/** This package's version: what `status` says when the embedder gives none. */
const VERSION = (createRequire(import.meta.url)("../package.json") as { version: string }).version;

/** Options of {@link startDaemon}. */
export interface DaemonOptions {
  /** The socket to listen on (`claimSocketFolder(cacheDir, daemonSocketPath(cacheDir))` for this user's). */
  socket: string;
  /** The user's home: where config files, the approvals file and the tool cache are found (default: `HOME`, else the OS's). */
  home?: string | undefined;
  /** What `status` reports and the servers are told (`clientInfo.version`); default this package's version. */
  version?: string | undefined;
  /** The daemon closes after this long without a request (ms; default 60 minutes; `Infinity`: never). */
  idleMs?: number | undefined;
  /** A server a call started is stopped after this long unused (ms; default 10 minutes), unless named in `keepAlive`. */
  serverIdleMs?: number | undefined;
  /** Servers never stopped for idleness. */
  keepAlive?: string[] | undefined;
  /** A pooled server with no host attached is ended after this long (ms; default 10 minutes). */
  poolIdleMs?: number | undefined;
  /** Concurrent tool calls per pooled server (default 16; more wait). */
  poolMaxCalls?: number | undefined;
  /** Memory a pooled server's processes may use (bytes); undefined: no cap. */
  poolMaxRssBytes?: number | undefined;
  /** Bytes of one host session's requests the pool holds before it stops reading that host (default 1 MiB). */
  poolMaxQueuedBytes?: number | undefined;
  /** Bytes a host may leave unread on its connection before its session is ended (default 16 MiB; unread.ts). */
  poolMaxUnreadBytes?: number | undefined;
  /** Who the pool may serve; default `managerApprovals()` on the user's approvals file (the one `mcp config approve` writes). */
  approvals?: PoolApprovals | undefined;
  /** How a refusal says to approve a project server (default: the manager's words). */
  howToApprove?: ((server: { name: string }) => string) | undefined;
  /** Where the pool finds tool lists read live before (default: the manager's cache folder under `home`). */
  toolCache?: ToolCache | undefined;
  /** How a `call/2` is run (the `mcp` CLI's `mcp call`); without one, calls are declined and the client runs them itself. */
  call?: CallHandler | undefined;
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

/** A daemon started by {@link startDaemon}. */
export interface RunningDaemon {
  /** The socket it listens on. */
  socket: string;
  /** Settles once it closed: after `close()`, a client's `stop`, or `idleMs` without a request. */
  closed: Promise<void>;
  /** Closes it: its connections, its servers and pooled processes, its loopback listener, its socket file. */
  close(): Promise<void>;
}

/**
 * Starts a daemon listening on `options.socket` (its folder made private first, see
 * `claimSocketFolder`); resolves once it listens. A `DaemonError` when a daemon already answers
 * there or the folder is not this user's alone. A socket file left by a daemon that died is replaced.
 */
export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const home = options.home ?? process.env["HOME"] ?? homedir();
  const version = options.version ?? VERSION;
  const idleMs = options.idleMs ?? 60 * MINUTE;
  const serverIdleMs = options.serverIdleMs ?? 10 * MINUTE;
  // The folder first: nothing is probed or removed in a folder that is not ours alone.
  makePrivateFolder(options.socket);
  const state = await probeDaemon(options.socket);
  if (state === "live") throw new DaemonError(`an mcp daemon already answers on ${options.socket}`);
  if (state === "stale" && process.platform !== "win32") rmSync(options.socket, { force: true });
  const started = Date.now();
  const views = new Views({
    serverIdleMs,
    keepAlive: options.keepAlive ?? [],
    clientInfo: { name: "mcp-cli-daemon", version },
    howToApprove: options.howToApprove,
  });
  // The servers hosts share through the shims (see pool-socket.ts and @mcp/pool).
  const pool = new ServerPool({
    idleMs: options.poolIdleMs ?? 10 * MINUTE,
    maxConcurrentCalls: options.poolMaxCalls ?? 16,
    maxRssBytes: options.poolMaxRssBytes,
    maxQueuedBytes: options.poolMaxQueuedBytes,
    clientInfo: { name: "mcp-pool", version },
    // The user's approvals file; a shim's own check ran before, with its shell's env.
    approvals:
      options.approvals ??
      managerApprovals({
        policy: {
          store: createApprovalStore({ file: defaultApprovalsFile({ home }) }),
          ...(options.howToApprove ? { howToApprove: options.howToApprove } : {}),
        },
        load: { home },
      }),
    // Start on first use: a host's initialize and tools/list from a list read live before (the manager's cache folder).
    toolCache: options.toolCache ?? new FileToolCache(defaultCacheDir(process.env, process.platform, home)),
  });
  // The light shims' loopback listener (light-relay.ts), opened on the first ticket only.
  // What hosts leave unread, and the sessions the daemon ended (unread.ts).
  const ledger = new HostLedger(options.poolMaxUnreadBytes);
  const light = new LightRelay<AttachParams>((params, host) => {
    const session = attachHost(pool, params, ledger, host);
    return { session, approved: pool.approval(session) };
  });
  const clients = new Set<Socket>();
  let calls = 0;
  let lastRequest = Date.now();
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const status = (): DaemonStatus => ({
    pid: process.pid,
    version,
    socket: options.socket,
    uptimeMs: Date.now() - started,
    // Not counting the connection that asks.
    clients: clients.size - 1,
    calls,
    idleMs: Date.now() - lastRequest,
    idleLimitMs: idleMs,
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
      // The client went away (Ctrl-C, killed): its calls are cancelled.
      for (const controller of running.values()) controller.abort(new Error("the client went away"));
    });
    onMessages(
      socket,
      (message, bytes) => {
        // Asking for the status is not a use: the idle time it reports is the time since the last call.
        if (message.method === "status") return send(socket, { id: message.id, result: status() });
        if (message.method === "pool/status" && host === undefined)
          return poolRequest(pool, socket, message, () => {}, ledger);
        lastRequest = Date.now();
        // Past the pool's bound for this host, its connection is read no more until it drains (pool-socket.ts).
        if (host !== undefined) return void host.receive(message.mcp, bytes);
        if (message.method?.startsWith("pool/"))
          return poolRequest(pool, socket, message, (session) => (host = session), ledger, light);
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
        runCall(socket, message, controller.signal, views, options.call, () => (calls += 1))
          .catch((error: unknown) =>
            send(socket, {
              id: message.id,
              error: { message: error instanceof Error ? error.message : String(error), exitCode: exitCodeOf(error) },
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
  } catch (error) {
    await Promise.all([light.close(), pool.close()]);
    throw error;
  } finally {
    if (umask !== undefined) process.umask(umask);
  }
  if (process.platform !== "win32") chmodSync(options.socket, 0o600);

  // Idle servers are stopped (kept-alive ones stay); an idle daemon exits.
  const sweep = setInterval(
    () => {
      views.sweep();
      if (clients.size === 0 && light.connections === 0 && Date.now() - lastRequest > idleMs) finish();
    },
    Math.min(30_000, Math.max(50, Math.floor(Math.min(idleMs, serverIdleMs) / 4))),
  );
  const closed = finished.then(async () => {
    ledger.closing = true; // the sessions it ends now are not kept nor logged
    clearInterval(sweep);
    for (const socket of clients) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([views.closeAll(), light.close(), pool.close()]);
    if (process.platform !== "win32") rmSync(options.socket, { force: true });
  });
  return {
    socket: options.socket,
    closed,
    close: () => {
      finish();
      return closed;
    },
  };
}

/**
 * The daemon in this process (see {@link startDaemon}) until it closes: a client's `stop`, `idleMs`
 * without a request, or the process asked to stop (SIGINT, SIGTERM: the daemon closes, its servers
 * with it). What a program that is the daemon (`mcp daemon run`) does; the signals' listeners are
 * removed once it has closed.
 */
export async function runDaemon(options: DaemonOptions): Promise<void> {
  const daemon = await startDaemon(options);
  const stop = (): void => void daemon.close();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  try {
    await daemon.closed;
  } finally {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
}
