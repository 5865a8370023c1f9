// The daemon's side of the shims (`mcp daemon stdio`) and `mcp ps`: a shim's connection attached to a pooled
// server (`pool/attach`; after its answer every message on the connection is `{ id: 0, mcp }`, one
// host message each way), the pool's status (`pool/status`) and `pool/kill`.

import type { Socket } from "node:net";
import type { ServerPool, UpstreamStatus } from "@mcp/pool";
import type { StdioTransportConfig } from "@mcp/transport-stdio";
import { EXIT } from "./errors.js";
import type { LightRelay } from "./light-relay.js";
import type { EndedSession, HostLedger, HostLink } from "./unread.js";
import { send, type DaemonMessage } from "./wire.js";

/** What `pool/status` answers (`mcp ps`). */
export interface PoolStatus {
  servers: UpstreamStatus[];
  idleMs: number;
  maxConcurrentCalls: number;
  /** The memory cap per pooled server (bytes), null for none. */
  maxRssBytes: number | null;
  /** Bytes of one host session's requests in service past which the pool holds its further requests unstarted (`hosts[].queuedBytes`). */
  maxQueuedBytes: number;
  /** Bytes of one host session's requests held unstarted past which the pool stops reading that host (`hosts[].heldBytes`). */
  maxHeldBytes: number;
  /** Bytes one host may leave unread on its connection before the daemon ends its session (unread.ts). */
  maxUnreadBytes: number;
  /** The most any host connection held unread since the daemon started (bytes, right after a write). */
  peakUnreadBytes: number;
  /** The latest sessions the daemon ended, and why (oldest first, at most 32). */
  ended: readonly EndedSession[];
}

/** A host session on the pool, as the daemon's connection uses it. */
export interface PoolHostSession {
  /** False: the host's requests held are over the pool's `maxQueuedBytes`; read no more of it until its `drain`. */
  receive(message: unknown, bytes?: number): boolean | void;
  close(): void;
}

/** What a shim sends with `pool/attach`. */
export interface AttachParams {
  /** The server's name in its configuration. */
  server: string;
  /** The stdio configuration as the shim's shell runs it (folder and environment written in: see environment.ts). */
  config: StdioTransportConfig;
  /** The file the configuration came from. */
  source?: string | undefined;
  /** The shim's folder: the project whose files the pool's approval check reads (default: the config's `cwd`). */
  project?: string | undefined;
  /** The shell's values of the variables its config files name (`${VAR}`): the approval check expands them so (used for it only). */
  vars?: Record<string, string> | undefined;
  /** `--from <host>:<scope>` as `mcp hosts pool` wrote it: a label, trusted for nothing. */
  from?: string | undefined;
  /** The shim's pid and its parent's (the host's). */
  shimPid: number;
  parentPid: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why `params` is not {@link AttachParams}, naming the field; undefined when it is. */
export function attachProblem(params: unknown): string | undefined {
  if (!isRecord(params)) return "params must be an object";
  if (typeof params["server"] !== "string" || params["server"] === "")
    return "params.server must be a non-empty string";
  const config = params["config"];
  if (!isRecord(config) || typeof config["command"] !== "string")
    return "params.config must be a stdio server config (an object with a command)";
  const strings = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === "string");
  const record = (value: unknown): boolean =>
    isRecord(value) && Object.values(value).every((item) => typeof item === "string");
  if (config["args"] !== undefined && !strings(config["args"])) return "params.config.args must be an array of strings";
  if (config["cwd"] !== undefined && typeof config["cwd"] !== "string") return "params.config.cwd must be a string";
  for (const field of ["env", "parentEnv"])
    if (config[field] !== undefined && !record(config[field]))
      return `params.config.${field} must be an object of strings`;
  if (config["inheritEnv"] !== undefined && typeof config["inheritEnv"] !== "boolean")
    return "params.config.inheritEnv must be true or false";
  for (const field of ["shimPid", "parentPid"])
    if (!Number.isSafeInteger(params[field])) return `params.${field} must be a whole number`;
  for (const field of ["source", "from", "project"])
    if (params[field] !== undefined && typeof params[field] !== "string") return `params.${field} must be a string`;
  if (params["vars"] !== undefined && !record(params["vars"])) return "params.vars must be an object of strings";
  return undefined;
}

/**
 * Attaches a host (a shim's connection) to the pool: `send` writes to it, `end` ends it with a
 * reason, `drain` reads it again after its session's `receive` returned false. Past `ledger`'s
 * `maxUnreadBytes` unread on the connection, the session is ended (`abort`) and recorded.
 */
export function attachHost(
  pool: ServerPool,
  params: AttachParams,
  ledger: HostLedger,
  host: HostLink,
): ReturnType<ServerPool["attach"]> {
  const { timeout: _timeout, ...config } = params.config as StdioTransportConfig & { timeout?: unknown };
  const who = { server: params.server, shimPid: params.shimPid, parentPid: params.parentPid };
  let over = false;
  return pool.attach({
    name: params.server,
    config,
    source: params.source,
    project: params.project,
    env: params.vars,
    info: {
      server: params.server,
      shimPid: params.shimPid,
      parentPid: params.parentPid,
      ...(params.from === undefined ? {} : { from: params.from }),
    },
    send: (mcp) => {
      if (over) return;
      const unread = host.unread();
      // The host leaves its answers unread: they would pile up here without end (unread.ts).
      if (unread > ledger.maxUnreadBytes) {
        over = true;
        ledger.record(who, ledger.overReason(unread), unread);
        return host.abort();
      }
      host.send(mcp);
      ledger.wrote(host.unread());
    },
    onEnd: (reason) => (ledger.record(who, reason, host.unread()), host.end(reason)),
    onDrain: host.drain,
  });
}

/**
 * Answers one `pool/…` request on `socket`; `pool/attach` hands the new host session to `attached`;
 * `pool/ticket` (the light shim's child, light-relay.ts) answers a ticket for the loopback relay.
 */
export function poolRequest(
  pool: ServerPool,
  socket: Socket,
  message: DaemonMessage,
  attached: (session: PoolHostSession) => void,
  ledger: HostLedger,
  light?: LightRelay<AttachParams>,
): void {
  const fail = (text: string, exitCode: number = EXIT.usage): void =>
    send(socket, { id: message.id, error: { message: text, exitCode } });
  if (message.method === "pool/status") {
    const result: PoolStatus = {
      servers: pool.statuses(),
      idleMs: pool.idleMs,
      maxConcurrentCalls: pool.maxConcurrentCalls,
      maxRssBytes: pool.maxRssBytes ?? null,
      maxQueuedBytes: pool.maxQueuedBytes,
      maxHeldBytes: pool.maxHeldBytes,
      maxUnreadBytes: ledger.maxUnreadBytes,
      peakUnreadBytes: ledger.peakUnreadBytes,
      ended: ledger.ended,
    };
    return send(socket, { id: message.id, result });
  }
  if (message.method === "pool/kill") {
    const name = isRecord(message.params) ? message.params["server"] : undefined;
    if (typeof name !== "string" || name === "") return fail("pool/kill: params.server must be a non-empty string");
    pool.kill(name).then(
      (killed) => send(socket, { id: message.id, result: { killed } }),
      (error: unknown) => fail(`pool/kill: ${(error as Error).message}`, EXIT.failure),
    );
    return;
  }
  if (message.method === "pool/ticket" && light !== undefined) {
    const problem = attachProblem(message.params);
    if (problem !== undefined) return fail(`pool/ticket: ${problem}`);
    light.issue(message.params as AttachParams).then(
      (ticket) => send(socket, { id: message.id, result: ticket }),
      (error: unknown) => fail(`pool/ticket: ${(error as Error).message}`, EXIT.failure),
    );
    return;
  }
  if (message.method !== "pool/attach") return fail(`unknown method ${String(message.method)}`);
  const problem = attachProblem(message.params);
  if (problem !== undefined) return fail(`pool/attach: ${problem}`);
  const params = message.params as AttachParams;
  // The connection is read while neither the pool (`full`: more held than its bound) nor the host
  // (`held`: not reading what it is sent, the socket's buffer full) holds it back.
  let full = false;
  let held = false;
  const readOn = (): void => void (!full && !held && !socket.destroyed && socket.resume());
  const session: ReturnType<typeof attachHost> = attachHost(pool, params, ledger, {
    send: (mcp) => {
      // A Buffer, not a string: the connection's `writableLength` then counts bytes, as the bound does (unread.ts).
      const line = Buffer.from(`${JSON.stringify({ id: 0, mcp })}\n`);
      if (socket.destroyed || socket.write(line) || held) return;
      // The host reads none of its answers: its requests wait in its own pipe (or held, unstarted), not as answers here.
      held = true;
      socket.pause();
      session.hostReads(false);
      socket.once("drain", () => ((held = false), session.hostReads(true), readOn()));
    },
    // The server failed twice, or was killed: the shim says why on its stderr and exits.
    end: (reason) => {
      send(socket, { id: 0, error: { message: reason, exitCode: EXIT.failure } });
      socket.end();
    },
    // Its requests held are back under the pool's bound: the connection is read again.
    drain: () => ((full = false), readOn()),
    unread: () => socket.writableLength,
    // What waits unread goes with the connection; the shim sees it close (the reason is in the log and `mcp ps`).
    abort: () => void socket.destroy(),
  });
  attached({
    receive: (mcp, bytes) => {
      const reading = session.receive(mcp, bytes);
      if (reading === false) {
        full = true;
        socket.pause();
      }
      return reading;
    },
    close: () => session.close(),
  });
  // The pool's approval check (the manager's approvals, see @mcp/pool) decides before the shim
  // reads its host: a refused server's shim says why on its stderr and exits.
  pool.approval(session).then(
    () => send(socket, { id: message.id, result: { attached: params.server } }),
    (error: unknown) => {
      session.close();
      send(socket, { id: message.id, error: { message: (error as Error).message, exitCode: EXIT.failure } });
      socket.end();
    },
  );
}
