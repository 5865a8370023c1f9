// The gateway behind `mcp serve`: one MCP server (the official SDK v2's `Server`, which speaks
// both protocol eras) whose every request is answered by the manager's servers. Tools and prompts
// are named `<server>__<name>` on the aggregate endpoint and keep their own names on a server's
// own endpoint; resources keep their URIs and are routed by a map.

import { RpcError, type CreateMessageParams, type ElicitParams, type LogMessage, type RequestContext } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { InFlight } from "./inflight.js";
import { allowed, type Caller } from "./policy.js";
import { Rounds } from "./rounds.js";

/** Options of {@link Gateway}. */
export interface GatewayOptions {
  /** `serverInfo` of the aggregate server. */
  name?: string | undefined;
  version?: string | undefined;
  /** Problems worth a line on stderr (a resource URI two servers claim, a question no caller can answer). */
  warn?: ((message: string) => void) | undefined;
}

/**
 * How long a request to an upstream server, or a question to a caller, may take when the caller
 * sets no limit: long, since progress resets the clock and the caller can cancel.
 */
export const UPSTREAM_TIMEOUT_MS = 600_000;

/** The protocol era a server instance serves (the SDK tells the factory). */
export type Era = "legacy" | "modern";

/** What one server instance serves: every server (`undefined`) or one, and for whom. */
export interface Scope {
  server: string | undefined;
  caller: Caller;
  era: Era;
}

/** Turns an upstream failure into the JSON-RPC error the caller gets: its code kept when it had one. */
export function toProtocolError(error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  if (RpcError.isInstance(error)) return new ProtocolError(error.code, error.rpcMessage, error.data);
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : undefined;
  return new ProtocolError(-32603, error instanceof Error ? error.message : String(error), code === undefined ? undefined : { code });
}

const CAPABILITY: Record<string, string> = { "sampling/createMessage": "sampling", "elicitation/create": "elicitation", "roots/list": "roots" };

/** Whether capabilities a caller declared cover `method`. */
function covers(capabilities: Record<string, unknown> | undefined, method: string): boolean {
  const needed = CAPABILITY[method];
  return needed === undefined || (capabilities?.[needed] !== undefined && capabilities[needed] !== null);
}

/** The capabilities a 2026-07-28 request declares in its envelope. */
function capabilitiesOf(ctx: ServerContext): Record<string, unknown> | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? ctx.mcpReq._meta?.[CLIENT_CAPABILITIES_META_KEY]) as Record<string, unknown> | undefined;
}

/** Re-exports a manager's servers as one MCP server, for any number of callers. */
export class Gateway {
  readonly manager: MCPManager;
  readonly inflight = new InFlight();
  readonly rounds = new Rounds();
  readonly warn: (message: string) => void;
  readonly info: { name: string; version: string };
  /** Instances with a connection of their own (stdio, 2025 sessions), told of list changes, with what each serves to whom. */
  readonly #live = new Map<Server, Scope>();
  readonly #listeners = new Set<(kind: "tools" | "prompts" | "resources") => void>();
  readonly #off: (() => void)[] = [];

  constructor(manager: MCPManager, options: GatewayOptions = {}) {
    this.manager = manager;
    this.warn = options.warn ?? (() => {});
    this.info = { name: options.name ?? "mcp-gateway", version: options.version ?? "0.0.0" };
    this.#off.push(manager.onToolsChanged(() => this.changed("tools")));
  }

  /** The names of the servers a scope serves, in config order. */
  servers(scope: Pick<Scope, "server">): string[] {
    const all = this.manager.getStatuses().map((s) => s.name);
    return scope.server === undefined ? all : all.filter((name) => name === scope.server);
  }

  /** Keeps an instance with a connection of its own, to tell it of list changes until it closes. */
  track(server: Server, scope: Scope): void {
    this.#live.set(server, scope);
    server.onclose = () => this.#live.delete(server);
  }

  /**
   * Whether a scope's caller may see `server` at all (its prompts, resources, completions, logs):
   * the scope serves it, and the caller has no lists, or they leave it one of the server's tools.
   */
  sees(scope: Pick<Scope, "server" | "caller">, server: string): boolean {
    if (scope.server !== undefined && scope.server !== server) return false;
    if (scope.caller.allow === undefined && !scope.caller.deny?.length) return true;
    return this.manager.getTools().some((tool) => tool.serverName === server && allowed(scope.caller, server, tool.toolName));
  }

  /** Subscribes to list changes (the HTTP front publishes them to 2026-07-28 listeners). */
  onChanged(listener: (kind: "tools" | "prompts" | "resources") => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every caller that a list changed. */
  changed(kind: "tools" | "prompts" | "resources"): void {
    for (const server of this.#live.keys()) {
      const sent = kind === "tools" ? server.sendToolListChanged() : kind === "prompts" ? server.sendPromptListChanged() : server.sendResourceListChanged();
      sent.catch(() => {});
    }
    for (const listener of this.#listeners) listener(kind);
  }

  /** An upstream notification: list changes are passed on. */
  onNotification = (_server: string, method: string): void => {
    if (method === "notifications/prompts/list_changed") this.changed("prompts");
    else if (method === "notifications/resources/list_changed") this.changed("resources");
  };

  /**
   * An upstream server's log message: to the caller of its request in flight, else to each
   * connected caller who may use that server (a caller denied all its tools never sees its logs).
   */
  onLog = (server: string, message: LogMessage): void => {
    const asker = this.inflight.latest(server);
    if (asker) return asker.log(server, message);
    for (const [live, scope] of this.#live) if (this.sees(scope, server)) live.sendLoggingMessage({ level: message.level, data: message.data, logger: message.logger ?? server }).catch(() => {});
  };

  onSampling = (server: string, params: CreateMessageParams, context: RequestContext): Promise<never> => this.#ask(server, "sampling/createMessage", params, context.signal) as Promise<never>;

  onElicitation = (server: string, params: ElicitParams, context: RequestContext): Promise<never> => this.#ask(server, "elicitation/create", params, context.signal) as Promise<never>;

  /** `roots/list` from a server: the roots of the caller whose request to it is in flight (the latest), else none. */
  onRoots = async (server: string): Promise<{ uri: string; name?: string }[]> => {
    const asker = this.inflight.latest(server);
    if (!asker?.can("roots/list")) return [];
    const answer = (await asker.ask("roots/list", {}, AbortSignal.timeout(30_000)).catch(() => ({ roots: [] }))) as { roots?: { uri: string; name?: string }[] };
    return Array.isArray(answer.roots) ? answer.roots : [];
  };

  #ask(server: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const asker = this.inflight.latest(server);
    if (!asker) {
      this.warn(`server "${server}" sent ${method} while no caller had a request to it in flight: refused`);
      return Promise.reject(new RpcError(-32603, `the gateway has no caller to forward ${method} to (no request to "${server}" is in flight)`));
    }
    if (!asker.can(method)) return Promise.reject(new RpcError(-32601, `the caller ("${asker.caller.name}") does not support ${method}`));
    return asker.ask(method, params, signal);
  }

  /**
   * Runs `work` against upstream `server` for the request of `ctx`: its caller answers the
   * server's questions meanwhile (directly on a 2025 connection; by `input_required` rounds for a
   * 2026-07-28 caller), and gets its logs.
   */
  async forward(instance: Server, scope: Scope, ctx: ServerContext, server: string, work: (signal: AbortSignal, round: () => ServerContext) => Promise<unknown>): Promise<unknown> {
    const log = (round: () => ServerContext) => (from: string, message: LogMessage) => {
      void round().mcpReq.log(message.level, message.data, message.logger ?? from).catch(() => {});
    };
    try {
      if (scope.era === "legacy") {
        const leave = this.inflight.enter(server, {
          caller: scope.caller,
          can: (method) => covers(instance.getClientCapabilities(), method),
          ask: (method, params, signal) => ctx.mcpReq.send({ method, params: params as Record<string, unknown> } as never, { signal, timeout: UPSTREAM_TIMEOUT_MS, resetTimeoutOnProgress: true }),
          log: log(() => ctx),
        });
        try {
          return await work(ctx.mcpReq.signal, () => ctx);
        } finally {
          leave();
        }
      }
      return await this.rounds.serve(ctx, async (ask, round, signal) => {
        const can = (method: string): boolean => covers(capabilitiesOf(round()), method);
        const leave = this.inflight.enter(server, { caller: scope.caller, can, ask, log: log(round) });
        try {
          return await work(signal, round);
        } finally {
          leave();
        }
      });
    } catch (error) {
      throw toProtocolError(error);
    }
  }

  /** Stops listening to the manager and cancels pending rounds; the servers are the manager's to close. */
  close(): void {
    for (const off of this.#off.splice(0)) off();
    this.rounds.close();
    for (const server of this.#live.keys()) void server.close().catch(() => {});
    this.#live.clear();
  }
}
