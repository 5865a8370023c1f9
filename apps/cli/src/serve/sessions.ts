// 2025-era callers of the HTTP gateway: one session each (an SDK server instance and its
// transport), so the gateway can send them sampling, elicitation and list changes. With a shared
// store (Redis), a session opened on one replica is served by any other: the replica that gets a
// request for a session it does not hold opens it again from what was saved at `initialize`.

import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type AuthInfo } from "@modelcontextprotocol/server";
import type { KeyValueStore } from "@mcp/store-redis";
import type { Gateway } from "./gateway.js";
import { createInstance } from "./instance.js";
import type { Caller } from "./policy.js";

/** What is kept of a session for other replicas. */
export interface SessionRecord {
  caller: string;
  path: string;
  /** The caller's `initialize` params, replayed to open the session elsewhere. */
  initialize: Record<string, unknown>;
}

/** Where session records live (`RedisKeyValue` of `@mcp/store-redis`). */
export type SessionStore = KeyValueStore<SessionRecord>;

/** A session left unused this long is forgotten by the store. */
export const SESSION_TTL_MS = 60 * 60_000;

interface Held {
  transport: WebStandardStreamableHTTPServerTransport;
  caller: Caller;
  path: string;
  touched: number;
}

function plain(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }), { status, headers: { "content-type": "application/json" } });
}

/** The 2025-era sessions of one gateway replica. */
export class LegacySessions {
  readonly #held = new Map<string, Held>();
  /** Sessions being opened again here: two requests for one session open it once. */
  readonly #reopening = new Map<string, Promise<Held | "foreign" | undefined>>();
  readonly #gateway: Gateway;
  readonly #store: SessionStore | undefined;

  constructor(gateway: Gateway, store: SessionStore | undefined) {
    this.#gateway = gateway;
    this.#store = store;
  }

  #open(scope: { server: string | undefined }, caller: Caller, path: string, id: () => string): WebStandardStreamableHTTPServerTransport {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: id,
      onsessioninitialized: (sessionId) => void this.#held.set(sessionId, { transport, caller, path, touched: Date.now() }),
      onsessionclosed: (sessionId) => {
        this.#held.delete(sessionId);
        void this.#store?.delete(sessionId).catch((error: unknown) => this.#gateway.warn(`forgetting session ${sessionId}: ${(error as Error).message}`));
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#held.delete(transport.sessionId);
    };
    return transport;
  }

  /** Serves one 2025-era request for `caller` on the endpoint `path`. */
  async handle(request: Request, path: string, scope: { server: string | undefined }, caller: Caller, authInfo: AuthInfo, parsed?: unknown): Promise<Response> {
    const given = parsed === undefined ? { authInfo } : { authInfo, parsedBody: parsed };
    const id = request.headers.get("mcp-session-id");
    if (id) {
      let held: Held | "foreign" | undefined = this.#held.get(id);
      if (!held) {
        let reopening = this.#reopening.get(id);
        if (!reopening) {
          reopening = this.#reopen(id, path, scope, caller, authInfo).finally(() => this.#reopening.delete(id));
          this.#reopening.set(id, reopening);
        }
        held = await reopening;
      }
      if (!held) return plain(404, "Session not found");
      if (held === "foreign" || held.caller.name !== caller.name || held.path !== path) return plain(403, "This session belongs to another caller or endpoint");
      if (this.#store && Date.now() - held.touched > 60_000) {
        held.touched = Date.now();
        void this.#store.touch(id, SESSION_TTL_MS).catch(() => {});
      }
      return held.transport.handleRequest(request, given);
    }
    if (request.method !== "POST") return plain(400, "Bad Request: no session (send initialize first)");
    const body = parsed as { method?: unknown; params?: unknown } | undefined;
    const transport = this.#open(scope, caller, path, () => randomUUID());
    await createInstance(this.#gateway, { ...scope, caller, era: "legacy" }, true).connect(transport);
    const response = await transport.handleRequest(request, given);
    if (this.#store && transport.sessionId && body?.method === "initialize") {
      await this.#store.set(transport.sessionId, { caller: caller.name, path, initialize: (body.params ?? {}) as Record<string, unknown> }, SESSION_TTL_MS).catch((error: unknown) => this.#gateway.warn(`saving session: ${(error as Error).message}`));
    }
    return response;
  }

  /** Opens on this replica a session another one began: its `initialize` is replayed under the same id. */
  async #reopen(id: string, path: string, scope: { server: string | undefined }, caller: Caller, authInfo: AuthInfo): Promise<Held | "foreign" | undefined> {
    const record = await this.#store?.get(id).catch(() => undefined);
    if (!record) return undefined;
    if (record.caller !== caller.name || record.path !== path) return "foreign";
    const transport = this.#open(scope, caller, path, () => id);
    await createInstance(this.#gateway, { ...scope, caller, era: "legacy" }, true).connect(transport);
    const url = `http://gateway${path}`;
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const opened = await transport.handleRequest(new Request(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: `reopen-${id}`, method: "initialize", params: record.initialize }) }), { authInfo });
    const answer = await opened.text();
    const asked = record.initialize["protocolVersion"];
    const version = /"protocolVersion":"([^"]+)"/.exec(answer)?.[1] ?? (typeof asked === "string" ? asked : "");
    await (await transport.handleRequest(new Request(url, { method: "POST", headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": version }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }), { authInfo })).text();
    return this.#held.get(id);
  }

  /** Closes every session this replica holds (their records stay for the others). */
  async close(): Promise<void> {
    await Promise.all([...this.#held.values()].map((s) => s.transport.close().catch(() => {})));
    this.#held.clear();
  }
}
