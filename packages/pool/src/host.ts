// One host session attached to the pool: what the host sends (raw JSON-RPC, as it would write to a
// server's stdin) and what it is sent back. Its own `initialize` or `server/discover` is answered
// from the upstream's, ping and log levels and subscriptions are kept per host, everything else is
// forwarded with the upstream's own ids; the answer goes back with the host's id.

import { RpcError, type RequestId } from "@mcp/jsonrpc";
import { Intake } from "./intake.js";
import { subscription } from "./subscription.js";
import type { Era, HostStatus, PoolHost } from "./types.js";
import type { Upstream } from "./upstream.js";

/** What a host session needs from its pool. */
export interface HostBinder {
  bind(host: HostSession, era: Era, params: Record<string, unknown>): Promise<Upstream>;
  detach(host: HostSession): void;
  unbind(host: HostSession): void;
}

/** The levels of `notifications/message`, least severe first. */
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The 2026-07-28 request envelope's protocol version key (`params._meta`). */
const VERSION_META = "io.modelcontextprotocol/protocolVersion";

/** One host's session with a pooled server (see the README: sharing and routing). */
export class HostSession implements PoolHost {
  upstream: Upstream | undefined;
  /** The host's `clientInfo`, from its `initialize`. */
  clientInfo: unknown;
  calls = 0;
  #binding: Promise<Upstream> | undefined;
  #era: Era | undefined;
  readonly #running = new Map<RequestId, AbortController>();
  readonly #asks = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  #nextAsk = 1;
  level: string | undefined;
  readonly subscriptions = new Set<string>();
  /** The tasks this session created on a shared process. */
  readonly tasks = new Set<string>();
  #ended = false;
  /** The host's requests in service and held past the mark (intake.ts). */
  readonly #intake: Intake;
  /** Waiting for its dedicated server to read its stdin again. */
  #awaiting = false;

  constructor(
    readonly id: number,
    readonly fingerprint: string,
    readonly info: Record<string, unknown>,
    readonly send: (message: unknown) => void,
    readonly onEnd: (reason: string) => void,
    readonly pool: HostBinder,
    /** The high-water mark of {@link queuedBytes}: past it, the host's requests are held unstarted. */
    readonly maxQueuedBytes: number = Infinity,
    readonly onDrain: () => void = () => {},
    /** Past this many bytes of requests held, `receive` returns false. */
    readonly maxHeldBytes: number = maxQueuedBytes,
  ) {
    this.#intake = new Intake(
      maxQueuedBytes,
      maxHeldBytes,
      ({ id, method, params, size }) => {
        const done = (): void => this.#intake.done(size);
        void this.#request(id, method, params).then(done, done);
      },
      () => {
        if (!this.#ended) this.onDrain();
      },
      () => this.#blocked(),
    );
  }

  /** Bytes of this host's requests being served: received, started and not answered yet. */
  get queuedBytes(): number {
    return this.#intake.queuedBytes;
  }

  /**
   * Whether the host reads what it is sent (false: its connection's buffer is full). While it does
   * not, its requests are held unstarted (those in service go on); once it does, held ones start.
   */
  hostReads(reads: boolean): void {
    this.#intake.hostReads(reads);
  }

  /** Bytes of this host's requests held unstarted past the mark. */
  get heldBytes(): number {
    return this.#intake.heldBytes;
  }

  /** Host requests now being served. */
  get inFlight(): number {
    return this.#running.size;
  }

  /**
   * A message from the host (a request, a notification, an answer to a server's question, or a
   * batch of them); `bytes`: its size as the host sent it (default: its JSON's length). Past the
   * pool's `maxQueuedBytes` of requests in service, requests are held unstarted (notifications and
   * answers still go through); returns false once more than `maxHeldBytes` is held (or its
   * dedicated server does not read its stdin): stop reading the host until `onDrain` (as a
   * stream's `write` says). A message given anyway is still taken.
   */
  receive(message: unknown, bytes?: number): boolean {
    if (this.#ended) return true;
    if (Array.isArray(message)) {
      // Shared in whole bytes (the first takes the rest): fractions would not add back up to 0.
      const each = bytes === undefined ? undefined : Math.floor(bytes / Math.max(1, message.length));
      message.forEach((one, at) =>
        this.receive(one, each === undefined || at > 0 ? each : bytes! - each * (message.length - 1)),
      );
      return this.#intake.readable();
    }
    if (!isRecord(message)) {
      this.send({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: not a JSON-RPC message object" },
      });
      return this.#intake.readable();
    }
    const { id, method } = message;
    const params = isRecord(message["params"]) ? message["params"] : undefined;
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) {
      if (this.#intake.holds(id)) this.#duplicate(id);
      else this.#intake.take({ id, method, params, size: bytes ?? JSON.stringify(message).length });
      return this.#intake.readable();
    }
    if (typeof method === "string") return (this.#notification(method, params), this.#intake.readable());
    if (typeof id === "number" && this.#asks.has(id)) {
      const ask = this.#asks.get(id)!;
      this.#asks.delete(id);
      const error = message["error"];
      if (isRecord(error))
        ask.reject(
          RpcError.fromError({
            code: typeof error["code"] === "number" ? error["code"] : -32603,
            message: typeof error["message"] === "string" ? error["message"] : "error",
            data: error["data"],
          }),
        );
      else ask.resolve(message["result"]);
    }
    return this.#intake.readable();
  }

  /**
   * A dedicated server that does not read its stdin: the host's notifications and answers for it
   * wait in the host's pipe (not here) until it reads again.
   */
  #blocked(): boolean {
    const upstream = this.upstream;
    if (upstream?.sharing !== "dedicated" || upstream.writable) return false;
    if (!this.#awaiting) {
      this.#awaiting = true;
      void upstream.whenWritable().then(() => ((this.#awaiting = false), this.#intake.resume()));
    }
    return true;
  }

  #duplicate(id: RequestId): void {
    this.send({
      jsonrpc: "2.0",
      id,
      error: { code: -32600, message: `Invalid Request: a request with id ${JSON.stringify(id)} is already in flight` },
    });
  }

  async #request(id: RequestId, method: string, params: Record<string, unknown> | undefined): Promise<void> {
    if (this.#running.has(id)) return this.#duplicate(id);
    const controller = new AbortController();
    this.#running.set(id, controller);
    try {
      const result = await this.#answer(method, params, controller.signal);
      if (!controller.signal.aborted) this.send({ jsonrpc: "2.0", id, result });
    } catch (error) {
      // A request the host cancelled gets no answer (the spec's rule); any other failure does.
      if (controller.signal.aborted) return;
      const rpc = RpcError.isInstance(error) ? error : undefined;
      const code = rpc?.code ?? -32603;
      const data = rpc?.data;
      this.send({
        jsonrpc: "2.0",
        id,
        error: {
          code,
          message: rpc?.rpcMessage ?? (error instanceof Error ? error.message : String(error)),
          ...(data === undefined ? {} : { data }),
        },
      });
    } finally {
      this.#running.delete(id);
    }
  }

  async #answer(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown> {
    if (method === "ping") return {};
    if (method === "initialize") {
      if (this.#binding && this.#era === "2025")
        throw new RpcError(-32600, "Invalid Request: initialize was already sent on this session");
      // A host that gave up on discovery (its probe has a short bound, and the process was still
      // starting) opens with initialize instead: it leaves the 2026-07-28 process.
      if (this.#binding) this.pool.unbind(this);
      this.clientInfo = params?.["clientInfo"];
      const upstream = await this.#bind("2025", params ?? {});
      return upstream.openResult;
    }
    if (method === "server/discover") {
      // After initialize the session is its 2025 process's: a second binding would leave it there for good (never reaped).
      if (this.#binding && this.#era === "2025")
        throw new RpcError(-32600, "Invalid Request: server/discover after initialize on this session");
      return (await this.#bind("2026-07-28", params ?? {})).openResult;
    }
    if (!this.#binding) {
      // A 2026-07-28 host may skip discovery: its requests carry the version in `_meta`.
      const meta = params?.["_meta"];
      if (!(isRecord(meta) && typeof meta[VERSION_META] === "string"))
        throw new RpcError(-32600, `Invalid Request: ${method} before initialize`);
      await this.#bind("2026-07-28", {});
    }
    const upstream = await this.#binding!;
    if (method === "logging/setLevel" && upstream.sharing === "shared") return this.#setLevel(upstream, params);
    if (
      (method === "resources/subscribe" || method === "resources/unsubscribe") &&
      upstream.era === "2025" &&
      typeof params?.["uri"] === "string"
    ) {
      return subscription(this, upstream, method, params["uri"], signal);
    }
    // Answered from the tool cache (start on first use): the whole list needs no process.
    if (
      method === "tools/list" &&
      upstream.state === "cached" &&
      upstream.cachedTools &&
      params?.["cursor"] === undefined
    )
      return { tools: upstream.cachedTools };
    const shared = upstream.sharing === "shared";
    // Tasks (2025-11-25) live in the server's one session: on a shared process each host sees,
    // reads and cancels only the tasks it created.
    const taskId = params?.["taskId"];
    if (
      shared &&
      method.startsWith("tasks/") &&
      method !== "tasks/list" &&
      !(typeof taskId === "string" && upstream.taskOwners.get(taskId) === this)
    ) {
      throw new RpcError(-32602, `Invalid params: no task ${JSON.stringify(taskId)} of this session`);
    }
    const meta = params?.["_meta"];
    const token = isRecord(meta) ? meta["progressToken"] : undefined;
    this.calls += 1;
    const result = await upstream.request(method, params, {
      signal,
      host: this,
      ...(token === undefined
        ? {}
        : {
            onProgress: (progress) =>
              this.send({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: token, ...progress },
              }),
          }),
    });
    if (!shared || !isRecord(result)) return result;
    const task = result["task"];
    if (isRecord(task) && typeof task["taskId"] === "string") {
      upstream.taskOwners.set(task["taskId"], this);
      this.tasks.add(task["taskId"]);
    }
    if (method === "tasks/list" && Array.isArray(result["tasks"])) {
      return {
        ...result,
        tasks: result["tasks"].filter(
          (t: unknown) =>
            isRecord(t) && typeof t["taskId"] === "string" && upstream.taskOwners.get(t["taskId"]) === this,
        ),
      };
    }
    return result;
  }

  #bind(era: Era, params: Record<string, unknown>): Promise<Upstream> {
    const binding = this.pool.bind(this, era, params);
    this.#binding = binding;
    this.#era = era;
    // A failed opening (a 2025 server asked to discover) leaves the session unopened: the host
    // may open it again, e.g. with `initialize`. Waiting requests learn the failure from their own await.
    binding.catch(() => {
      if (this.#binding === binding) this.#binding = undefined;
    });
    return binding.then((upstream) => {
      if (this.#binding === binding) this.upstream = upstream;
      return upstream;
    });
  }

  /** A shared server's log level is the most verbose any host asked; each host gets what it asked. */
  async #setLevel(upstream: Upstream, params: Record<string, unknown> | undefined): Promise<unknown> {
    const level = params?.["level"];
    if (typeof level !== "string" || !LEVELS.includes(level))
      throw new RpcError(-32602, `Invalid params: level must be one of ${LEVELS.join(", ")}`);
    this.level = level;
    const lowest = [...upstream.hosts]
      .map((host) => host.level)
      .filter((l): l is string => l !== undefined)
      .sort((a, b) => LEVELS.indexOf(a) - LEVELS.indexOf(b))[0];
    await upstream.request(
      "logging/setLevel",
      { level: lowest ?? level },
      { signal: AbortSignal.timeout(30_000), host: this },
    );
    return {};
  }

  #notification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === "notifications/cancelled") {
      const id = params?.["requestId"];
      // A held request is dropped unstarted; a running one is aborted (the server is told); nothing is kept.
      if ((typeof id === "string" || typeof id === "number") && !this.#intake.cancel(id))
        this.#running
          .get(id)
          ?.abort(
            new Error(`cancelled by the host${typeof params?.["reason"] === "string" ? `: ${params["reason"]}` : ""}`),
          );
      return;
    }
    // The pool said `initialized` for a shared server itself; a dedicated server hears the rest of its host's.
    if (method === "notifications/initialized") return;
    if (this.upstream?.sharing === "dedicated") this.upstream.notify(method, params);
  }

  /** A server's question for this host (dedicated upstreams only): sent with an id of the pool's. */
  ask(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (this.#ended) return Promise.reject(new RpcError(-32603, "the host session has ended"));
    const id = this.#nextAsk++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.#asks.delete(id)) return;
        this.send({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: "the server cancelled it" },
        });
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#asks.set(id, {
        resolve: (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
        reject: (error) => (signal.removeEventListener("abort", onAbort), reject(error)),
      });
      this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  /** A server notification for this host; a log below the level this host asked is left out. */
  deliver(method: string, params: unknown, level?: unknown): void {
    if (this.#ended) return;
    if (typeof level === "string" && this.level !== undefined && LEVELS.indexOf(level) < LEVELS.indexOf(this.level))
      return;
    this.send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** The pool ends this session (its server failed, or was killed): the host is told why. */
  end(reason: string): void {
    if (this.#ended) return;
    this.close();
    this.onEnd(reason);
  }

  /** The host went away: its requests are cancelled upstream, its questions fail, it is detached. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#intake.end();
    for (const controller of this.#running.values()) controller.abort(new Error("the host went away"));
    for (const ask of this.#asks.values()) ask.reject(new RpcError(-32603, "the host went away"));
    this.#asks.clear();
    this.pool.detach(this);
  }

  /** This session as `mcp ps` lists it. */
  status(): HostStatus {
    return {
      id: this.id,
      info: this.info,
      clientInfo: this.clientInfo,
      calls: this.calls,
      queuedBytes: this.#intake.queuedBytes,
      peakQueuedBytes: this.#intake.peakQueuedBytes,
      heldBytes: this.#intake.heldBytes,
      peakHeldBytes: this.#intake.peakHeldBytes,
    };
  }
}
