// The daemon's servers, kept per resolved configuration. A call brings the configs its shell resolved
// just now (variables expanded, secrets included; a stdio server's folder and the environment its
// own is built from, see environment.ts); the daemon answers it from a manager holding exactly those
// servers, found by a SHA-256 of them. A changed or missing secret, another folder or another PATH
// is another key, so another manager (or no server at all, as a direct call would find): a server
// started with one shell's credentials never serves a call that resolved others. Only the hash is
// kept as the key. A server that failed is started anew by the next call, as a direct call would.

import { createHash } from "node:crypto";
import type { MCPServerConfig } from "@mcp/client";
import type * as Manager from "@mcp/manager";
import { failureError, type DiscoveredServer } from "@mcp/manager/config";

type MCPManager = Manager.MCPManager;
type MCPTool = Manager.MCPTool;
let managerModule: Promise<typeof Manager> | undefined;
/** The whole manager (clients, OAuth, HTTP), loaded with the first call: the pool alone never needs it. */
const loadManager = (): Promise<typeof Manager> => (managerModule ??= import("@mcp/manager"));

/** What each view's manager is given: its client info, and the words that say how to approve a project server. */
export interface ViewOptions {
  clientInfo: { name: string; version: string };
  howToApprove?: ((server: { name: string }) => string) | undefined;
}

/** At most this many configurations are kept; the least recently used idle one goes first. */
export const MAX_VIEWS = 8;

/** JSON with every object's keys in order, so equal configs hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The key of a resolved configuration: a SHA-256 of it, secrets included (never the secrets). */
export function configKey(configs: Record<string, MCPServerConfig>, servers: Record<string, DiscoveredServer>): string {
  return createHash("sha256").update(canonical({ configs, servers })).digest("hex");
}

/** One resolved configuration's servers. */
export class View {
  readonly manager: MCPManager;
  /** When each server was last used (ms). */
  readonly used = new Map<string, number>();
  /** Calls in flight. */
  calls = 0;
  lastUsed = Date.now();
  /** The folder of the call that last used it. */
  cwd: string;
  /** Servers stopped for idleness; registered again when a call needs them. */
  readonly #stopped = new Set<string>();
  #added = false;
  /** Registrations run one at a time. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly key: string,
    readonly configs: Record<string, MCPServerConfig>,
    readonly servers: Record<string, DiscoveredServer>,
    cwd: string,
    options: ViewOptions,
    manager: typeof Manager,
  ) {
    this.cwd = cwd;
    // It is sent only what the calling CLI's check let through (marked approved); anything else would be refused here.
    this.manager = new manager.MCPManager({
      cwd,
      connect: { clientInfo: options.clientInfo },
      results: { keep: true },
      ...(options.howToApprove ? { approvals: { howToApprove: options.howToApprove } } : {}),
    });
  }

  /** Registers the servers on first use, and those stopped or failed since; the tools known now. */
  async register(): Promise<MCPTool[]> {
    const turn = this.#turn.then(async () => {
      if (!this.#added) {
        await this.manager.addServers(this.configs, this.servers);
        this.#added = true;
      }
      // A server that failed (to start, or for good after it ran) is not kept failing: a direct call
      // would start it anew, and so does this one.
      for (const status of this.manager.getStatuses())
        if (status.state === "failed" && this.configs[status.name] !== undefined) this.#stopped.add(status.name);
      if (this.#stopped.size > 0) {
        const again = Object.fromEntries([...this.#stopped].map((name) => [name, this.configs[name]!]));
        this.#stopped.clear();
        await this.manager.addServers(again, this.servers);
      }
    });
    this.#turn = turn.catch(() => undefined);
    await turn;
    return this.manager.getTools();
  }

  /** Stops one server (idle); a later call registers it again. */
  stop(name: string): void {
    if (this.configs[name] === undefined) return;
    this.#stopped.add(name);
    this.manager.disconnectServer(name).catch(() => undefined);
  }
}

/** One server of the daemon, in `status`. */
export interface DaemonServerStatus {
  name: string;
  /** `connected`, `connecting`, `reconnecting`, `failed`, `not approved`, or `not started` (none of its calls came yet, or it was stopped for idleness). */
  state: string;
  /** Its tools, while connected; null otherwise. */
  tools: number | null;
  keepAlive: boolean;
  /** ms since its last call; null before its first. */
  idleForMs: number | null;
  /** Why it failed (its stderr apart); null unless it did. */
  lastError: string | null;
  stderrTail: string | null;
}

/** The daemon's configurations, by key. */
export class Views {
  readonly #views = new Map<string, View>();
  /** Views being closed; {@link closeAll} waits for them too. */
  readonly #closing = new Set<Promise<void>>();

  constructor(private readonly options: { serverIdleMs: number; keepAlive: string[] } & ViewOptions) {}

  /**
   * The view for these resolved configs (made when new), counted as in use until {@link release}.
   * A new configuration replaces idle ones last used from the same folder (a changed config or
   * secret restarts its servers), and the least recently used idle ones past {@link MAX_VIEWS}.
   */
  async acquire(
    configs: Record<string, MCPServerConfig>,
    servers: Record<string, DiscoveredServer>,
    cwd: string,
  ): Promise<View> {
    const manager = await loadManager();
    const key = configKey(configs, servers);
    let view = this.#views.get(key);
    if (!view) {
      view = new View(key, configs, servers, cwd, this.options, manager);
      for (const old of this.#views.values()) if (old.calls === 0 && old.cwd === cwd) this.#close(old);
      this.#views.set(key, view);
      const idle = [...this.#views.values()]
        .filter((v) => v.calls === 0 && v !== view)
        .sort((a, b) => a.lastUsed - b.lastUsed);
      while (this.#views.size > MAX_VIEWS && idle.length > 0) this.#close(idle.shift()!);
    }
    view.calls += 1;
    view.lastUsed = Date.now();
    view.cwd = cwd;
    return view;
  }

  /** A call on `view` ended. */
  release(view: View): void {
    view.calls -= 1;
    view.lastUsed = Date.now();
  }

  /**
   * Idle servers are stopped (kept-alive ones stay; nothing while a call runs on the view); a view
   * unused for the server idle time with no kept-alive server running is closed.
   */
  sweep(now = Date.now()): void {
    for (const view of this.#views.values()) {
      if (view.calls > 0) continue;
      const statuses = view.manager.getStatuses();
      const kept = statuses.some(
        (s) =>
          this.options.keepAlive.includes(s.name) && !["idle", "disabled", "failed", "not-approved"].includes(s.state),
      );
      if (!kept && now - view.lastUsed > this.options.serverIdleMs) {
        this.#close(view);
        continue;
      }
      for (const s of statuses) {
        const used = view.used.get(s.name) ?? view.lastUsed;
        if (
          s.state === "connected" &&
          !this.options.keepAlive.includes(s.name) &&
          now - used > this.options.serverIdleMs
        )
          view.stop(s.name);
      }
    }
  }

  /** Every view's servers, for `status`: tools only while connected, a failure with its error. */
  statuses(): DaemonServerStatus[] {
    const now = Date.now();
    return [...this.#views.values()].flatMap((view) =>
      view.manager.getStatuses().map((s) => ({
        name: s.name,
        state: s.state === "idle" ? "not started" : s.state === "not-approved" ? "not approved" : s.state,
        tools: s.state === "connected" ? s.toolCount : null,
        keepAlive: this.options.keepAlive.includes(s.name),
        idleForMs: view.used.has(s.name) ? now - view.used.get(s.name)! : null,
        lastError:
          s.state === "failed" || s.state === "reconnecting" || s.state === "not-approved"
            ? failureError(s) || null
            : null,
        stderrTail: s.state === "failed" ? (s.stderrTail ?? null) : null,
      })),
    );
  }

  /** Closes every view's servers. */
  async closeAll(): Promise<void> {
    const views = [...this.#views.values()];
    this.#views.clear();
    await Promise.all([...views.map((view) => view.manager.disconnectAll().catch(() => undefined)), ...this.#closing]);
  }

  #close(view: View): void {
    this.#views.delete(view.key);
    const closing = view.manager.disconnectAll().catch(() => undefined);
    this.#closing.add(closing);
    void closing.then(() => this.#closing.delete(closing));
  }
}
