import { callTool, capabilitiesFor, connectToServer, listTools, roundTrip, type HttpAuthProvider, type MCPServerConfig, type CacheHints, type ClientCapabilities, type MCPServerConnection, type Prompt, type RequestOptions, type Resource, type ResourceTemplate, type Tool } from "@mcp/client";
import { InvalidConfigError, NetworkError, RpcError, toError } from "@mcp/jsonrpc";
import { FileToolCache, toolCacheKey, type CachedTools, type ToolCache } from "./cache.js";
import { loadAllMCPConfigs } from "./config/load.js";
import type { ConfigError, DiscoveredServer, LoadOptions } from "./config/types.js";
import { backoffDelay, DEFAULT_RECONNECT, Semaphore, type ReconnectPolicy } from "./limit.js";
import { ToolNameMap, type NameCollision } from "./names.js";
import { headersHelperProvider } from "./headers-helper.js";
import { loopbackStepFor, providerFor, storeOf, wantsOAuth } from "./oauth.js";
import type { OAuthProvider, TokenStore } from "@mcp/oauth";
import { DAY, filterTools, isRetryableAfterReconnect, LIST_CHANGED, LISTERS, stderrOf, transportOf, type ListKind, type Server, type Waiter } from "./server.js";
import { ServerUnavailableError, ToolUnavailableError, type ConnectResult, type MCPManagerOptions, type MCPTool, type ServerStatus } from "./types.js";

/**
 * Many MCP servers at once: discovery, parallel connection with a startup gate and a tool cache,
 * model-safe tool names, recovery of servers that die or lose their session, and status.
 */
/** How long the ping after a network error mid-call may take. */
const PROBE_TIMEOUT_MS = 5000;

export class MCPManager {
  readonly #options: MCPManagerOptions;
  readonly #servers = new Map<string, Server>();
  readonly #cache: ToolCache | undefined;
  readonly #reconnect: ReconnectPolicy | undefined;
  readonly #limits: { stdio: Semaphore; remote: Semaphore };
  readonly #toolListeners = new Set<(tools: MCPTool[]) => void>();
  readonly #statusListeners = new Set<(status: ServerStatus) => void>();
  #tools: MCPTool[] | undefined;
  #collisions: NameCollision[] = [];
  #health: ReturnType<typeof setInterval> | undefined;
  /** Cache writes under way; `disconnectAll` waits for them, so the next run finds them. */
  readonly #writes = new Set<Promise<unknown>>();
  /** One OAuth provider per HTTP server, kept across reconnects (its tokens and single flights). */
  readonly #oauth = new Map<string, OAuthProvider>();
  /** Each server's headersHelper provider, by server name and command: its headers are kept between connections for their time. */
  readonly #helpers = new Map<string, HttpAuthProvider>();
  #tokenStore: TokenStore | undefined;
  /** What every connection advertises; part of each tool cache key (a tool list may depend on it). */
  readonly #capabilities: ClientCapabilities;

  constructor(options: MCPManagerOptions = {}) {
    this.#options = options;
    this.#capabilities = capabilitiesFor({
      ...options.connect,
      onSampling: options.onSampling ?? options.connect?.onSampling,
      onElicitation: options.onElicitation ?? options.connect?.onElicitation,
    });
    this.#cache = options.cache === false ? undefined : (options.cache ?? new FileToolCache(options.cacheDir));
    this.#reconnect = options.reconnect === false ? undefined : { ...DEFAULT_RECONNECT, ...(options.reconnect ?? {}) };
    this.#limits = { stdio: new Semaphore(options.concurrency?.stdio ?? 16), remote: new Semaphore(options.concurrency?.remote ?? 32) };
    if (options.healthCheckIntervalMs !== undefined && options.healthCheckIntervalMs > 0) {
      this.#health = setInterval(() => void this.#checkHealth(), options.healthCheckIntervalMs);
      this.#health.unref();
    }
  }

  /** Finds the user's servers (see `loadAllMCPConfigs`) and connects them. Config errors are in `errors`. */
  async discoverAndConnect(options: LoadOptions = {}): Promise<ConnectResult & { configErrors: ConfigError[] }> {
    const loaded = await loadAllMCPConfigs(this.#options.cwd ?? process.cwd(), { ...this.#options.load, ...options });
    const result = await this.connectServers(loaded.configs, loaded.servers);
    for (const error of loaded.errors) result.errors.set(error.server ?? error.file, error.message);
    return { ...result, configErrors: loaded.errors };
  }

  /**
   * Connects every server in parallel (bounded per kind). Resolves when every server without a
   * cached tool list has answered or failed; servers still starting after the startup gate whose
   * tools are cached give deferred tools at once and swap in their live ones later
   * (`onToolsChanged`). One server's failure never fails the others.
   */
  async connectServers(configs: Record<string, MCPServerConfig>, discovered: Record<string, DiscoveredServer> = {}): Promise<ConnectResult> {
    // The gate's clock starts before anything is spawned (spawning ten processes takes a while).
    let gateTimer: ReturnType<typeof setTimeout> | undefined;
    const gate = new Promise<void>((resolve) => (gateTimer = setTimeout(resolve, this.#options.startupTimeoutMs ?? 250)));
    const started: { server: Server; attempt: Promise<unknown>; cached: Promise<Tool[] | undefined> }[] = [];
    let turn = Promise.resolve();
    for (const [name, config] of Object.entries(configs)) {
      const old = this.#servers.get(name);
      if (old) await this.#stop(old);
      const server = this.#create(name, config, discovered[name]);
      const cached = this.#cache
        ? this.#cache.get(server.cacheKey).then(
            (entry) => entry?.tools,
            () => undefined,
          )
        : Promise.resolve(undefined);
      // Spawning blocks the event loop (fork and exec: 10-40 ms each on a busy 2-core VM), so each
      // server starts one event-loop turn after the last: the gate's timer and the cache reads run
      // in between instead of behind every spawn, and a stop before a server's turn spawns nothing.
      // A server connected some other way before its turn (reconnectServer) is not connected again.
      const spawned = turn.then(() => server.attempt ?? (server.generation === 0 ? this.#connect(server) : undefined));
      turn = turn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
      const attempt = spawned.catch(() => undefined);
      started.push({ server, attempt, cached });
    }
    for (const [name, entry] of Object.entries(discovered)) {
      if (!entry.enabled && !this.#servers.has(name)) this.#create(name, entry.config, entry).status.state = "disabled";
    }

    await Promise.race([Promise.all(started.map((s) => s.attempt)), gate]);
    clearTimeout(gateTimer);
    const waitFor: Promise<unknown>[] = [];
    for (const { server, attempt, cached } of started) {
      if (server.status.state !== "connecting") continue;
      const tools = await cached;
      if (tools && server.status.state === "connecting") {
        server.tools = filterTools(tools, server.discovered?.tools);
        this.#update(server, { toolsFromCache: true, toolCount: server.tools.length });
        this.#toolsChanged();
      } else if (!tools) {
        waitFor.push(attempt);
      }
    }
    await Promise.all(waitFor);

    const errors = new Map<string, string>();
    const connectedServers: string[] = [];
    for (const { server } of started) {
      if (server.status.state === "connected") connectedServers.push(server.name);
      else if (server.status.state === "failed" && server.status.lastError) errors.set(server.name, server.status.lastError);
    }
    const tools = this.getTools();
    for (const collision of this.#collisions) {
      const message = `tool name collision: "${collision.name}" is taken by tool "${collision.kept.tool}" of server "${collision.kept.server}"; tool "${collision.dropped.tool}" of server "${collision.dropped.server}" is not offered`;
      errors.set(collision.dropped.server, errors.has(collision.dropped.server) ? `${errors.get(collision.dropped.server)}; ${message}` : message);
    }
    return { tools, errors, connectedServers };
  }

  /**
   * Registers servers without starting any (state `idle`) and reads their cached tool lists, which
   * are offered at once as deferred tools. A server starts when something needs it: a call to one of
   * its tools, {@link waitForConnection}, or {@link startServers}. A host that runs one command
   * against many configured servers (the CLI's `call`) starts only the server it needs this way.
   * A server already registered under the same name is stopped and replaced.
   */
  async addServers(configs: Record<string, MCPServerConfig>, discovered: Record<string, DiscoveredServer> = {}): Promise<MCPTool[]> {
    const added: Server[] = [];
    for (const [name, config] of Object.entries(configs)) {
      const old = this.#servers.get(name);
      if (old) await this.#stop(old);
      const server = this.#create(name, config, discovered[name]);
      server.status.state = "idle";
      added.push(server);
    }
    for (const [name, entry] of Object.entries(discovered)) {
      if (!entry.enabled && !this.#servers.has(name)) this.#create(name, entry.config, entry).status.state = "disabled";
    }
    const cache = this.#cache;
    if (cache) {
      await Promise.all(
        added.map(async (server) => {
          const entry = await cache.get(server.cacheKey).catch(() => undefined);
          if (!entry || server.status.state !== "idle") return;
          server.tools = filterTools(entry.tools, server.discovered?.tools);
          this.#update(server, { toolsFromCache: true, toolCount: server.tools.length });
        }),
      );
    }
    this.#toolsChanged();
    return this.getTools();
  }

  /**
   * Starts idle servers (all of them, or those named) and resolves once each has connected or
   * failed (or `signal` aborts the wait; the servers go on starting). One server's failure never
   * fails the others; see each one's status.
   */
  async startServers(names?: string[], signal?: AbortSignal): Promise<void> {
    const chosen = names ?? [...this.#servers.values()].filter((server) => server.status.state === "idle").map((server) => server.name);
    await Promise.all(chosen.map((name) => this.waitForConnection(name, signal).catch(() => undefined)));
  }

  /** Every tool of every server that has a tool list (live or cached), in server order. */
  getTools(): MCPTool[] {
    if (this.#tools) return this.#tools;
    const map = new ToolNameMap();
    const collisions: NameCollision[] = [];
    const tools: MCPTool[] = [];
    for (const server of this.#servers.values()) {
      if (server.status.state === "disabled" || server.status.state === "failed") continue;
      for (const tool of server.tools) {
        const claimed = map.add(server.name, tool.name);
        if ("collision" in claimed) {
          collisions.push(claimed.collision);
          continue;
        }
        tools.push(this.#toolFor(server, tool, claimed.name));
      }
    }
    this.#collisions = collisions;
    this.#tools = tools;
    return tools;
  }

  /** Tool names that two tools wanted, from the last time the tool list was built. */
  getCollisions(): NameCollision[] {
    this.getTools();
    return [...this.#collisions];
  }

  /** The live connection, when the server is connected. */
  /**
   * Runs the OAuth flow for an HTTP server now (the CLI's `auth <server>`): a loopback listener
   * on the config's `oauth.callbackPort` (default 33418) and the browser, or only `onUrl` with
   * `open: false`. The tokens land in the token store, where every later connection finds them.
   */
  async authorizeServer(name: string, config: MCPServerConfig, options: { open?: boolean | undefined; onUrl?: ((url: string) => void) | undefined; timeoutMs?: number | undefined } = {}): Promise<void> {
    if (!wantsOAuth(config)) throw new ServerUnavailableError(name, "disabled", "OAuth applies only to HTTP servers without oauth: false");
    const step = loopbackStepFor(config, options);
    const provider = providerFor(name, config, this.#store(), (_server, request) => step(request));
    await provider.authorizeNow();
    this.#oauth.delete(name); // the next connection starts from the stored tokens
  }

  /** Forgets an HTTP server's OAuth tokens (the CLI's `logout <server>`). */
  async logoutServer(name: string, config: MCPServerConfig): Promise<void> {
    if (!wantsOAuth(config)) return;
    await providerFor(name, config, this.#store(), undefined).logout();
    this.#oauth.delete(name);
  }

  #store(): TokenStore {
    this.#tokenStore ??= storeOf(this.#options.oauth === false ? undefined : this.#options.oauth);
    return this.#tokenStore;
  }

  /** The config with this server's OAuth provider attached, for HTTP servers (unless turned off). */
  #withOAuth(name: string, config: MCPServerConfig): MCPServerConfig {
    if (this.#options.oauth === false || !wantsOAuth(config)) return config;
    let provider = this.#oauth.get(name);
    if (!provider) {
      provider = providerFor(name, config, this.#store(), this.#options.oauth?.authorize);
      this.#oauth.set(name, provider);
    }
    const { oauth: _settings, ...rest } = config as MCPServerConfig & { oauth?: unknown };
    return { ...rest, authProvider: provider } as MCPServerConfig;
  }

  /**
   * The config a connection uses: OAuth attached (see {@link #withOAuth}), and a `headersHelper`
   * in front of it. A helper is a command: one from a project's config runs only once the project
   * server is approved (`approved: true`, as the CLI and Claude Code's own approvals mark it).
   */
  #withAuth(server: Server): MCPServerConfig {
    const config = this.#withOAuth(server.name, server.config);
    const { headersHelper, headersHelperTtlMs, ...rest } = config as MCPServerConfig & { headersHelper?: unknown; headersHelperTtlMs?: number };
    if (headersHelper === undefined || !("url" in config)) return config;
    if (server.discovered?.source.scope === "project" && server.discovered.approved !== true) {
      throw new InvalidConfigError(`its headersHelper comes from the project file ${server.discovered.source.file} and runs only once the server is approved`, { serverName: server.name, field: "headersHelper" });
    }
    // Kept across reconnects, so its headers live out their time; a changed command gets a new one.
    if (typeof headersHelper !== "string" || headersHelper.trim() === "") {
      throw new InvalidConfigError('"headersHelper" must be a command that prints a JSON object of headers', { serverName: server.name, field: "headersHelper" });
    }
    const command = headersHelper;
    const key = `${server.name}\n${command}`;
    let provider = this.#helpers.get(key);
    if (!provider) {
      provider = headersHelperProvider({ serverName: server.name, command, url: config.url, ttlMs: headersHelperTtlMs, inner: (config as { authProvider?: HttpAuthProvider }).authProvider, cwd: this.#options.cwd });
      this.#helpers.set(key, provider);
    }
    return { ...rest, authProvider: provider } as MCPServerConfig;
  }

  getConnection(name: string): MCPServerConnection | undefined {
    const server = this.#servers.get(name);
    return server?.status.state === "connected" ? server.connection : undefined;
  }

  /** The status of one server, or undefined when it is not configured. */
  getConnectionStatus(name: string): ServerStatus | undefined {
    const server = this.#servers.get(name);
    return server ? { ...server.status } : undefined;
  }

  /** The status of every server. */
  getStatuses(): ServerStatus[] {
    return [...this.#servers.values()].map((server) => ({ ...server.status }));
  }

  /**
   * Resolves with the connection once the server is connected (starting it when it is idle); rejects
   * when it fails or is disconnected.
   */
  waitForConnection(name: string, signal?: AbortSignal): Promise<MCPServerConnection> {
    const server = this.#servers.get(name);
    if (!server) return Promise.reject(new ServerUnavailableError(name, undefined));
    if (server.status.state === "idle" && !signal?.aborted) {
      this.#update(server, { state: "connecting" });
      this.#connect(server).catch(() => undefined);
    }
    const state = server.status.state;
    if (state === "connected" && server.connection) return Promise.resolve(server.connection);
    if (state === "failed" || state === "disabled") return Promise.reject(new ServerUnavailableError(name, state, server.status.lastError));
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
        server.waiters = server.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      server.waiters.push(waiter);
    });
  }

  /** The server's prompts, fetched once and kept fresh on `prompts/list_changed`. */
  listPrompts(name: string): Promise<Prompt[]> {
    return this.#list(name, "prompts") as Promise<Prompt[]>;
  }

  /** The server's resources, fetched once and kept fresh on `resources/list_changed`. */
  listResources(name: string): Promise<Resource[]> {
    return this.#list(name, "resources") as Promise<Resource[]>;
  }

  /** The server's resource templates, fetched once and kept fresh on `resources/list_changed`. */
  listResourceTemplates(name: string): Promise<ResourceTemplate[]> {
    return this.#list(name, "resourceTemplates") as Promise<ResourceTemplate[]>;
  }

  async #list(name: string, kind: ListKind): Promise<unknown[]> {
    const server = this.#servers.get(name);
    const kept = server?.lists.get(kind);
    if (kept) return kept;
    const connection = await this.waitForConnection(name);
    const list = await LISTERS[kind](connection);
    server?.lists.set(kind, list);
    return list;
  }

  /** Refreshes the lists a list_changed notification names; a failed refresh keeps the last good one. */
  async #refreshLists(server: Server, kinds: ListKind[]): Promise<void> {
    const connection = server.connection;
    if (!connection) return;
    for (const kind of kinds) {
      if (!server.lists.has(kind)) continue;
      try {
        server.lists.set(kind, await LISTERS[kind](connection));
      } catch (error) {
        this.#options.onError?.(server.name, new Error(`refreshing the ${kind} of "${server.name}" failed; the last list is kept: ${toError(error).message}`, { cause: error }));
      }
    }
  }

  /** Closes the server's connection and connects it again now (its failure count starts over). */
  async reconnectServer(name: string): Promise<MCPServerConnection> {
    const server = this.#servers.get(name);
    if (!server) throw new ServerUnavailableError(name, undefined);
    this.#cancelTimer(server);
    server.stopped = false;
    server.failureTimes = [];
    await this.#closeConnection(server);
    this.#update(server, { state: "reconnecting", lastError: undefined });
    return this.#connect(server);
  }

  /** Closes one server and stops recovering it; its tools are withdrawn (status `disabled`). */
  async disconnectServer(name: string): Promise<void> {
    const server = this.#servers.get(name);
    if (server) await this.#stop(server);
  }

  /** Closes every server, cancels every pending reconnect and health check, and finishes cache writes. Leaves nothing running. */
  async disconnectAll(): Promise<void> {
    if (this.#health) clearInterval(this.#health);
    this.#health = undefined;
    await Promise.all([...this.#servers.values()].map((server) => this.#stop(server)));
    await Promise.all([...this.#writes]);
  }

  /** Called with the whole tool list whenever it changes. Returns the unsubscribe function. */
  onToolsChanged(listener: (tools: MCPTool[]) => void): () => void {
    this.#toolListeners.add(listener);
    return () => this.#toolListeners.delete(listener);
  }

  /** Called with a server's status whenever it changes. Returns the unsubscribe function. */
  onStatusChange(listener: (status: ServerStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  // ─── one server ─────────────────────────────────────────────────────────────

  #create(name: string, config: MCPServerConfig, discovered: DiscoveredServer | undefined): Server {
    const server: Server = {
      name,
      config,
      discovered,
      cacheKey: toolCacheKey(name, config, this.#capabilities),
      status: {
        name,
        state: "connecting",
        transport: transportOf(config),
        source: discovered?.source.file,
        scope: discovered?.source.scope,
        connectMs: undefined,
        lastError: undefined,
        lastErrorCode: undefined,
        lastErrorStatus: undefined,
        stderrTail: undefined,
        toolCount: 0,
        toolsFromCache: false,
        failures: 0,
        since: Date.now(),
      },
      connection: undefined,
      attempt: undefined,
      abort: undefined,
      liveGeneration: undefined,
      generation: 0,
      tools: [],
      failureTimes: [],
      timer: undefined,
      waiters: [],
      stopped: false,
      lists: new Map(),
    };
    this.#servers.set(name, server);
    return server;
  }

  /** One connection attempt (shared by concurrent callers): handshake, tool list, status. */
  #connect(server: Server): Promise<MCPServerConnection> {
    server.attempt ??= this.#limits[server.status.transport === "stdio" ? "stdio" : "remote"]
      .run(() => this.#open(server))
      .finally(() => {
        server.attempt = undefined;
      });
    return server.attempt;
  }

  async #open(server: Server): Promise<MCPServerConnection> {
    if (server.stopped) throw new ServerUnavailableError(server.name, "disabled");
    const generation = ++server.generation;
    const started = performance.now();
    let connection: MCPServerConnection | undefined;
    // A stop aborts the handshake, and closes a connection still listing its tools (which fails
    // the listing at once): neither waits out a timeout.
    const abort = new AbortController();
    server.abort = abort;
    const closeEarly = (): void => void connection?.transport.close().catch(() => undefined);
    abort.signal.addEventListener("abort", closeEarly, { once: true });
    try {
      const { onElicitation, onSampling } = this.#options;
      connection = await connectToServer(server.name, this.#withAuth(server), {
        ...this.#options.connect,
        signal: abort.signal,
        ...(onElicitation ? { onElicitation: (params, context) => onElicitation(server.name, params, context) } : {}),
        ...(onSampling ? { onSampling: (params, context) => onSampling(server.name, params, context) } : {}),
        onClose: () => this.#onClose(server, generation),
        onNotification: (method, params) => this.#onNotification(server, generation, method, params),
        onLog: (message) => this.#options.onLog?.(server.name, message),
        onError: (error) => this.#options.onError?.(server.name, error),
      });
      if (abort.signal.aborted) closeEarly(); // stopped just as the handshake ended
      // On 2026-07-28 change notifications come on a subscriptions/listen stream, opened for what
      // is listened to: the manager wants tools/list_changed (it reaches onNotification either way).
      connection.on("notifications/tools/list_changed", () => undefined);
      let hints: CacheHints | undefined;
      const tools = filterTools(await listTools(connection, { onCacheHints: (h) => (hints = h) }), server.discovered?.tools);
      if (server.stopped || generation !== server.generation) throw new ServerUnavailableError(server.name, "disabled");
      server.connection = connection;
      server.liveGeneration = generation;
      server.tools = tools;
      this.#update(server, {
        state: "connected",
        connectMs: Math.round(performance.now() - started),
        lastError: undefined,
        lastErrorCode: undefined,
        lastErrorStatus: undefined,
        stderrTail: undefined,
        toolCount: tools.length,
        toolsFromCache: false,
      });
      this.#toolsChanged();
      this.#remember(server, tools, hints);
      for (const waiter of server.waiters.splice(0)) waiter.resolve(connection);
      return connection;
    } catch (error) {
      if (connection && server.liveGeneration !== generation) void connection.transport.close().catch(() => undefined);
      if (!server.stopped) this.#failed(server, toError(error), stderrOf(error) ?? stderrOf(connection?.transport));
      throw error;
    } finally {
      abort.signal.removeEventListener("abort", closeEarly);
      if (server.abort === abort) server.abort = undefined;
    }
  }

  /**
   * Writes a live tool list to the cache, for the manager's `cacheTtlMs`. A 2026-07-28 server's
   * `ttlMs` says how long the list is fresh (`freshUntil`; `0`: stale at once) and its `cacheScope`
   * who may reuse it; both are stored with it. A stale list is still offered, deferred, while its
   * server starts — as the spec allows — and the live list always decides before a call.
   */
  #remember(server: Server, tools: Tool[], hints: CacheHints | undefined): void {
    if (!this.#cache) return;
    const now = Date.now();
    const entry: CachedTools = { tools, savedAt: now, expiresAt: now + (this.#options.cacheTtlMs ?? 7 * DAY) };
    if (hints?.ttlMs !== undefined) entry.freshUntil = now + hints.ttlMs;
    if (hints?.cacheScope !== undefined) entry.cacheScope = hints.cacheScope;
    const write = this.#cache
      .set(server.cacheKey, entry)
      .catch((error: unknown) => this.#options.onError?.(server.name, toError(error)))
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  /** A failure (a failed attempt, or a connection that died): retry with backoff, or give up. */
  #failed(server: Server, error: Error, stderrTail: string | undefined): void {
    const now = Date.now();
    const policy = this.#reconnect;
    server.failureTimes = server.failureTimes.filter((time) => now - time < (policy?.windowMs ?? 0));
    server.failureTimes.push(now);
    const wasConnected = server.liveGeneration !== undefined || server.status.state === "reconnecting";
    const code = (error as { code?: unknown }).code;
    const status = (error as { status?: unknown }).status;
    const detail = { lastErrorCode: typeof code === "string" || typeof code === "number" ? code : undefined, lastErrorStatus: typeof status === "number" ? status : undefined };
    // "Request timeout after 5000ms" says more as "tools/list: Request timeout after 5000ms".
    const method = (error as { method?: unknown }).method;
    const message = typeof method === "string" && !error.message.includes(method) ? `${method}: ${error.message}` : error.message;
    // A server that never connected is not retried: a wrong command or URL would only loop.
    if (!policy || !wasConnected || server.failureTimes.length > policy.maxAttempts) {
      const gaveUp = policy && wasConnected ? `gave up after ${server.failureTimes.length} failures in ${Math.round(policy.windowMs / 1000)}s: ` : "";
      this.#update(server, { state: "failed", lastError: `${gaveUp}${message}`, ...detail, stderrTail, failures: server.failureTimes.length });
      for (const waiter of server.waiters.splice(0)) waiter.reject(new ServerUnavailableError(server.name, "failed", server.status.lastError));
      this.#toolsChanged();
      return;
    }
    this.#update(server, { state: "reconnecting", lastError: message, ...detail, stderrTail, failures: server.failureTimes.length });
    this.#cancelTimer(server);
    server.timer = setTimeout(() => {
      server.timer = undefined;
      this.#connect(server).catch(() => undefined);
    }, backoffDelay(policy, server.failureTimes.length));
    server.timer.unref?.();
  }

  /** The transport closed. News only for the established connection we did not close ourselves. */
  #onClose(server: Server, generation: number): void {
    if (server.liveGeneration !== generation || server.stopped) return;
    server.liveGeneration = undefined;
    const transport = server.connection?.transport;
    server.connection = undefined;
    const exit = (transport as { exitStatus?: { code: number | null; signal: string | null } } | undefined)?.exitStatus;
    const why = exit ? (exit.signal ? `the server process was killed by ${exit.signal}` : `the server process exited with code ${String(exit.code)}`) : "the connection closed";
    this.#update(server, { state: "reconnecting" });
    this.#failed(server, new Error(why), stderrOf(transport));
  }

  #onNotification(server: Server, generation: number, method: string, params: unknown): void {
    if (generation === server.liveGeneration) {
      if (method === "notifications/tools/list_changed") void this.#refreshTools(server);
      const kinds = LIST_CHANGED[method];
      if (kinds) void this.#refreshLists(server, kinds);
    }
    try {
      this.#options.onNotification?.(server.name, method, params);
    } catch (error) {
      this.#options.onError?.(server.name, toError(error));
    }
  }

  /** Refreshes one server's tools; a failed refresh keeps the last good list. */
  async #refreshTools(server: Server): Promise<void> {
    const connection = server.connection;
    if (!connection) return;
    try {
      let hints: CacheHints | undefined;
      server.tools = filterTools(await listTools(connection, { onCacheHints: (h) => (hints = h) }), server.discovered?.tools);
      this.#update(server, { toolCount: server.tools.length, toolsFromCache: false });
      this.#toolsChanged();
      this.#remember(server, server.tools, hints);
    } catch (error) {
      this.#options.onError?.(server.name, new Error(`refreshing the tools of "${server.name}" failed; the last list is kept: ${toError(error).message}`, { cause: error }));
    }
  }

  /** A call failed in a way that says the session is gone: reconnect now (shared by concurrent callers). */
  async #recover(server: Server, stale: MCPServerConnection): Promise<MCPServerConnection> {
    if (server.connection === stale && server.status.state === "connected") {
      await this.#closeConnection(server);
      this.#update(server, { state: "reconnecting" });
    }
    if (server.status.state === "connected" && server.connection) return server.connection;
    return server.attempt ?? this.#connect(server);
  }

  async #checkHealth(): Promise<void> {
    const timeout = Math.min(this.#options.healthCheckIntervalMs ?? 10_000, 10_000);
    const probes: Promise<void>[] = [];
    for (const server of this.#servers.values()) if (server.connection) probes.push(this.#probe(server, server.connection, timeout));
    await Promise.all(probes);
  }

  /**
   * Pings a connected server (`server/discover` on 2026-07-28); if it cannot be reached, its connection is closed and recovery
   * starts (backoff, then `failed`). An RPC error answer means it is alive.
   */
  async #probe(server: Server, connection: MCPServerConnection, timeout: number): Promise<void> {
    if (server.status.state !== "connected" || server.connection !== connection) return;
    try {
      await roundTrip(connection, { timeout });
    } catch (error) {
      if (server.connection !== connection || RpcError.isInstance(error)) return;
      await this.#closeConnection(server);
      this.#update(server, { state: "reconnecting" });
      this.#failed(server, new Error(`health check failed: ${toError(error).message}`), undefined);
    }
  }

  async #closeConnection(server: Server): Promise<void> {
    const connection = server.connection;
    server.liveGeneration = undefined;
    server.connection = undefined;
    if (connection) await connection.transport.close().catch(() => undefined);
  }

  #cancelTimer(server: Server): void {
    if (server.timer !== undefined) clearTimeout(server.timer);
    server.timer = undefined;
  }

  async #stop(server: Server): Promise<void> {
    server.stopped = true;
    server.generation++;
    this.#cancelTimer(server);
    server.abort?.abort(new ServerUnavailableError(server.name, "disabled"));
    await this.#closeConnection(server);
    await server.attempt?.catch(() => undefined);
    this.#update(server, { state: "disabled" });
    for (const waiter of server.waiters.splice(0)) waiter.reject(new ServerUnavailableError(server.name, "disabled"));
    this.#toolsChanged();
  }

  #update(server: Server, change: Partial<ServerStatus>): void {
    const before = server.status.state;
    server.status = { ...server.status, ...change };
    if (change.state !== undefined && change.state !== before) server.status.since = Date.now();
    for (const listener of this.#statusListeners) {
      try {
        listener({ ...server.status });
      } catch (error) {
        this.#options.onError?.(server.name, toError(error));
      }
    }
  }

  #toolsChanged(): void {
    this.#tools = undefined;
    if (this.#toolListeners.size === 0) return;
    const tools = this.getTools();
    for (const listener of this.#toolListeners) {
      try {
        listener(tools);
      } catch (error) {
        this.#options.onError?.("", toError(error));
      }
    }
  }

  #toolFor(server: Server, tool: Tool, name: string): MCPTool {
    return {
      name,
      serverName: server.name,
      toolName: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
      get deferred() {
        return server.status.state !== "connected";
      },
      call: async (args = {}, options = {}) => {
        const timeout = options.timeout ?? server.discovered?.toolTimeoutMs;
        const callOptions: RequestOptions = timeout === undefined ? options : { ...options, timeout };
        const connection = await this.waitForConnection(server.name, options.signal);
        // A deferred tool came from the cache: the live list, fetched on connecting, decides.
        if (!server.tools.some((live) => live.name === tool.name)) throw new ToolUnavailableError(server.name, tool.name);
        try {
          return await callTool(connection, tool.name, args, callOptions);
        } catch (error) {
          if (!isRetryableAfterReconnect(error) || options.signal?.aborted) {
            // A reset mid-call may mean the server is gone: find out now, not at the next call.
            if (NetworkError.isInstance(error)) void this.#probe(server, connection, PROBE_TIMEOUT_MS);
            throw error;
          }
          const fresh = await this.#recover(server, connection);
          return callTool(fresh, tool.name, args, callOptions);
        }
      },
    };
  }
}
