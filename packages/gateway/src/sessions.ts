// 2025-era callers of the HTTP gateway: one session each (an SDK server instance and its
// transport), so the gateway can send them sampling, elicitation and list changes. With a shared
// store (Redis), a session opened on one replica is served by any other: the replica that gets a
// request for a session it does not hold opens it again from what was saved at `initialize`.
// Sessions are bounded: idle ones are closed, a caller holds at most so many on a replica, and a
// request that opens none leaves nothing behind.

import { randomUUID } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Gateway } from "./gateway.js";
import { initializeIn } from "./http-wire.js";
import { createInstance } from "./instance.js";
import type { Caller } from "./policy.js";
import { cancelFast, SessionTransport, type FastSession } from "./session-fast.js";
import type { View } from "./views.js";

/** What an endpoint serves: every server, one, or a view, and its path (for the audit log). */
export interface Target {
  server: string | undefined;
  view?: View | undefined;
  endpoint: string;
}

/** What is kept of a session for other replicas. */
export interface SessionRecord {
  /** The id of the caller that opened it ({@link Caller.id}, never its token or name). */
  caller: string;
  path: string;
  /** The caller's `initialize` params, replayed to open the session elsewhere. */
  initialize: Record<string, unknown>;
}

/**
 * Where session records live, for other replicas: a keyed store of values that expire
 * (`RedisKeyValue` of `@mcp/store-redis` is one). What it returns is checked: anything that is
 * not a session record counts as none.
 */
export interface SessionStore {
  get(key: string): Promise<unknown>;
  /** Saves `value`; it expires `ttlMs` after the last `set` (or `touch`). */
  set(key: string, value: SessionRecord, ttlMs: number): Promise<void>;
  touch(key: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Saves `value` as `set` does, as a member of `group` (a caller's sessions), which holds at most
   * `cap` values for every replica: past it the oldest are deleted, atomically with the save, and
   * their keys returned. With it, a caller's sessions are capped across replicas, not only on each.
   */
  setCapped?(key: string, value: SessionRecord, ttlMs: number, group: string, cap: number): Promise<string[]>;
}

/** The largest `initialize` params a 2025 session is opened with (they are saved for other replicas); larger is refused. */
export const MAX_INITIALIZE_BYTES = 64 * 1024;

/** A session left unused this long is forgotten by the store. */
export const SESSION_TTL_MS = 60 * 60_000;

/** Limits of one replica's sessions. */
export interface SessionLimits {
  /** A session with nothing in flight this long is closed (here, and in the store). Default 30 minutes. */
  idleMs?: number | undefined;
  /** Sessions one caller may hold on a replica; opening one more closes its least recently used idle one. Default 32. */
  perCaller?: number | undefined;
}

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSIONS_PER_CALLER = 32;

/** Whether a value read from the store is a session record (anything else counts as none). */
export function isSessionRecord(value: unknown): value is SessionRecord {
  if (typeof value !== "object" || value === null) return false;
  const { caller, path, initialize } = value as Record<string, unknown>;
  return (
    typeof caller === "string" &&
    typeof path === "string" &&
    typeof initialize === "object" &&
    initialize !== null &&
    !Array.isArray(initialize)
  );
}

interface Held extends FastSession {
  caller: Caller;
  path: string;
  touched: number;
  /** Requests (POST, DELETE) of the session being served now. */
  busy: number;
  /** Its GET streams open now (a caller listening for what the servers send). */
  listening: number;
}

/** The answers of the sessions' own refusals (no session, another caller's, full, …), for the audit log. */
export const refusals = new WeakSet<Response>();

function plain(status: number, message: string): Response {
  const response = new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }), {
    status,
    headers: { "content-type": "application/json" },
  });
  refusals.add(response);
  return response;
}

/** The 2025-era sessions of one gateway replica. */
export class LegacySessions {
  readonly #held = new Map<string, Held>();
  /** Sessions being opened again here: two requests for one session open it once. */
  readonly #reopening = new Map<string, Promise<Held | "foreign" | "full" | undefined>>();
  /** Records being saved now: a session forgotten meanwhile is deleted from the store after its save, not before. */
  readonly #saving = new Map<string, Promise<void>>();
  /** Per caller id: sessions being opened now (they count against the cap before they exist). */
  readonly #opening = new Map<string, number>();
  readonly #gateway: Gateway;
  readonly #store: SessionStore | undefined;
  readonly #idleMs: number;
  readonly #perCaller: number;
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(gateway: Gateway, store: SessionStore | undefined, limits: SessionLimits = {}) {
    this.#gateway = gateway;
    this.#store = store;
    this.#idleMs = limits.idleMs ?? SESSION_IDLE_MS;
    this.#perCaller = limits.perCaller ?? SESSIONS_PER_CALLER;
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(60_000, this.#idleMs / 4)));
    this.#sweeper.unref();
  }

  /** How many sessions this replica holds. */
  get size(): number {
    return this.#held.size;
  }

  /** How many requests of session `id` are being served now (what keeps it from being closed as idle), or undefined. */
  busyOf(id: string): number | undefined {
    return this.#held.get(id)?.busy;
  }

  /** A session's transport and its server instance, to connect (the instance is closed with the transport). */
  #open(scope: Target, caller: Caller, path: string, id: () => string) {
    const instance = createInstance(this.#gateway, { ...scope, caller, era: "legacy" }, true);
    // It knows the requests the fast path serves (session-fast.ts): what the server sends about them goes on their streams.
    const transport: SessionTransport = new SessionTransport({
      sessionIdGenerator: id,
      onsessioninitialized: (sessionId) =>
        void this.#held.set(sessionId, {
          transport,
          instance,
          sessionId,
          calls: transport.calls,
          caller,
          path,
          touched: Date.now(),
          busy: 0,
          listening: 0,
        }),
      onsessionclosed: (sessionId) => {
        this.#held.delete(sessionId);
        this.#delete(sessionId);
      },
    });
    transport.onclose = () => {
      // Requests served by the fast path end with the session, as the transport ends its own streams.
      for (const call of [...transport.calls.values()]) call.close();
      if (transport.sessionId && this.#held.get(transport.sessionId)?.transport === transport)
        this.#held.delete(transport.sessionId);
    };
    return { transport, instance };
  }

  /**
   * Serves one 2025-era request for `caller` on the endpoint `path`. `counted`: the request is in
   * use of its session already (`fastSession` took it, then the fast path declined it), so it is not
   * counted again.
   */
  async handle(
    request: Request,
    path: string,
    scope: Target,
    caller: Caller,
    authInfo: AuthInfo,
    parsed?: unknown,
    counted = false,
  ): Promise<Response> {
    const given = parsed === undefined ? { authInfo } : { authInfo, parsedBody: parsed };
    const id = request.headers.get("mcp-session-id");
    if (id) {
      let held: Held | "foreign" | "full" | undefined = this.#held.get(id);
      if (!held) {
        let reopening = this.#reopening.get(id);
        if (!reopening) {
          reopening = this.#reopen(id, path, scope, caller, authInfo).finally(() => this.#reopening.delete(id));
          this.#reopening.set(id, reopening);
        }
        held = await reopening;
      }
      if (!held) return plain(404, "Session not found");
      if (held === "full") return this.#full(caller);
      if (held === "foreign" || held.caller.id !== caller.id || held.path !== path)
        return plain(403, "This session belongs to another caller or endpoint");
      if (!counted) this.#use(id, held, request.method === "GET" ? "listening" : "busy", request.signal);
      // A cancellation of a request the fast path serves: aborted there (the SDK's own requests by the SDK).
      cancelFast(held.calls, parsed);
      return held.transport.handleRequest(request, given);
    }
    // Only an initialize (alone, or in a batch) opens a session; anything else is refused before anything is made.
    const opening = request.method === "POST" ? initializeIn(parsed) : undefined;
    if (!opening) return plain(400, "Bad Request: no session (send initialize first)");
    // Bytes, as they are stored (UTF-8), not characters: a character may take three.
    if (Buffer.byteLength(JSON.stringify(opening.params)) > MAX_INITIALIZE_BYTES)
      return plain(400, `Bad Request: initialize params larger than ${MAX_INITIALIZE_BYTES} bytes`);
    if (!this.#makeRoom(caller)) return this.#full(caller);
    this.#opening.set(caller.id, (this.#opening.get(caller.id) ?? 0) + 1);
    const { transport, instance } = this.#open(scope, caller, path, () => randomUUID());
    let response: Response | undefined;
    try {
      await instance.connect(transport);
      response = await transport.handleRequest(request, given);
    } finally {
      const left = (this.#opening.get(caller.id) ?? 1) - 1;
      if (left > 0) this.#opening.set(caller.id, left);
      else this.#opening.delete(caller.id);
      if (!response || !transport.sessionId || !this.#held.has(transport.sessionId)) {
        // Refused (not an initialize, or a bad one) or failed: nothing of it may stay.
        this.#gateway.untrack(instance);
        await transport.close().catch(() => {});
      }
    }
    if (!transport.sessionId || !this.#held.has(transport.sessionId)) return response;
    if (this.#store) {
      // Off the caller's path: the answer does not wait for Redis (another replica may miss the session for that moment).
      const record: SessionRecord = { caller: caller.id, path, initialize: opening.params };
      this.#save(transport.sessionId, record, caller);
    }
    return response;
  }

  /** A session's request in use until `signal` aborts (its answer or stream ended); the session touched. */
  #use(id: string, session: Held, counter: "busy" | "listening", signal: AbortSignal): void {
    const now = Date.now();
    if (this.#store && now - session.touched > 60_000) void this.#store.touch(id, SESSION_TTL_MS).catch(() => {});
    session.touched = now;
    session[counter]++;
    const done = (): void => {
      session[counter]--;
      session.touched = Date.now();
    };
    if (signal.aborted) done();
    else signal.addEventListener("abort", done, { once: true });
  }

  /**
   * The session `id` for the fast path (session-fast.ts), in use until `signal` aborts: when this
   * replica holds it, for this caller on this endpoint. Else undefined: the SDK's path serves the
   * request (and answers its refusals). A request the fast path then declines goes to `handle` as
   * `counted`: one request, in use once.
   */
  fastSession(id: string, caller: Caller, path: string, signal: AbortSignal): FastSession | undefined {
    const held = this.#held.get(id);
    if (!held || held.caller.id !== caller.id || held.path !== path) return undefined;
    this.#use(id, held, "busy", signal);
    return held;
  }

  /**
   * Saves a session's record; with a store that caps groups, in its caller's group, so the caller's
   * sessions are capped across replicas: those the store evicted are closed here too.
   */
  #save(sessionId: string, record: SessionRecord, caller: Caller): void {
    const store = this.#store!;
    const saved = store.setCapped
      ? store.setCapped(sessionId, record, SESSION_TTL_MS, caller.id, this.#perCaller)
      : store.set(sessionId, record, SESSION_TTL_MS).then(() => []);
    const saving = saved
      .then((evicted) => {
        for (const id of evicted) {
          const held = this.#held.get(id);
          if (held) this.#forget(id, held);
        }
      })
      .catch((error: unknown) => this.#gateway.warn(`saving session: ${(error as Error).message}`))
      .finally(() => this.#saving.get(sessionId) === saving && this.#saving.delete(sessionId));
    this.#saving.set(sessionId, saving);
  }

  /** Opens on this replica a session another one began: its `initialize` is replayed under the same id. */
  async #reopen(
    id: string,
    path: string,
    scope: Target,
    caller: Caller,
    authInfo: AuthInfo,
  ): Promise<Held | "foreign" | "full" | undefined> {
    const record: unknown = await this.#store?.get(id).catch(() => undefined);
    if (!isSessionRecord(record)) return undefined;
    if (record.caller !== caller.id || record.path !== path) return "foreign";
    // Opened here, it counts against the caller's sessions here like any other.
    if (!this.#makeRoom(caller)) return "full";
    const { transport, instance } = this.#open(scope, caller, path, () => id);
    await instance.connect(transport);
    const url = `http://gateway${path}`;
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const opened = await transport.handleRequest(
      new Request(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: `reopen-${id}`, method: "initialize", params: record.initialize }),
      }),
      { authInfo },
    );
    const answer = await opened.text();
    if (!this.#held.has(id)) {
      // The saved initialize no longer opens a session: as good as no record.
      this.#gateway.untrack(instance);
      await transport.close().catch(() => {});
      return undefined;
    }
    const asked = record.initialize["protocolVersion"];
    const version = /"protocolVersion":"([^"]+)"/.exec(answer)?.[1] ?? (typeof asked === "string" ? asked : "");
    await (
      await transport.handleRequest(
        new Request(url, {
          method: "POST",
          headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": version },
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        }),
        { authInfo },
      )
    ).text();
    return this.#held.get(id);
  }

  /**
   * Before `caller` opens another session: at the cap, its least recently used one with no request
   * in flight is closed, listening or not (its caller gets 404 and opens a new one). False when
   * every one of them is serving a request.
   */
  #makeRoom(caller: Caller): boolean {
    let count = this.#opening.get(caller.id) ?? 0;
    let oldest: [string, Held] | undefined;
    for (const entry of this.#held) {
      if (entry[1].caller.id !== caller.id) continue;
      count++;
      if (entry[1].busy === 0 && (oldest === undefined || entry[1].touched < oldest[1].touched)) oldest = entry;
    }
    if (count < this.#perCaller) return true;
    if (oldest === undefined) return false;
    this.#forget(oldest[0], oldest[1]);
    return true;
  }

  /** A session closed by the gateway (evicted, or idle): gone here, and from the store, so no replica opens it again. */
  #forget(sessionId: string, held: Held): void {
    this.#held.delete(sessionId);
    void held.transport.close().catch(() => {});
    this.#delete(sessionId);
  }

  /** Deletes a session's record, once a save of it still under way has ended (else the save would bring it back). */
  #delete(sessionId: string): void {
    const store = this.#store;
    if (!store) return;
    const after = this.#saving.get(sessionId) ?? Promise.resolve();
    void after
      .then(() => store.delete(sessionId))
      .catch((error: unknown) => this.#gateway.warn(`forgetting session ${sessionId}: ${(error as Error).message}`));
  }

  #full(caller: Caller): Response {
    return plain(
      429,
      `Caller "${caller.name}" already has ${this.#perCaller} sessions here with requests in flight; close one (DELETE) or wait`,
    );
  }

  /**
   * Closes this replica's sessions idle for longer than the limit: no request and no open stream
   * (a caller that went away without DELETE). Their records go too: no replica opens them again.
   */
  #sweep(): void {
    const before = Date.now() - this.#idleMs;
    for (const [sessionId, held] of this.#held) {
      if (held.busy > 0 || held.listening > 0 || held.touched > before) continue;
      this.#forget(sessionId, held);
    }
  }

  /** Closes every session this replica holds (their records stay for the others). */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#held.values()].map((s) => s.transport.close().catch(() => {})));
    this.#held.clear();
  }
}
