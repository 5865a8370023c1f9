import {
  connectToServer,
  listTools,
  roundTrip,
  type CacheHints,
  type MCPServerConfig,
  type MCPServerConnection,
  type ProtocolEra,
  type Tool,
} from "@mcp/client";
import { RpcError, toError } from "@mcp/jsonrpc";
import type { DiscoveredServer } from "./config/types.js";
import { backoffDelay, type ReconnectPolicy } from "./limit.js";
import { filterTools, handlersFor, LIST_CHANGED, LISTERS, stderrOf, type ListKind } from "./server.js";
import { closeReason, failureOf, initialStatus } from "./server-status.js";
import { supervisedTool, type ToolServer } from "./supervised-tool.js";
import {
  ServerUnavailableError,
  type MCPManagerOptions,
  type MCPTool,
  type ServerState,
  type ServerStatus,
} from "./types.js";

/** What a supervisor needs from the manager that composes it. */
export interface SupervisorHost {
  readonly options: MCPManagerOptions;
  readonly reconnect: ReconnectPolicy | undefined;
  /** Runs a connection attempt within the concurrency limit of its kind. */
  limit<T>(transport: ServerStatus["transport"], run: () => Promise<T>): Promise<T>;
  /** The config a connection uses: the server's own, with its OAuth or headersHelper provider attached. */
  configFor(supervisor: ServerSupervisor): MCPServerConfig;
  statusChanged(status: ServerStatus): void;
  toolsChanged(): void;
  /** The tool cache: a live tool list with the era the server spoke; the era it remembers. */
  remember(supervisor: ServerSupervisor, tools: Tool[], hints: CacheHints | undefined, era: ProtocolEra): void;
  rememberedEra(supervisor: ServerSupervisor): Promise<ProtocolEra | undefined>;
  /** Tool pins: the tools of a live list to offer (the rest are held); the error a held tool's call fails with. */
  pin(supervisor: ServerSupervisor, tools: Tool[]): Promise<Tool[]>;
  held(supervisor: ServerSupervisor, tool: string): Error | undefined;
}

type Waiter = { resolve: (connection: MCPServerConnection) => void; reject: (error: unknown) => void };

/**
 * One server under the manager: its state and status, its connection and the attempt under way
 * (shared by everyone who needs it), generations (so news from a closed connection is ignored),
 * the waiters for a connection, recovery with backoff, health probes, its lists, and its tools as
 * callables that wait for it and retry once when that is safe.
 */
export class ServerSupervisor implements ToolServer {
  readonly name: string;
  readonly config: MCPServerConfig;
  readonly discovered: DiscoveredServer | undefined;
  readonly cacheKey: string;
  status: ServerStatus;
  connection: MCPServerConnection | undefined;
  /** The era the server spoke last (or the cache remembers): reconnects skip the probe too. */
  #era: ProtocolEra | undefined;
  /** The live tool list, or the cached one until the server connects. */
  tools: Tool[] = [];
  readonly #host: SupervisorHost;
  #attempt: Promise<MCPServerConnection> | undefined;
  /** Aborts the attempt under way: a stop never waits for a server that does not answer. */
  #abort: AbortController | undefined;
  /** Generation of the established connection whose close would be news. */
  #liveGeneration: number | undefined;
  #generation = 0;
  #failureTimes: number[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #waiters: Waiter[] = [];
  #stopped = false;
  /** Lists asked for through the manager, kept fresh on their list_changed notifications. */
  readonly #lists = new Map<ListKind, unknown[]>();

  constructor(
    host: SupervisorHost,
    name: string,
    config: MCPServerConfig,
    discovered: DiscoveredServer | undefined,
    cacheKey: string,
    state: ServerState,
  ) {
    this.#host = host;
    this.name = name;
    this.config = config;
    this.discovered = discovered;
    this.cacheKey = cacheKey;
    this.status = initialStatus(name, config, discovered, state);
  }

  /** Offers a cached tool list until the live one arrives. */
  offerCached(tools: Tool[]): void {
    this.tools = filterTools(tools, this.discovered?.tools);
    this.#update({ toolsFromCache: true, toolCount: this.tools.length });
  }

  /** Connects, unless an attempt is under way or the server was connected some other way already. */
  startIfNew(): Promise<MCPServerConnection> | undefined {
    return this.#attempt ?? (this.#generation === 0 ? this.connect() : undefined);
  }

  /** One connection attempt (shared by concurrent callers): handshake, tool list, status. */
  connect(): Promise<MCPServerConnection> {
    this.#attempt ??= this.#host
      .limit(this.status.transport, () => this.#open())
      .finally(() => {
        this.#attempt = undefined;
      });
    return this.#attempt;
  }

  /** Resolves with the connection once connected (starting the server when idle); rejects when it fails or is stopped. */
  waitForConnection(signal?: AbortSignal): Promise<MCPServerConnection> {
    if (this.status.state === "idle" && !signal?.aborted) {
      this.#update({ state: "connecting" });
      this.connect().catch(() => undefined);
    }
    const state = this.status.state;
    if (state === "connected" && this.connection) return Promise.resolve(this.connection);
    if (state === "failed" || state === "disabled")
      return Promise.reject(
        new ServerUnavailableError(this.name, state, state === "failed" ? this.status.lastError : undefined),
      );
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        resolve: (connection) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(connection);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = (): void => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** A list of the server's, fetched once and kept fresh on its list_changed notification. */
  async list(kind: ListKind): Promise<unknown[]> {
    const kept = this.#lists.get(kind);
    if (kept) return kept;
    const list = await LISTERS[kind](await this.waitForConnection());
    this.#lists.set(kind, list);
    return list;
  }

  /** Closes the connection and connects again now (the failure count starts over). */
  async reconnect(): Promise<MCPServerConnection> {
    this.#cancelTimer();
    this.#stopped = false;
    this.#failureTimes = [];
    await this.#closeConnection();
    this.#update({ state: "reconnecting", lastError: undefined });
    return this.connect();
  }

  /** Closes the server and stops recovering it; its tools are withdrawn (status `disabled`). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#generation++;
    this.#cancelTimer();
    this.#abort?.abort(new ServerUnavailableError(this.name, "disabled"));
    await this.#closeConnection();
    await this.#attempt?.catch(() => undefined);
    this.#update({ state: "disabled" });
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new ServerUnavailableError(this.name, "disabled"));
    this.#host.toolsChanged();
  }

  /**
   * Pings the connected server (`server/discover` on 2026-07-28); if it cannot be reached, its
   * connection is closed and recovery starts (backoff, then `failed`). An RPC error answer means
   * it is alive.
   */
  async probe(timeout: number, connection = this.connection): Promise<void> {
    if (!connection || this.status.state !== "connected" || this.connection !== connection) return;
    try {
      await roundTrip(connection, { timeout });
    } catch (error) {
      if (this.connection !== connection || RpcError.isInstance(error)) return;
      await this.#closeConnection();
      this.#update({ state: "reconnecting" });
      this.#failed(new Error(`health check failed: ${toError(error).message}`), undefined);
    }
  }

  /** One of its tools as the manager offers it, under the model-facing `name`. */
  tool(tool: Tool, name: string): MCPTool {
    return supervisedTool(this, tool, name);
  }

  /** The error a held tool's call fails with (tool pins), or undefined. */
  held(tool: string): Error | undefined {
    return this.#host.held(this, tool);
  }

  async #open(): Promise<MCPServerConnection> {
    if (this.#stopped) throw new ServerUnavailableError(this.name, "disabled");
    const generation = ++this.#generation;
    const started = performance.now();
    const options = this.#host.options;
    let connection: MCPServerConnection | undefined;
    // A stop aborts the handshake, and closes a connection still listing its tools (which fails
    // the listing at once): neither waits out a timeout.
    const abort = new AbortController();
    this.#abort = abort;
    const closeEarly = (): void => void connection?.transport.close().catch(() => undefined);
    abort.signal.addEventListener("abort", closeEarly, { once: true });
    try {
      // A stdio server known to be 2025-era skips the server/discover probe (2 s if it stays silent).
      const era =
        "url" in this.config || options.connect?.protocol !== undefined
          ? undefined
          : (this.#era ?? (await this.#host.rememberedEra(this)));
      connection = await connectToServer(this.name, this.#host.configFor(this), {
        ...options.connect,
        ...(era === "2025" ? { protocol: "2025" as const } : {}),
        signal: abort.signal,
        ...handlersFor(this.name, options),
        onClose: () => this.#onClose(generation),
        onNotification: (method, params) => this.#onNotification(generation, method, params),
        onLog: (message, context) => options.onLog?.(this.name, message, context),
        onError: (error) => options.onError?.(this.name, error),
      });
      if (abort.signal.aborted) closeEarly(); // stopped just as the handshake ended
      // On 2026-07-28 change notifications come on a subscriptions/listen stream, opened for what
      // is listened to: the manager wants tools/list_changed (it reaches onNotification either way).
      connection.on("notifications/tools/list_changed", () => undefined);
      const { tools, hints } = await this.#fetchTools(connection);
      if (this.#stopped || generation !== this.#generation) throw new ServerUnavailableError(this.name, "disabled");
      this.connection = connection;
      this.#liveGeneration = generation;
      this.tools = tools;
      this.#update({
        state: "connected",
        connectMs: Math.round(performance.now() - started),
        lastError: undefined,
        lastErrorCode: undefined,
        lastErrorStatus: undefined,
        stderrTail: undefined,
        toolCount: tools.length,
        toolsFromCache: false,
      });
      this.#host.toolsChanged();
      this.#era = connection.era;
      this.#host.remember(this, tools, hints, connection.era);
      for (const waiter of this.#waiters.splice(0)) waiter.resolve(connection);
      return connection;
    } catch (error) {
      if (connection && this.#liveGeneration !== generation) void connection.transport.close().catch(() => undefined);
      if (!this.#stopped) this.#failed(toError(error), stderrOf(error) ?? stderrOf(connection?.transport));
      throw error;
    } finally {
      abort.signal.removeEventListener("abort", closeEarly);
      if (this.#abort === abort) this.#abort = undefined;
    }
  }

  /** A failure (a failed attempt, or a connection that died): retry with backoff, or give up. */
  #failed(error: Error, stderrTail: string | undefined): void {
    const now = Date.now();
    const policy = this.#host.reconnect;
    this.#failureTimes = this.#failureTimes.filter((time) => now - time < (policy?.windowMs ?? 0));
    this.#failureTimes.push(now);
    const failures = this.#failureTimes.length;
    const wasConnected = this.#liveGeneration !== undefined || this.status.state === "reconnecting";
    const { message, detail } = failureOf(error);
    // A server that never connected is not retried: a wrong command or URL would only loop.
    if (!policy || !wasConnected || failures > policy.maxAttempts) {
      const gaveUp =
        policy && wasConnected ? `gave up after ${failures} failures in ${Math.round(policy.windowMs / 1000)}s: ` : "";
      this.#update({ state: "failed", lastError: `${gaveUp}${message}`, ...detail, stderrTail, failures });
      for (const waiter of this.#waiters.splice(0))
        waiter.reject(new ServerUnavailableError(this.name, "failed", this.status.lastError));
      this.#host.toolsChanged();
      return;
    }
    this.#update({ state: "reconnecting", lastError: message, ...detail, stderrTail, failures });
    this.#cancelTimer();
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.connect().catch(() => undefined);
      },
      backoffDelay(policy, failures),
    );
    this.#timer.unref?.();
  }

  /** The transport closed. News only for the established connection we did not close ourselves. */
  #onClose(generation: number): void {
    if (this.#liveGeneration !== generation || this.#stopped) return;
    this.#liveGeneration = undefined;
    const transport = this.connection?.transport;
    this.connection = undefined;
    this.#update({ state: "reconnecting" });
    this.#failed(new Error(closeReason(transport)), stderrOf(transport));
  }

  #onNotification(generation: number, method: string, params: unknown): void {
    if (generation === this.#liveGeneration) {
      if (method === "notifications/tools/list_changed") void this.#refreshTools();
      const kinds = LIST_CHANGED[method];
      if (kinds) void this.#refreshLists(kinds);
    }
    try {
      this.#host.options.onNotification?.(this.name, method, params);
    } catch (error) {
      this.#host.options.onError?.(this.name, toError(error));
    }
  }

  /** The live tool list (the host file's filter applied, held tools left out) and its caching hints. */
  async #fetchTools(connection: MCPServerConnection): Promise<{ tools: Tool[]; hints: CacheHints | undefined }> {
    let hints: CacheHints | undefined;
    const tools = filterTools(
      await listTools(connection, { onCacheHints: (h) => (hints = h) }),
      this.discovered?.tools,
    );
    return { tools: await this.#host.pin(this, tools), hints };
  }

  /** Refreshes the tools; a failed refresh keeps the last good list. */
  async #refreshTools(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    try {
      const { tools, hints } = await this.#fetchTools(connection);
      this.tools = tools;
      this.#update({ toolCount: this.tools.length, toolsFromCache: false });
      this.#host.toolsChanged();
      this.#host.remember(this, this.tools, hints, connection.era);
    } catch (error) {
      this.#host.options.onError?.(
        this.name,
        new Error(`refreshing the tools of "${this.name}" failed; the last list is kept: ${toError(error).message}`, {
          cause: error,
        }),
      );
    }
  }

  /** Refreshes the lists a list_changed notification names; a failed refresh keeps the last good one. */
  async #refreshLists(kinds: ListKind[]): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    for (const kind of kinds) {
      if (!this.#lists.has(kind)) continue;
      try {
        this.#lists.set(kind, await LISTERS[kind](connection));
      } catch (error) {
        this.#host.options.onError?.(
          this.name,
          new Error(
            `refreshing the ${kind} of "${this.name}" failed; the last list is kept: ${toError(error).message}`,
            { cause: error },
          ),
        );
      }
    }
  }

  /** A call failed in a way that says the session is gone: reconnect now (shared by concurrent callers). */
  async recover(stale: MCPServerConnection): Promise<MCPServerConnection> {
    if (this.connection === stale && this.status.state === "connected") {
      await this.#closeConnection();
      this.#update({ state: "reconnecting" });
    }
    if (this.status.state === "connected" && this.connection) return this.connection;
    return this.#attempt ?? this.connect();
  }

  async #closeConnection(): Promise<void> {
    const connection = this.connection;
    this.#liveGeneration = undefined;
    this.connection = undefined;
    if (connection) await connection.transport.close().catch(() => undefined);
  }

  #cancelTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #update(change: Partial<ServerStatus>): void {
    const before = this.status.state;
    this.status = { ...this.status, ...change };
    if (change.state !== undefined && change.state !== before) this.status.since = Date.now();
    this.#host.statusChanged({ ...this.status });
  }
}
