import type {
  ClientCapabilities,
  MCPServerConfig,
  MCPServerConnection,
  Prompt,
  Resource,
  ResourceTemplate,
} from "@mcp/client";
import { capabilitiesFor } from "@mcp/client/internal";
import { listSkills, loadSkill, type LoadedSkill, type LoadSkillOptions, type SkillEntry } from "@mcp/client/skills";
import { FileToolCache, toolCacheKey } from "./cache.js";
import { loadAllMCPConfigs } from "./config/load.js";
import type { ConfigError, DiscoveredServer, LoadOptions } from "./config/types.js";
import { DEFAULT_RECONNECT, Semaphore, fanOut, type ReconnectPolicy } from "./limit.js";
import { ToolNameMap, type NameCollision } from "./names.js";
import { Credentials } from "./credentials.js";
import type { AuthorizeServerOptions } from "./oauth.js";
import { notify, type ListKind } from "./server.js";
import type { ServerSupervisor, SupervisorHost } from "./supervisor.js";
import { ResultBudget } from "./budget.js";
import { ToolSearchIndex } from "./search.js";
import { ApprovalGate } from "./approvals/gate.js";
import { needsApproval } from "./approvals/policy.js";
import { NOT_APPROVED_YET } from "./approvals/store.js";
import { pinHost, pinKey, ToolPins } from "./pins/pins.js";
import { ToolMemory } from "./tool-memory.js";
import { addIdle, connectWithGate, type StartupHost } from "./startup.js";
import {
  ServerUnavailableError,
  type ConnectResult,
  type MCPManagerOptions,
  type MCPTool,
  type ServerState,
  type ServerStatus,
} from "./types.js";

/**
 * Many MCP servers at once: discovery, parallel connection with a startup gate and a tool cache,
 * model-safe tool names, OAuth and headersHelper providers, health checks, and status. Each server
 * is a {@link ServerSupervisor} (its state, connection, recovery and tools).
 */
export class MCPManager {
  readonly #options: MCPManagerOptions;
  readonly #servers = new Map<string, ServerSupervisor>();
  /** The tool cache: each server's entry read once, live lists written back (see {@link ToolMemory}). */
  readonly #memory: ToolMemory;
  readonly #reconnect: ReconnectPolicy | undefined;
  readonly #limits: { stdio: Semaphore; remote: Semaphore };
  readonly #toolListeners = new Set<(tools: MCPTool[]) => void>();
  readonly #statusListeners = new Set<(status: ServerStatus) => void>();
  #tools: MCPTool[] | undefined;
  #collisions: NameCollision[] = [];
  #health: ReturnType<typeof setInterval> | undefined;
  /** Each server's OAuth and headersHelper providers, kept across reconnects. */
  readonly #credentials: Credentials;
  /** What every connection advertises; part of each tool cache key (a tool list may depend on it). */
  readonly #capabilities: ClientCapabilities;
  readonly #host: SupervisorHost;
  /** What the gated start of `connectServers` uses of the manager. */
  readonly #startup: StartupHost;
  readonly #budget: ResultBudget;
  #index: ToolSearchIndex | undefined;
  /** Which discovered project servers may run (the `approvals` option). */
  readonly #approvals: ApprovalGate;
  /** Tool pinning ("what a model is told"): held tools with their diffs, `approve`, `onHeld` (see {@link ToolPins}). */
  readonly pins: ToolPins;

  constructor(options: MCPManagerOptions = {}) {
    this.#options = options;
    this.#capabilities = capabilitiesFor({
      ...options.connect,
      onSampling: options.onSampling ?? options.connect?.onSampling,
      onElicitation: options.onElicitation ?? options.connect?.onElicitation,
      roots: options.onRoots ? () => [] : options.connect?.roots,
    });
    this.#reconnect = options.reconnect === false ? undefined : { ...DEFAULT_RECONNECT, ...(options.reconnect ?? {}) };
    this.#limits = {
      stdio: new Semaphore(options.concurrency?.stdio ?? 16),
      remote: new Semaphore(options.concurrency?.remote ?? 32),
    };
    this.#credentials = new Credentials(options);
    this.#budget = new ResultBudget(options.maxResultChars, options.results);
    this.#host = this.#hostFor();
    this.#startup = {
      gateMs: options.startupTimeoutMs ?? 250,
      servers: this.#servers,
      create: (name, config, discovered, state) => this.#create(name, config, discovered, state),
      addDisabled: (discovered) => this.#addDisabled(discovered),
      cachedTools: (server) => this.#memory.tools(server),
      toolsChanged: () => this.#toolsChanged(),
      getTools: () => this.getTools(),
      collisions: () => this.#collisions,
    };
    this.#approvals = new ApprovalGate(options);
    this.pins = new ToolPins(
      options.pins,
      pinHost(this.#servers, () => this.#toolsChanged(), options.onError),
    );
    const cache = options.cache === false ? undefined : (options.cache ?? new FileToolCache(options.cacheDir));
    this.#memory = new ToolMemory(cache, options.cacheTtlMs, this.pins, (server, error) =>
      options.onError?.(server, error),
    );
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
  async connectServers(
    configs: Record<string, MCPServerConfig>,
    discovered: Record<string, DiscoveredServer> = {},
  ): Promise<ConnectResult> {
    const checking = this.#approvals.admit(configs, discovered); // undefined when nothing is left to decide
    if (checking)
      return checking.then((checked) =>
        checked
          ? this.connectServers(configs, checked)
          : { tools: this.getTools(), errors: new Map(), connectedServers: [] },
      );
    return connectWithGate(this.#startup, configs, discovered);
  }

  /**
   * Registers servers without starting any (state `idle`) and reads their cached tool lists, which
   * are offered at once as deferred tools. A server starts when something needs it: a call to one of
   * its tools, {@link waitForConnection}, or {@link startServers}. A host that runs one command
   * against many configured servers (the CLI's `call`) starts only the server it needs this way.
   * A server already registered under the same name is stopped and replaced.
   */
  async addServers(
    configs: Record<string, MCPServerConfig>,
    discovered: Record<string, DiscoveredServer> = {},
  ): Promise<MCPTool[]> {
    const checking = this.#approvals.admit(configs, discovered);
    if (checking) return checking.then((checked) => (checked ? this.addServers(configs, checked) : this.getTools()));
    return addIdle(this.#startup, configs, discovered);
  }

  /**
   * Starts idle servers (all of them, or those named) and resolves once each has connected or
   * failed (or `signal` aborts the wait; the servers go on starting). One server's failure never
   * fails the others; see each one's status.
   */
  async startServers(names?: string[], signal?: AbortSignal): Promise<void> {
    const chosen =
      names ??
      [...this.#servers.values()].filter((server) => server.status.state === "idle").map((server) => server.name);
    await fanOut(signal, chosen.length, (shared) =>
      Promise.all(chosen.map((name) => this.waitForConnection(name, shared).catch(() => undefined))),
    );
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
        tools.push(this.#budget.wrap(server.tool(tool, claimed.name)));
      }
    }
    this.#collisions = collisions;
    this.#tools = tools;
    this.#index = undefined;
    return tools;
  }

  /** The tools that best match `query` (BM25 over names, descriptions and parameters), best first. */
  searchTools(query: string, options: { limit?: number | undefined } = {}): MCPTool[] {
    const tools = this.getTools();
    this.#index ??= new ToolSearchIndex(tools);
    return this.#index.search(query, options.limit ?? 10);
  }

  /** Tool names that two tools wanted, from the last time the tool list was built. */
  getCollisions(): NameCollision[] {
    this.getTools();
    return [...this.#collisions];
  }

  /**
   * Runs the OAuth flow for an HTTP server now (the CLI's `auth <server>`): a loopback listener
   * on the config's `oauth.callbackPort` (default 33418) and the browser, or only `onUrl` with
   * `open: false`. The tokens land in the token store, where every later connection finds them.
   */
  authorizeServer(name: string, config: MCPServerConfig, options: AuthorizeServerOptions = {}): Promise<void> {
    return this.#credentials.authorize(name, config, options);
  }

  /**
   * Whether connections to an HTTP server with this config would send an OAuth sign-in the token
   * store holds (`auth <server>` saved one): the manager's one identity there, whoever asks.
   */
  hasSignIn(config: MCPServerConfig): Promise<boolean> {
    return this.#credentials.signedIn(config);
  }

  /** Forgets an HTTP server's OAuth tokens (the CLI's `logout <server>`). */
  logoutServer(name: string, config: MCPServerConfig): Promise<void> {
    return this.#credentials.logout(name, config);
  }

  /** The live connection, when the server is connected. */
  getConnection(name: string): MCPServerConnection | undefined {
    const server = this.#servers.get(name);
    return server?.status.state === "connected" ? server.connection : undefined;
  }

  /** The config a server was registered with (as given: its headers, `oauth`, `env`), or undefined when it is not configured. */
  getServerConfig(name: string): MCPServerConfig | undefined {
    return this.#servers.get(name)?.config;
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
    return server ? server.waitForConnection(signal) : Promise.reject(new ServerUnavailableError(name, undefined));
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

  /**
   * The skills the server lists (SEP-2640; starting it when it is idle): empty when it does not
   * declare the extension. Only the listing is fetched, never a skill's files.
   */
  async listSkills(name: string): Promise<SkillEntry[]> {
    return listSkills(await this.waitForConnection(name));
  }

  /** Loads one of the server's skills, every byte verified against its entry (`loadSkill` of `@mcp/client`). */
  async loadSkill(name: string, skill: SkillEntry | string, options?: LoadSkillOptions): Promise<LoadedSkill> {
    return loadSkill(await this.waitForConnection(name), skill, options);
  }

  #list(name: string, kind: ListKind): Promise<unknown[]> {
    const server = this.#servers.get(name);
    return server ? server.list(kind) : Promise.reject(new ServerUnavailableError(name, undefined));
  }

  /** Closes the server's connection and connects it again now (its failure count starts over). */
  async reconnectServer(name: string): Promise<MCPServerConnection> {
    const server = this.#servers.get(name);
    if (!server) throw new ServerUnavailableError(name, undefined);
    // A project entry its file marks disabled never went through the approval check (a refused one refuses by itself).
    const entry = server.discovered;
    if (entry && needsApproval(entry) && entry.approved !== true)
      throw new ServerUnavailableError(
        name,
        "not-approved",
        `${NOT_APPROVED_YET} (it is disabled in ${entry.source.file})`,
      );
    return server.reconnect();
  }

  /** Closes one server and stops recovering it; its tools are withdrawn (status `disabled`). */
  async disconnectServer(name: string): Promise<void> {
    const server = this.#servers.get(name);
    if (server) await server.stop();
  }

  /** {@link disconnectAll}, so `await using manager = new MCPManager(…)` leaves nothing running when its scope ends. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.disconnectAll();
  }

  /** Closes every server, cancels every pending reconnect and health check, and finishes cache writes. Leaves nothing running. */
  async disconnectAll(): Promise<void> {
    if (this.#health) clearInterval(this.#health);
    this.#health = undefined;
    this.#approvals.close(); // a check still under way starts nothing
    await Promise.all([...this.#servers.values()].map((server) => server.stop()));
    await Promise.all([this.#memory.settled(), this.#budget.close()]);
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

  // ─── servers ───────────────────────────────────────────────────────────────

  /** What each supervisor gets from the manager: options, limits, auth, listeners, the cache. */
  #hostFor(): SupervisorHost {
    return {
      options: this.#options,
      reconnect: this.#reconnect,
      limit: (transport, run) => this.#limits[transport === "stdio" ? "stdio" : "remote"].run(run),
      configFor: (server) => this.#credentials.configFor(server),
      statusChanged: (status) =>
        notify(
          this.#statusListeners,
          () => ({ ...status }),
          (error) => this.#options.onError?.(status.name, error),
        ),
      toolsChanged: () => this.#toolsChanged(),
      remember: (server, tools, hints, era) => this.#memory.remember(server, tools, hints, era),
      rememberedEra: async (server) => (await this.#memory.entry(server))?.era,
      pin: (server, tools) => this.pins.check(server.name, pinKey(server.name, server.config), tools),
      held: (server, tool) => this.pins.heldError(server.name, tool),
    };
  }

  /** A supervisor for the server (one the approval policy refused never starts), in place of one of the same name (stop that one first). */
  #create(
    name: string,
    config: MCPServerConfig,
    discovered: DiscoveredServer | undefined,
    state: ServerState,
  ): ServerSupervisor {
    const server = this.#approvals.supervisor(
      this.#host,
      name,
      config,
      discovered,
      toolCacheKey(name, config, this.#capabilities),
      state,
    );
    this.#servers.set(name, server);
    return server;
  }

  /** Entries the host file disables, listed as `disabled` (unless a server of that name is running). */
  #addDisabled(discovered: Record<string, DiscoveredServer>): void {
    for (const [name, entry] of Object.entries(discovered))
      if (!entry.enabled && !this.#servers.has(name)) this.#create(name, entry.config, entry, "disabled");
  }

  async #checkHealth(): Promise<void> {
    const timeout = Math.min(this.#options.healthCheckIntervalMs ?? 10_000, 10_000);
    await Promise.all([...this.#servers.values()].map((server) => server.probe(timeout)));
  }

  #toolsChanged(): void {
    this.#tools = undefined;
    if (this.#toolListeners.size === 0) return;
    const tools = this.getTools();
    notify(
      this.#toolListeners,
      () => tools,
      (error) => this.#options.onError?.("", error),
    );
  }
}
