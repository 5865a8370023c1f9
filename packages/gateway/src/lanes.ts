// Upstream connections of one caller ("lanes"). A 2025-era server over stdio or HTTP+SSE ties
// none of its questions, roots requests or logs to the request that caused them, so with several
// callers the gateway cannot tell whose they are. Rather than guess, each caller gets a connection
// of its own to such a server (a process of its own, for stdio), opened at its first request and
// closed once it has been idle a while: what the server sends on it is that caller's.

import type { ConnectOptions, MCPServerConnection } from "@mcp/client";
import type { Asker } from "./inflight.js";
import type { Caller } from "./policy.js";

/** How long a caller's own connection stays open with nothing in flight. */
export const LANE_IDLE_MS = 5 * 60_000;

/** The handlers a lane's connection answers its server with, all for its one caller. */
export type LaneHandlers = Pick<ConnectOptions, "onSampling" | "onElicitation" | "roots" | "onLog" | "onClose">;

/** How servers taking each user's own credentials are reached (exchange.ts, consent.ts, or both). */
export interface PerUserAuth {
  /** Whether `server` is reached with each user's own credentials. */
  has(server: string): boolean;
  /** The config of `caller`'s own connection to `server`, from the shared one. */
  config(server: string, shared: MCPServerConnection["config"], caller: string): MCPServerConnection["config"];
  /** Resolves once `caller` can reach `server` (asking it first, or throwing a URL elicitation); runs before each use of its connection. */
  ready?(server: string, caller: string, shared: MCPServerConnection["config"], request?: AskingRequest): Promise<void>;
}

/** The request a lane is used for: how its caller may be asked something. */
export interface AskingRequest {
  /** A 2025-era request (else 2026-07-28). */
  legacy: boolean;
  asker: Asker;
  signal: AbortSignal;
  /** The capabilities its caller declared (2026-07-28: in the request's envelope). */
  capabilities: Record<string, unknown> | undefined;
  /** Tells the caller's own connection that a URL elicitation it was sent completed (a 2025-era caller that declared URL elicitation). */
  completed?: ((elicitationId: string) => void) | undefined;
}

/** Options of {@link Lanes}. */
export interface LanesOptions {
  /** Opens a caller's own connection to `server` with `config` (`shared`'s, or with the caller's own credentials), in `era`, with `handlers`. */
  open(
    server: string,
    config: MCPServerConnection["config"],
    era: MCPServerConnection["era"],
    handlers: LaneHandlers,
  ): Promise<MCPServerConnection>;
  /** Servers reached with each user's own exchanged credentials: every caller has its own connection to them. */
  auth?: PerUserAuth | undefined;
  /** The handlers of `caller`'s connection to `server`. */
  handlers(server: string, caller: Caller): Omit<LaneHandlers, "onClose">;
  idleMs?: number | undefined;
}

interface Lane {
  connection: Promise<MCPServerConnection>;
  busy: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Whether what a connection's server sends can be tied to the request that caused it: a
 * 2026-07-28 server asks within the request's answer; a Streamable HTTP server sends a request's
 * questions and logs on that POST's stream. A 2025-era stdio or HTTP+SSE server ties nothing (nor
 * does a `type: "http"` server the transport fell back to HTTP+SSE for).
 */
export function tiesMessages(connection: MCPServerConnection): boolean {
  // The transport's mode, not the config's type: a `type: "http"` server may have been reached over HTTP+SSE.
  return connection.era !== "2025" || (connection.transport as { mode?: unknown }).mode === "http";
}

/** The lanes of one gateway: per caller and upstream server. */
export class Lanes {
  readonly #lanes = new Map<string, Lane>();
  readonly #options: LanesOptions;
  readonly #idleMs: number;
  #closed = false;

  constructor(options: LanesOptions) {
    this.#options = options;
    this.#idleMs = options.idleMs ?? LANE_IDLE_MS;
  }

  /** Whether every caller reaches `server` on a connection of its own, with its own credentials. */
  owns(server: string): boolean {
    return this.#options.auth?.has(server) === true;
  }

  /** How many caller connections are open or opening. */
  get size(): number {
    return this.#lanes.size;
  }

  /** Runs `work` on `caller`'s own connection to `server` (opened now when it has none). */
  async use<T>(
    server: string,
    caller: Caller,
    shared: MCPServerConnection,
    work: (connection: MCPServerConnection) => Promise<T>,
    request?: AskingRequest,
  ): Promise<T> {
    if (this.#closed) throw new Error("the gateway is closing");
    const auth = this.#options.auth;
    if (auth?.ready && this.owns(server)) await auth.ready(server, caller.id, shared.config, request);
    const key = `${caller.id}\n${server}`;
    let lane = this.#lanes.get(key);
    if (!lane) lane = this.#open(key, server, caller, shared);
    lane.busy++;
    clearTimeout(lane.timer);
    try {
      return await work(await lane.connection);
    } finally {
      lane.busy--;
      if (lane.busy === 0 && this.#lanes.get(key) === lane) {
        const idle = lane;
        idle.timer = setTimeout(() => {
          if (this.#lanes.get(key) !== idle || idle.busy > 0) return;
          this.#lanes.delete(key);
          void idle.connection.then((connection) => connection.transport.close()).catch(() => undefined);
        }, this.#idleMs);
        idle.timer.unref();
      }
    }
  }

  /** Opens `caller`'s connection to `server`; it is forgotten when it closes or fails to open. */
  #open(key: string, server: string, caller: Caller, shared: MCPServerConnection): Lane {
    const forget = (): void => {
      if (this.#lanes.get(key) !== lane) return;
      clearTimeout(lane.timer);
      this.#lanes.delete(key);
    };
    const auth = this.#options.auth;
    // A throw (the server is not an HTTP one) fails the opening, as an unreachable server does.
    const connection = Promise.resolve().then(() =>
      this.#options.open(
        server,
        auth?.has(server) ? auth.config(server, shared.config, caller.id) : shared.config,
        shared.era,
        { ...this.#options.handlers(server, caller), onClose: forget },
      ),
    );
    const lane: Lane = { connection, busy: 0, timer: undefined };
    connection.catch(forget);
    this.#lanes.set(key, lane);
    return lane;
  }

  /** Closes every caller connection (their server processes end). */
  async close(): Promise<void> {
    this.#closed = true;
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    await Promise.all(
      lanes.map(async (lane) => {
        clearTimeout(lane.timer);
        await lane.connection.then((connection) => connection.transport.close()).catch(() => undefined);
      }),
    );
  }
}
