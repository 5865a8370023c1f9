// The gateway behind `mcp serve`: one MCP server (the official SDK v2's `Server`, which speaks
// both protocol eras) whose every request is answered by the manager's servers. Tools and prompts
// are named `<server>__<name>` on the aggregate endpoint and keep their own names on a server's
// own endpoint; resources keep their URIs and are routed by a map.
import {
  connectToServer,
  RpcError,
  type CreateMessageParams,
  type ElicitParams,
  type LogMessage,
  type NotificationContext,
  type RequestContext,
  type RequestOptions,
} from "@mcp/client";
import type { MCPManager, MCPTool } from "@mcp/manager";
import { ProtocolError, type Server, type ServerContext } from "@modelcontextprotocol/server";
import {
  ASKING,
  capabilitiesOf,
  completedOf,
  covers,
  legacyAsker,
  logLevelOf,
  mutedAsker,
  tellRootsChanged,
  toProtocolError,
} from "./asking.js";
import { askCall, InFlight, type Asker } from "./inflight.js";
import { Outbox } from "./outbox.js";
import { Lanes, tiesMessages } from "./lanes.js";
import { allowed, servableName, type Caller } from "./policy.js";
import { Rounds } from "./rounds.js";
import { audited, randomAuditKey, refusedEntry, type AuditSink, type Note } from "./audit.js";
import { LIMITED, MemoryRateLimits, RateLimiter } from "./limits.js";
import type { View } from "./views.js";
import { watchHeld } from "./held.js";
import type { GatewayTracing } from "./spans.js";
import { LIST_CHANGED, MAX_IN_FLIGHT_PER_CALLER } from "./gateway-options.js";
import type { GatewayOptions, Scope, Upstream } from "./gateway-options.js";

// fast.ts names the scope from here.
export type { Scope } from "./gateway-options.js";

/** Re-exports a manager's servers as one MCP server, for any number of callers. */
export class Gateway {
  readonly manager: MCPManager;
  readonly inflight = new InFlight();
  readonly rounds = new Rounds();
  readonly lanes: Lanes;
  readonly limits: RateLimiter;
  readonly views: ReadonlyMap<string, View>;
  readonly toolSearch: boolean;
  readonly fastPath: boolean;
  readonly tracing: GatewayTracing | undefined;
  readonly #audit: AuditSink | undefined;
  readonly #auditKey: string | Uint8Array;
  readonly warn: (message: string) => void;
  readonly info: { name: string; version: string };
  /** The only caller, when there is one: the owner of everything on the manager's connections. */
  readonly #sole: Caller | undefined;
  readonly #maxInFlight: number;
  /** Instances with a connection of their own (stdio, 2025 sessions), told of list changes, with what each serves to whom. */
  readonly #live = new Map<Server, Scope>();
  readonly #listeners = new Set<(kind: "tools" | "prompts" | "resources") => void>();
  readonly #off: (() => void)[] = [];
  #names: string[] | undefined;
  readonly #servable: (server: string) => boolean;
  #tools: Map<string, MCPTool> | undefined;

  constructor(manager: MCPManager, options: GatewayOptions = {}) {
    this.manager = manager;
    this.warn = options.warn ?? (() => {});
    this.info = { name: options.name ?? "mcp-gateway", version: options.version ?? "0.0.0" };
    this.#sole = options.callers?.length === 1 ? options.callers[0] : undefined;
    this.#servable = options.servable ?? (() => true);
    this.#maxInFlight = options.maxInFlightPerCaller ?? MAX_IN_FLIGHT_PER_CALLER;
    this.limits = new RateLimiter(options.rateLimits ?? new MemoryRateLimits(), this.warn);
    this.views = options.views ?? new Map();
    this.toolSearch = options.toolSearch === true;
    this.fastPath = options.fastPath !== false;
    this.tracing = options.tracing;
    this.#audit = options.audit;
    this.#auditKey = options.auditKey ?? randomAuditKey();
    const connect = options.connect ?? {};
    this.lanes = new Lanes({
      idleMs: options.laneIdleMs,
      auth: options.upstreamAuth,
      // What a caller's own connection's server sends that nothing ties is that caller's.
      handlers: (server, caller) => ({
        onLog: (message, context) => this.#log(server, message, context, caller),
        onSampling: (params, context) =>
          this.#ask(server, "sampling/createMessage", params, context, caller) as Promise<never>,
        onElicitation: (params, context) =>
          this.#ask(server, "elicitation/create", params, context, caller) as Promise<never>,
        roots: (context) => this.#roots(server, context, caller),
      }),
      // The caller's own connection: the manager's config (credentials included, or the caller's own exchanged) and era.
      open: (server, config, era, handlers) =>
        connectToServer(server, config, {
          ...connect,
          applyElicitationDefaults: false,
          protocol: era === "2025" ? "2025" : "auto",
          ...handlers,
        }),
    });
    this.#off.push(
      manager.onToolsChanged(() => {
        this.#tools = undefined;
        this.changed("tools");
      }),
      manager.onStatusChange(() => void (this.#names = undefined)),
      watchHeld(manager, this.#audit),
    );
  }

  /** The names of the servers a scope serves, in config order (never one whose name holds `__`). */
  servers(scope: Pick<Scope, "server">): string[] {
    // Worked out again only when a server comes or goes: every request asks.
    this.#names ??= this.manager
      .getStatuses()
      .map((s) => s.name)
      .filter((name) => servableName(name) && this.#servable(name));
    return scope.server === undefined ? this.#names : this.#names.filter((name) => name === scope.server);
  }

  /** The manager's tool `name` of `server`, from a map made again only when the tools change. */
  tool(server: string, name: string): MCPTool | undefined {
    if (!this.#tools) {
      this.#tools = new Map();
      for (const tool of this.manager.getTools()) this.#tools.set(`${tool.serverName}\n${tool.toolName}`, tool);
    }
    return this.#tools.get(`${server}\n${name}`);
  }

  /** Keeps an instance with a connection of its own, to tell it of list changes until it closes. */
  track(server: Server, scope: Scope): void {
    this.#live.set(server, scope);
    server.onclose = () => this.#live.delete(server);
    // The only caller's roots are the roots of the shared connections: tell their servers when they
    // can be had (it connected) or changed, so a server that asked before gets them.
    const rootsChanged = (): void => {
      if (this.#sole?.id !== scope.caller.id || !covers(server.getClientCapabilities(), "roots/list")) return;
      tellRootsChanged(this.manager, this.servers({ server: undefined }));
    };
    server.oninitialized = rootsChanged;
    server.setNotificationHandler("notifications/roots/list_changed", rootsChanged);
  }

  /** How many instances have a connection of their own (stdio connections, 2025 sessions). */
  get connections(): number {
    return this.#live.size;
  }

  /** Forgets an instance (its connection never opened: a refused request). */
  untrack(server: Server): void {
    this.#live.delete(server);
  }

  /**
   * Whether a scope's caller may see `server` at all (its prompts, resources, completions, logs):
   * the scope serves it, and the caller has no lists, or they leave it one of the server's tools.
   */
  sees(scope: Pick<Scope, "server" | "caller" | "view">, server: string): boolean {
    // A view shows tools only: nothing else of any server (prompts, resources, logs).
    if (scope.view || (scope.server !== undefined && scope.server !== server)) return false;
    if (scope.caller.allow === undefined && !scope.caller.deny?.length) return true;
    return this.manager
      .getTools()
      .some((tool) => tool.serverName === server && allowed(scope.caller, server, tool.toolName));
  }

  /**
   * A request handler of `scope` for `method`, audited when there is an audit sink (one entry per
   * request, built and written after the request's turn); without one, `run` is all there is.
   */
  audited<A extends [unknown, ServerContext?], R>(
    scope: Scope,
    method: string,
    run: (note: Note, ...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return audited(this.#audit, this.#auditKey, scope, method, run);
  }

  /** An HTTP request refused before any handler took it, for the audit log (see `refusedEntry`). */
  refused(endpoint: string, status: number, caller: Caller | undefined, method: string | null = null): void {
    const sink = this.#audit;
    if (sink) setImmediate(sink, refusedEntry(endpoint, status, caller, method));
  }

  /** Subscribes to list changes (the HTTP front publishes them to 2026-07-28 listeners). */
  onChanged(listener: (kind: "tools" | "prompts" | "resources") => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every caller that a list changed. */
  changed(kind: "tools" | "prompts" | "resources"): void {
    for (const server of this.#live.keys()) server[LIST_CHANGED[kind]]().catch(() => {});
    for (const listener of this.#listeners) listener(kind);
  }

  /** An upstream notification: list changes are passed on. */
  onNotification = (_server: string, method: string): void => {
    if (method === "notifications/prompts/list_changed") this.changed("prompts");
    else if (method === "notifications/resources/list_changed") this.changed("resources");
  };

  // The manager's handlers: its connections are shared, so only the sole caller owns what nothing ties.
  onLog = (server: string, message: LogMessage, context?: NotificationContext): void =>
    this.#log(server, message, context, this.#sole);
  onSampling = (server: string, params: CreateMessageParams, context: RequestContext): Promise<never> =>
    this.#ask(server, "sampling/createMessage", params, context, this.#sole) as Promise<never>;
  onElicitation = (server: string, params: ElicitParams, context: RequestContext): Promise<never> =>
    this.#ask(server, "elicitation/create", params, context, this.#sole) as Promise<never>;
  onRoots = (server: string, context: RequestContext): Promise<{ uri: string; name?: string }[]> =>
    this.#roots(server, context, this.#sole);

  /**
   * Whose request a server's message is about: the request it arrived tied to, or else one of the
   * connection owner's requests to that server without a result yet (a question: the one handed the
   * fewest; a log: the latest); with no owner, nobody's.
   */
  #askerOf(server: string, context: { relatedTo?: unknown } | undefined, owner: Caller | undefined, question = false) {
    const tied = context?.relatedTo as Asker | undefined;
    if (tied !== undefined || owner === undefined) return tied;
    return question ? this.inflight.untiedOf(server, owner) : this.inflight.latestOf(server, owner);
  }

  /** A server's log message: to the caller whose request it is about; else to the owner's connections that may see the server; else to nobody. */
  #log(server: string, message: LogMessage, context: NotificationContext | undefined, owner: Caller | undefined): void {
    const asker = this.#askerOf(server, context, owner);
    if (asker) return asker.log(server, message);
    if (owner === undefined) return;
    for (const [live, scope] of this.#live) {
      if (scope.caller.id === owner.id && this.sees(scope, server))
        live
          .sendLoggingMessage({ level: message.level, data: message.data, logger: message.logger ?? server })
          .catch(() => {});
    }
  }

  /**
   * `roots/list` from a server: the roots of the caller whose request it is about (an untied one
   * handed on, as a question is, when the call it went to ends first); with none in flight, the
   * connection owner's, asked on a connection of its own that offers roots; else none.
   */
  async #roots(
    server: string,
    context: RequestContext,
    owner: Caller | undefined,
  ): Promise<{ uri: string; name?: string }[]> {
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(30_000)]);
    const next = (): Asker | undefined => this.#askerOf(server, context, owner, true);
    let answer: Promise<unknown> | undefined;
    if (this.#askerOf(server, context, owner))
      answer = askCall(next, context.relatedTo !== undefined, (asker) =>
        asker.can("roots/list") ? asker.ask("roots/list", {}, signal) : Promise.resolve(undefined),
      ).then((asked) => asked?.answer);
    else if (owner !== undefined) {
      const live = [...this.#live]
        .reverse()
        .find(
          ([instance, scope]) =>
            scope.caller.id === owner.id &&
            this.sees(scope, server) &&
            covers(instance.getClientCapabilities(), "roots/list"),
        );
      answer = live?.[0].listRoots(undefined, { signal });
    }
    const roots = ((await answer?.catch(() => undefined)) as { roots?: unknown } | undefined)?.roots;
    return Array.isArray(roots) ? (roots as { uri: string; name?: string }[]) : [];
  }

  /**
   * A server's question, to the caller whose call it is tied to. An untied one goes to the
   * connection owner's call in flight handed the fewest so far; if that call ends before the
   * question reaches its caller, to the next one of the owner's calls.
   */
  async #ask(
    server: string,
    method: string,
    params: unknown,
    context: RequestContext,
    owner: Caller | undefined,
  ): Promise<unknown> {
    const asked = await askCall(
      () => this.#askerOf(server, context, owner, true),
      context.relatedTo !== undefined,
      (asker) => {
        if (!asker.can(method))
          throw new RpcError(-32601, `the caller ("${asker.caller.name}") does not support ${method}`);
        return asker.ask(method, params, context.signal);
      },
    );
    if (asked) return asked.answer;
    this.warn(
      `server "${server}" sent ${method} that no caller's request ties to: refused (each caller gets its own connection to such servers only when several callers use the gateway)`,
    );
    throw new RpcError(
      -32603,
      `the gateway cannot tell which caller ${method} is for (no request of a caller's to "${server}" ties to it), so it asks nobody`,
    );
  }

  /**
   * Runs `work` against upstream `server` for the request of `ctx` (naming `subject`, a tool,
   * prompt or URI): its caller answers the server's questions meanwhile (directly on a 2025
   * connection; by `input_required` rounds for a 2026-07-28 caller, each retry bound to that
   * caller, endpoint and subject), and gets its logs. A server that ties nothing to requests is
   * reached over the caller's own connection when several callers share the gateway.
   */
  async forward(
    instance: Server | undefined,
    scope: Scope,
    ctx: ServerContext,
    server: string,
    subject: string,
    work: (upstream: Upstream) => Promise<unknown>,
    note?: Note,
  ): Promise<unknown> {
    // The caller's log level goes upstream with its call: a 2026-07-28 server sends none without one.
    const logLevel = logLevelOf(scope.era, instance, ctx);
    const log = (round: () => ServerContext) => (from: string, message: LogMessage) => {
      void round()
        .mcpReq.log(message.level, message.data, message.logger ?? from)
        .catch(() => {});
    };
    const run = async (given: Asker, signal: AbortSignal, round: () => ServerContext): Promise<unknown> => {
      // Fairness among callers: the only caller has nobody to starve.
      if (this.#sole === undefined && this.inflight.countOf(scope.caller) >= this.#maxInFlight) {
        throw new ProtocolError(
          LIMITED,
          `Caller "${scope.caller.name}" already has ${this.#maxInFlight} requests in flight; wait for one to end`,
          { reason: "in-flight", limit: this.#maxInFlight },
        );
      }
      // What the server sends about this call (progress, logs, questions) reaches its caller in the server's order.
      const outbox = new Outbox();
      const asker = outbox.ordered(given);
      const leave = this.inflight.enter(server, asker);
      try {
        const options: RequestOptions = { signal, relatedTo: asker };
        const upstream = (lane?: Upstream["lane"]): Upstream => ({ signal, round, lane, options, outbox, logLevel });
        // A server taking each user's own credentials is reached on the user's own connection, always.
        const own = this.lanes.owns(server);
        if (this.#sole !== undefined && !own) return await work(upstream());
        const shared = await this.manager.waitForConnection(server, signal);
        if (!own && tiesMessages(shared)) return await work(upstream());
        return await this.lanes.use(server, scope.caller, shared, (lane) => work(upstream(lane)), {
          legacy: scope.era === "legacy",
          asker,
          signal,
          capabilities: capabilitiesOf(round()),
          completed: scope.era === "legacy" ? completedOf(instance) : undefined,
        });
      } finally {
        leave();
      }
    };
    const here = (): ServerContext => ctx;
    try {
      if (scope.era === "legacy") {
        const legacy = legacyAsker(instance, ctx, scope.caller, log(here));
        try {
          return await run(legacy.asker, ctx.mcpReq.signal, here);
        } finally {
          legacy.end();
        }
      }
      // A caller that can be asked nothing needs no rounds: a question to it is refused at once.
      const capabilities = capabilitiesOf(ctx);
      if (ctx.mcpReq.requestState() === undefined && !ASKING.some((method) => covers(capabilities, method))) {
        return await run(mutedAsker(scope.caller, log(here)), ctx.mcpReq.signal, here);
      }
      const binding = [scope.caller.id, scope.server ?? "", ctx.mcpReq.method, subject].join("\n");
      return await this.rounds.serve(
        ctx,
        binding,
        (ask, round, signal) => {
          const can = (method: string): boolean => covers(capabilitiesOf(round()), method);
          return run({ caller: scope.caller, can, ask, log: log(round) }, signal, round);
        },
        note,
      );
    } catch (error) {
      throw toProtocolError(error);
    }
  }

  /** Stops listening to the manager, cancels pending rounds and closes callers' own connections; the servers are the manager's to close. */
  async close(): Promise<void> {
    for (const off of this.#off.splice(0)) off();
    this.rounds.close();
    for (const server of this.#live.keys()) void server.close().catch(() => {});
    this.#live.clear();
    await this.lanes.close();
  }
}
