// One pooled server process: spawned on first use, opened once in one protocol era (2025: the
// pool's own `initialize`; 2026-07-28: `server/discover`), shared by the host sessions attached to
// it. Requests go through the stdio transport, which gives each its own id (so two hosts' `id: 1`
// never meet) and its own progress token. A crash fails what was in flight (never re-sent) and, if
// hosts are still attached, starts the server once more, opened as before.

import { RpcError, TransportClosedError, type RequestContext } from "@mcp/jsonrpc";
import { StdioTransport, type StdioTransportConfig } from "@mcp/transport-stdio";
import type { Era, Opening, PoolHost, Sharing, UpstreamStatus } from "./types.js";
import { cpuSecondsOf, rssOf } from "./rss.js";

/** A `tools/list` result with every tool in it (an object with a `tools` array and no `nextCursor`). */
function isWholeList(result: unknown): result is Record<string, unknown> {
  return (
    typeof result === "object" &&
    result !== null &&
    Array.isArray((result as Record<string, unknown>)["tools"]) &&
    (result as Record<string, unknown>)["nextCursor"] === undefined
  );
}

/** What {@link Upstream} reports to its pool. */
export interface UpstreamEvents {
  crashed(upstream: Upstream, restarting: boolean): void;
  spawned(upstream: Upstream): void;
  /** The server answered a whole `tools/list` (no cursor in, none out): a live list to remember. */
  listed?(upstream: Upstream, result: Record<string, unknown>): void;
  /** The server's tools changed and could not be listed again: a remembered list is no longer its. */
  toolsChanged?(upstream: Upstream): void;
}

/** One server process and what is known of it. */
export class Upstream {
  readonly hosts = new Set<PoolHost>();
  era: Era | undefined;
  opening: Opening | undefined;
  /** The `initialize` result (2025) or the `server/discover` result (2026-07-28). */
  openResult: Record<string, unknown> | undefined;
  state: UpstreamStatus["state"] = "starting";
  calls = 0;
  restarts = 0;
  lastUsed = Date.now();
  /** Resource URIs each host subscribed to: the upstream is subscribed while one host is. */
  readonly subscriptions = new Map<string, Set<PoolHost>>();
  /** Which host created each task (2025-11-25 tasks): only it may see, read or cancel it. */
  readonly taskOwners = new Map<string, PoolHost>();
  /** The tools the hosts were answered from the cache with, until the live list confirms them. */
  cachedTools: unknown[] | undefined;
  #transport: StdioTransport | undefined;
  #ready: Promise<void> | undefined;
  #active = 0;
  /** Calls waiting for a slot, by host: a slot goes to each waiting host in turn (round robin), so one host's many calls do not keep another's waiting. */
  readonly #queue = new Map<PoolHost, (() => void)[]>();
  #waiting = 0;
  #closing = false;

  constructor(
    readonly key: string,
    readonly fingerprint: string,
    readonly name: string,
    readonly source: string | undefined,
    readonly sharing: Sharing,
    readonly config: StdioTransportConfig,
    readonly maxConcurrentCalls: number,
    readonly events: UpstreamEvents,
  ) {}

  get pid(): number | undefined {
    return this.#transport?.pid;
  }

  /** False while the server leaves much of what it was sent unread (its stdin's write queue past half its bound). */
  get writable(): boolean {
    return this.#transport?.writable ?? true;
  }

  /** Resolves once {@link writable} (at once if it is, or when no process runs). */
  whenWritable(): Promise<void> {
    return this.#transport?.whenWritable() ?? Promise.resolve();
  }

  /** Why the server's process ended, from its stderr's last lines, for an error a host reads. */
  get stderrTail(): string {
    return this.#tailOf(this.#transport);
  }

  /** The last lines of a process's stderr, for its hosts: only a dedicated one's (a shared process's stderr is about every host's calls). */
  #tailOf(transport: StdioTransport | undefined): string {
    return this.sharing === "dedicated" ? (transport?.stderrTail ?? "") : "";
  }

  /** Opens the upstream once (the first caller's `opening`); later callers wait for the same. */
  open(opening: Opening): Promise<void> {
    this.opening ??= opening;
    this.#ready ??= this.#start();
    return this.#ready;
  }

  /**
   * Answered from the tool cache: the opening's result and the tool list are the remembered ones,
   * and no process starts until a request needs one ({@link request}).
   */
  defer(opening: Opening, openResult: Record<string, unknown>, tools: unknown[]): void {
    this.opening = opening;
    this.openResult = openResult;
    this.cachedTools = tools;
    this.era = opening.era;
    this.state = "cached";
  }

  async #start(): Promise<void> {
    const transport = new StdioTransport({ ...this.config, timeout: Infinity, serverName: this.name });
    this.#transport = transport;
    transport.onRequest = (method, params, context) => this.#question(method, params, context);
    transport.onNotification = (method, params) => this.#notification(method, params);
    transport.onClose = () => this.#closed(transport);
    await transport.connect();
    this.events.spawned(this);
    const opening = this.opening!;
    try {
      if (opening.era === "2025") {
        this.openResult = await transport.request<Record<string, unknown>>("initialize", opening.params);
        const version = this.openResult["protocolVersion"];
        if (typeof version === "string") transport.setProtocolVersion(version);
        await transport.notify("notifications/initialized");
      } else {
        this.openResult = await transport.request<Record<string, unknown>>("server/discover", opening.params);
      }
    } catch (error) {
      // Not opened: the process is of no use to anyone (a 2025 server asked to discover, a server
      // that fails its handshake). The next opening starts a new one.
      this.#ready = undefined;
      this.opening = undefined;
      this.#closing = true;
      await transport.close();
      this.#closing = false;
      this.#transport = undefined;
      throw error;
    }
    this.era = opening.era;
    this.state = "ready";
    if (this.cachedTools !== undefined) void this.#confirm(transport, this.cachedTools);
  }

  /**
   * The hosts answered from the cache are told (`tools/list_changed`) when the live list is not
   * the one they were given; the live list is remembered either way.
   */
  async #confirm(transport: StdioTransport, cached: unknown[]): Promise<void> {
    this.cachedTools = undefined;
    let live: Record<string, unknown>;
    try {
      live = await transport.request<Record<string, unknown>>("tools/list", {});
    } catch {
      return; // it exited, or does not list: the hosts learn that from their own calls
    }
    if (live["nextCursor"] === undefined) this.events.listed?.(this, live);
    if (JSON.stringify(live["tools"]) === JSON.stringify(cached) && live["nextCursor"] === undefined) return;
    for (const host of this.hosts) host.deliver("notifications/tools/list_changed", undefined);
  }

  /** Sends a host's request upstream (after the opening, within the concurrent-call cap). */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: {
      signal: AbortSignal;
      onProgress?:
        | ((progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void)
        | undefined;
      host: PoolHost;
    },
  ): Promise<unknown> {
    // Answered from the cache so far: the first request that needs the server starts it.
    if (this.#ready === undefined && this.state === "cached" && this.opening !== undefined) {
      this.state = "starting";
      this.open(this.opening).catch((error: unknown) => {
        // Its hosts were told it was there: they are ended, saying why (the request itself fails too).
        this.state = "failed";
        this.events.crashed(this, false);
        for (const host of [...this.hosts])
          host.end(`the pooled server "${this.name}" did not start: ${(error as Error).message}`);
      });
    }
    if (this.#ready === undefined) throw new RpcError(-32603, `the pooled server "${this.name}" is not open`);
    await this.#ready;
    this.lastUsed = Date.now();
    const capped = method === "tools/call";
    if (capped) await this.#slot(options.signal, options.host);
    try {
      let transport = this.#transport;
      // A server that does not read its stdin: the request waits here (its host's intake counts it) rather than in the write queue.
      while (transport !== undefined && this.state === "ready" && !transport.writable) {
        await transport.whenWritable(options.signal);
        transport = this.#transport;
      }
      if (transport === undefined || this.state !== "ready")
        throw new RpcError(-32603, `the pooled server "${this.name}" is not running (${this.state})`);
      this.calls += 1;
      const result = await transport.request(method, params, {
        signal: options.signal,
        timeout: Infinity,
        relatedTo: options.host,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
      if (method === "tools/list" && params?.["cursor"] === undefined && isWholeList(result))
        this.events.listed?.(this, result);
      return result;
    } catch (error) {
      if (TransportClosedError.isInstance(error) || (error instanceof Error && error.name === "TransportClosedError")) {
        throw new RpcError(
          -32603,
          `the pooled server "${this.name}" exited while handling ${method}; it may have run, so it is not sent again${this.stderrTail ? ` (its stderr: ${this.stderrTail.trim().split("\n").slice(-3).join(" | ")})` : ""}`,
        );
      }
      throw error;
    } finally {
      this.lastUsed = Date.now();
      if (capped) this.#release();
    }
  }

  /** Sends a notification upstream (a dedicated host's own, or the pool's). */
  notify(method: string, params?: Record<string, unknown>): void {
    if (this.state === "ready") this.#transport?.notify(method, params).catch(() => {});
  }

  #slot(signal: AbortSignal, host: PoolHost): Promise<void> {
    if (this.#active < this.maxConcurrentCalls) {
      this.#active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const take = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.#active += 1;
        resolve();
      };
      const onAbort = (): void => {
        const line = this.#queue.get(host);
        const at = line?.indexOf(take) ?? -1;
        if (at >= 0) {
          line!.splice(at, 1);
          this.#waiting -= 1;
          if (line!.length === 0) this.#queue.delete(host);
        }
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const line = this.#queue.get(host);
      if (line) line.push(take);
      else this.#queue.set(host, [take]);
      this.#waiting += 1;
    });
  }

  /** A slot is free: the first waiting host takes it, and goes to the back of the turn if it has more waiting. */
  #release(): void {
    this.#active -= 1;
    const next = this.#queue.entries().next();
    if (next.done) return;
    const [host, line] = next.value;
    this.#queue.delete(host);
    const take = line.shift()!;
    if (line.length > 0) this.#queue.set(host, line);
    this.#waiting -= 1;
    take();
  }

  /** A server→client request: the dedicated host answers it; a shared upstream declared no such capability. */
  #question(method: string, params: unknown, context: RequestContext): Promise<unknown> {
    if (method === "ping") return Promise.resolve({});
    const [host] = this.hosts;
    if (this.sharing === "dedicated" && host !== undefined) return host.ask(method, params, context.signal);
    return Promise.reject(
      new RpcError(
        -32601,
        `Method not found: ${method} (this server is shared by several host sessions through the mcp pool, which declared no client capability that asks it)`,
      ),
    );
  }

  /** The server said its tools changed: the list remembered for later hosts is read again (or forgotten). */
  async #relist(): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined || this.state !== "ready" || this.events.listed === undefined) return;
    try {
      const live = await transport.request<Record<string, unknown>>("tools/list", {});
      if (isWholeList(live)) return this.events.listed(this, live);
    } catch {
      // fall through: forgotten
    }
    this.events.toolsChanged?.(this);
  }

  /** Routes a server notification (see the README's routing rules). */
  #notification(method: string, params: unknown): void {
    const p = (params ?? {}) as Record<string, unknown>;
    // Progress and cancellation the transport did not match name the pool's own tokens and ids (a
    // call already answered, a question already done): meaningless to a host, and about someone's call.
    if (method === "notifications/progress" || method === "notifications/cancelled") return;
    if (method === "notifications/tools/list_changed") void this.#relist();
    if (/^notifications\/\w+\/list_changed$/.test(method)) {
      for (const host of this.hosts) host.deliver(method, params);
      return;
    }
    if (method === "notifications/resources/updated" && typeof p["uri"] === "string") {
      for (const host of this.subscriptions.get(p["uri"]) ?? []) host.deliver(method, params);
      return;
    }
    if (method === "notifications/tasks/status" && typeof p["taskId"] === "string") {
      const owner = this.sharing === "dedicated" ? [...this.hosts][0] : this.taskOwners.get(p["taskId"]);
      owner?.deliver(method, params);
      return;
    }
    for (const host of this.#tiedHosts())
      host.deliver(method, params, method === "notifications/message" ? p["level"] : undefined);
  }

  /**
   * Who a notification that stdio ties to nothing goes to: the dedicated host; else the one host
   * session with requests in flight; nobody when several have (it cannot be told whose it is);
   * every host when none has (it is about the server, not about a call).
   */
  #tiedHosts(): PoolHost[] {
    const hosts = [...this.hosts];
    if (this.sharing === "dedicated") return hosts;
    const busy = hosts.filter((host) => host.inFlight > 0);
    return busy.length === 0 ? hosts : busy.length === 1 ? busy : [];
  }

  #closed(transport: StdioTransport): void {
    if (transport !== this.#transport || this.#closing || this.state === "closed") return;
    const restarting =
      this.hosts.size > 0 && this.restarts === 0 && this.opening !== undefined && this.era !== undefined;
    this.events.crashed(this, restarting);
    if (!restarting) {
      this.state = "failed";
      this.#transport = undefined;
      for (const host of [...this.hosts])
        host.end(
          `the pooled server "${this.name}" exited${this.restarts > 0 ? " again after its restart" : ""}${this.#tailOf(transport) ? `: ${this.#tailOf(transport).trim().split("\n").slice(-3).join(" | ")}` : ""}`,
        );
      return;
    }
    this.restarts += 1;
    this.state = "starting";
    this.#ready = this.#start().then(() => this.#resubscribe());
    this.#ready.catch((error: unknown) => {
      this.state = "failed";
      for (const host of [...this.hosts])
        host.end(`the pooled server "${this.name}" did not restart: ${(error as Error).message}`);
    });
  }

  /** After a restart: the subscriptions hosts hold are made again. */
  async #resubscribe(): Promise<void> {
    for (const uri of this.subscriptions.keys())
      await this.#transport?.request("resources/subscribe", { uri }).catch(() => {});
  }

  /** Ends the process (idle, killed, or the pool closing). */
  async close(): Promise<void> {
    this.state = "closed";
    this.#closing = true;
    const transport = this.#transport;
    this.#transport = undefined;
    await transport?.close();
  }

  /** This upstream as `mcp ps` shows it. */
  status(now = Date.now()): UpstreamStatus {
    return {
      name: this.name,
      fingerprint: this.fingerprint,
      source: this.source,
      sharing: this.sharing,
      era: this.era,
      state: this.state,
      pid: this.pid,
      rssBytes: this.pid === undefined ? undefined : rssOf(this.pid),
      cpuSeconds: this.pid === undefined ? undefined : cpuSecondsOf(this.pid),
      calls: this.calls,
      inFlight: this.#active,
      queued: this.#waiting,
      restarts: this.restarts,
      idleMs: [...this.hosts].some((host) => host.inFlight > 0) ? 0 : now - this.lastUsed,
      hosts: [...this.hosts].map((host) => host.status()),
    };
  }
}
