// The pool: which upstream each host session is served by (the sharing rules, see the README),
// starting an upstream on first use and ending it after it has had no host for `idleMs`.

import { EventEmitter } from "node:events";
import { RpcError } from "@mcp/jsonrpc";
import type { ToolCache } from "@mcp/manager/config";
import { managerApprovals, ServerNotApprovedError, type PoolApprovals, type PoolApprovalVerdict } from "./approvals.js";
import { fingerprintOf } from "./fingerprint.js";
import { HostSession, type HostBinder } from "./host.js";
import { rssOf } from "./rss.js";
import { forgetOpening, rememberOpening, usableOpening } from "./tool-cache.js";
import type { AttachOptions, ServerPoolOptions } from "./options.js";
import type { Era, Opening, UpstreamStatus } from "./types.js";
import { Upstream } from "./upstream.js";

export type { AttachOptions, PoolEventName, ServerPoolOptions } from "./options.js";

const DEFAULT_IDLE_MS = 10 * 60_000;

/** Whether a host's declared capabilities let a server ask it anything (roots, sampling, elicitation). */
export function asksQuestions(capabilities: unknown): boolean {
  if (typeof capabilities !== "object" || capabilities === null) return false;
  const caps = capabilities as Record<string, unknown>;
  return caps["roots"] !== undefined || caps["sampling"] !== undefined || caps["elicitation"] !== undefined;
}

/**
 * Stdio MCP servers shared by many host sessions. `attach` gives a host session; feed it the
 * host's messages with `receive`, and `close` it when the host goes. See the package README for
 * which sessions share a process and how a server's messages are routed.
 */
export class ServerPool extends EventEmitter implements HostBinder {
  readonly idleMs: number;
  readonly maxConcurrentCalls: number;
  readonly maxQueuedBytes: number;
  readonly maxHeldBytes: number;
  readonly #clientInfo: { name: string; version: string };
  readonly #upstreams = new Map<string, Upstream>();
  readonly #idle = new Map<Upstream, ReturnType<typeof setTimeout>>();
  /** Fingerprints whose server does not answer `server/discover` (2025-only), and what it said. */
  readonly #noDiscover = new Map<string, RpcError>();
  /** What each live host session attached with. */
  readonly #configs = new Map<HostSession, AttachOptions>();
  /** Each live host session's approval check, started when it attached. */
  readonly #approvals = new Map<HostSession, Promise<void>>();
  readonly #approve: PoolApprovals;
  readonly #toolCache: ToolCache | undefined;
  #nextHost = 1;
  #closed = false;
  readonly maxRssBytes: number | undefined;
  readonly #rssTimer: ReturnType<typeof setInterval> | undefined;

  constructor(options: ServerPoolOptions = {}) {
    super();
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.maxConcurrentCalls = options.maxConcurrentCalls ?? 16;
    this.maxQueuedBytes = options.maxQueuedBytes ?? 1024 * 1024;
    this.maxHeldBytes = options.maxHeldBytes ?? this.maxQueuedBytes;
    for (const [field, value] of [
      ["idleMs", this.idleMs],
      ["maxConcurrentCalls", this.maxConcurrentCalls],
      ["maxQueuedBytes", this.maxQueuedBytes],
      ["maxHeldBytes", this.maxHeldBytes],
    ] as const)
      if (!(typeof value === "number" && value >= 0 && !Number.isNaN(value)))
        throw new TypeError(`ServerPool: ${field} must be a non-negative number; got ${String(value)}`);
    if (this.maxConcurrentCalls < 1)
      throw new TypeError(`ServerPool: maxConcurrentCalls must be at least 1; got ${this.maxConcurrentCalls}`);
    this.#clientInfo = options.clientInfo ?? { name: "mcp-pool", version: "0.1.0" };
    if (options.approvals !== undefined && typeof options.approvals !== "function")
      throw new TypeError(
        `ServerPool: approvals must be a function (request) => verdict; got ${typeof options.approvals} (to serve everything: approvals: () => ({ approved: true }))`,
      );
    this.#approve = options.approvals ?? managerApprovals();
    this.#toolCache = options.toolCache;
    this.maxRssBytes = options.maxRssBytes;
    if (this.maxRssBytes !== undefined) {
      if (!(typeof this.maxRssBytes === "number" && this.maxRssBytes > 0))
        throw new TypeError(`ServerPool: maxRssBytes must be a positive number; got ${String(this.maxRssBytes)}`);
      this.#rssTimer = setInterval(() => void this.#checkMemory(this.maxRssBytes!), options.rssCheckMs ?? 5000);
      this.#rssTimer.unref();
    }
  }

  /** Ends every server over the memory cap, telling its hosts how much it used. */
  async #checkMemory(cap: number): Promise<void> {
    for (const upstream of [...this.#upstreams.values()]) {
      const pid = upstream.pid;
      const rss = pid === undefined ? undefined : rssOf(pid);
      if (rss === undefined || rss <= cap) continue;
      const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;
      for (const host of [...upstream.hosts])
        host.end(
          `the pooled server "${upstream.name}" used ${mb(rss)}, over the pool's memory cap of ${mb(cap)}: it was stopped`,
        );
      await this.#end(upstream, "over memory cap");
    }
  }

  /** A new host session for the server in `options.config`; nothing starts until the host's first message. */
  attach(options: AttachOptions): HostSession {
    if (this.#closed) throw new Error("ServerPool: the pool is closed");
    if (typeof options.config?.command !== "string" || options.config.command === "")
      throw new TypeError(`ServerPool.attach: config.command must be a non-empty string (server "${options.name}")`);
    const host = new HostSession(
      this.#nextHost++,
      fingerprintOf(options.config),
      { ...options.info },
      options.send,
      options.onEnd ?? (() => {}),
      this,
      this.maxQueuedBytes,
      options.onDrain,
      this.maxHeldBytes,
    );
    const { env: _env, ...kept } = options;
    this.#configs.set(host, kept);
    const approval = this.#check(options);
    approval.catch(() => {}); // the host learns it from its opening (or the embedder from approval())
    this.#approvals.set(host, approval);
    return host;
  }

  /** Asks the approval check about one attach; rejects with {@link ServerNotApprovedError}. */
  async #check(options: AttachOptions): Promise<void> {
    const project = options.project ?? options.config.cwd ?? process.cwd();
    let verdict: PoolApprovalVerdict | undefined;
    try {
      verdict = await this.#approve({
        name: options.name,
        config: options.config,
        source: options.source,
        project,
        ...(options.env === undefined ? {} : { env: options.env }),
      });
    } catch (error) {
      verdict = {
        approved: false as const,
        reason: `the approval check failed: ${(error as Error)?.message ?? String(error)}`,
        approve: "fix the pool's approvals option",
      };
    }
    if (verdict?.approved === true) return;
    throw new ServerNotApprovedError(
      options.name,
      verdict?.approved === false ? verdict.reason : "the approval check gave no verdict",
      verdict?.approved === false ? verdict.approve : "fix the pool's approvals option",
    );
  }

  /**
   * Resolves when the pool's approval check lets this host session's server run; rejects with
   * {@link ServerNotApprovedError} when it does not (nothing was started). A host's opening waits
   * for it anyway: awaiting it is for refusing a host before it sends anything.
   */
  approval(host: HostSession): Promise<void> {
    return this.#approvals.get(host) ?? Promise.reject(new RpcError(-32603, "the host session has ended"));
  }

  /** The upstream for a host's opening (see the README's sharing rules), started if need be. */
  async bind(host: HostSession, era: Era, params: Record<string, unknown>): Promise<Upstream> {
    const attach = this.#configs.get(host);
    if (attach === undefined) throw new RpcError(-32603, "the host session has ended");
    await this.#approvals.get(host);
    if (!this.#configs.has(host)) throw new RpcError(-32603, "the host session has ended");
    let key: string;
    let opening: Opening;
    let sharing: Upstream["sharing"] = "shared";
    if (era === "2026-07-28") {
      const refused = this.#noDiscover.get(host.fingerprint);
      if (refused) throw refused;
      key = `${host.fingerprint}/2026-07-28`;
      opening = {
        era,
        params:
          Object.keys(params).length > 0
            ? params
            : {
                _meta: {
                  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "io.modelcontextprotocol/clientInfo": this.#clientInfo,
                },
              },
      };
    } else if (asksQuestions(params["capabilities"])) {
      sharing = "dedicated";
      key = `${host.fingerprint}/dedicated/${host.id}`;
      opening = { era, params };
    } else {
      const version = params["protocolVersion"];
      // Shared with sessions whose version the server answered the same way (or that asked the same).
      const same = [...this.#upstreams.values()].find(
        (u) =>
          u.fingerprint === host.fingerprint &&
          u.sharing === "shared" &&
          u.opening?.era === "2025" &&
          u.state !== "failed" &&
          u.state !== "closed" &&
          (u.opening.params["protocolVersion"] === version || u.openResult?.["protocolVersion"] === version),
      );
      key = same?.key ?? `${host.fingerprint}/2025/${String(version)}`;
      opening = { era, params: { protocolVersion: version, capabilities: {}, clientInfo: this.#clientInfo } };
    }
    const fresh = (u: Upstream | undefined): boolean => u === undefined || u.state === "failed" || u.state === "closed";
    let upstream = this.#upstreams.get(key);
    // Start on first use: a shared 2025 server this pool has listed live is answered from the cache.
    const cached =
      fresh(upstream) && sharing === "shared" && era === "2025" && this.#toolCache
        ? await usableOpening(this.#toolCache, key)
        : undefined;
    if (!this.#configs.has(host)) throw new RpcError(-32603, "the host session has ended");
    upstream = this.#upstreams.get(key);
    if (upstream === undefined || fresh(upstream)) {
      upstream = new Upstream(
        key,
        host.fingerprint,
        attach.name,
        attach.source,
        sharing,
        attach.config,
        this.maxConcurrentCalls,
        {
          spawned: (u) => this.emit("spawned", { name: u.name, key: u.key, pid: u.pid }),
          crashed: (u, restarting) => {
            this.emit("crashed", { name: u.name, key: u.key, restarting });
            if (!restarting) this.#forget(u);
          },
          listed: (u, result) => {
            if (this.#toolCache && u.sharing === "shared" && u.era === "2025" && u.openResult)
              rememberOpening(this.#toolCache, u.key, u.openResult, result);
          },
          toolsChanged: (u) => {
            if (this.#toolCache && u.sharing === "shared") forgetOpening(this.#toolCache, u.key);
          },
        },
      );
      if (cached) upstream.defer(opening, cached.openResult, cached.tools);
      this.#upstreams.set(key, upstream);
    }
    this.#cancelIdle(upstream);
    upstream.hosts.add(host);
    host.upstream = upstream;
    try {
      if (upstream.state !== "cached") await upstream.open(opening);
    } catch (error) {
      upstream.hosts.delete(host);
      if (host.upstream === upstream) host.upstream = undefined;
      if (upstream.hosts.size === 0) this.#forget(upstream);
      if (era === "2026-07-28" && RpcError.isInstance(error)) this.#noDiscover.set(host.fingerprint, error);
      throw RpcError.isInstance(error)
        ? error
        : new RpcError(-32603, `the pooled server "${attach.name}" did not start: ${(error as Error).message}`);
    }
    return upstream;
  }

  /** A host session ended: its upstream is ended now (a dedicated one) or after `idleMs` without hosts. */
  detach(host: HostSession): void {
    this.#configs.delete(host);
    this.#approvals.delete(host);
    this.unbind(host);
  }

  /** A host leaves its upstream (it ended, or it opens again in the other era). */
  unbind(host: HostSession): void {
    const upstream = host.upstream;
    host.upstream = undefined;
    if (upstream === undefined || !upstream.hosts.delete(host)) return;
    for (const task of host.tasks) upstream.taskOwners.delete(task);
    for (const uri of host.subscriptions) {
      const holders = upstream.subscriptions.get(uri);
      holders?.delete(host);
      if (holders?.size === 0) {
        upstream.subscriptions.delete(uri);
        if (upstream.state === "ready")
          upstream
            .request("resources/unsubscribe", { uri }, { signal: AbortSignal.timeout(30_000), host })
            .catch(() => {});
      }
    }
    if (upstream.hosts.size > 0 || upstream.state === "closed") return;
    if (upstream.sharing === "dedicated") return void this.#end(upstream, "session ended");
    const timer = setTimeout(() => void this.#end(upstream, "idle"), this.idleMs);
    timer.unref();
    this.#idle.set(upstream, timer);
  }

  #cancelIdle(upstream: Upstream): void {
    const timer = this.#idle.get(upstream);
    if (timer !== undefined) clearTimeout(timer);
    this.#idle.delete(upstream);
  }

  #forget(upstream: Upstream): void {
    this.#cancelIdle(upstream);
    if (this.#upstreams.get(upstream.key) === upstream) this.#upstreams.delete(upstream.key);
  }

  async #end(upstream: Upstream, reason: "idle" | "session ended" | "killed" | "over memory cap"): Promise<void> {
    this.#forget(upstream);
    if (upstream.state === "closed") return;
    const pid = upstream.pid;
    await upstream.close();
    this.emit("reaped", { name: upstream.name, key: upstream.key, pid, reason });
  }

  /** Every upstream the pool runs, and the hosts attached to each. */
  statuses(): UpstreamStatus[] {
    const now = Date.now();
    return [...this.#upstreams.values()].map((upstream) => upstream.status(now));
  }

  /**
   * Ends every upstream of the server named `name` (or whose fingerprint starts with it): its hosts
   * are told why and closed. Resolves with how many were ended.
   */
  async kill(name: string): Promise<number> {
    const doomed = [...this.#upstreams.values()].filter(
      (u) => u.name === name || (name.length >= 8 && u.fingerprint.startsWith(name)),
    );
    for (const upstream of doomed) {
      for (const host of [...upstream.hosts])
        host.end(`the pooled server "${upstream.name}" was stopped (mcp ps --kill)`);
      await this.#end(upstream, "killed");
    }
    return doomed.length;
  }

  /** Ends every upstream and refuses new hosts. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#rssTimer !== undefined) clearInterval(this.#rssTimer);
    const all = [...this.#upstreams.values()];
    for (const upstream of all) for (const host of [...upstream.hosts]) host.end("the mcp pool is closing");
    await Promise.all(all.map((upstream) => this.#end(upstream, "killed")));
  }
}
