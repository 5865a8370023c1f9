// Each user's own consent upstream: for an HTTP upstream with an authorization server of its own
// (`credentials: { mode: "consent" }`), a caller with no token for it is answered with a URL-mode
// elicitation (-32042, MCP 2025-11-25) sending the user to the gateway's connect route (connect.ts:
// the browser's user signs in at the callers' issuer, and only the caller the link was made for goes
// on) and from there to that server's authorization page (authorization code + PKCE, started by the
// gateway); the gateway's callback route takes the code (with the flow's cookie),
// trades it, and keeps the tokens per user and server, encrypted (AES-256-GCM), in a store that
// replicas may share. The state of a flow is bound to the caller who started it, used once, and
// expires; no user's upstream token is ever another's, and none is logged.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpAuthProvider, MCPServerConfig } from "@mcp/client";
import { createPkce, createState, type AuthorizationServerMetadata } from "@mcp/oauth";
import { ProtocolError } from "@modelcontextprotocol/server";
import type { AskingRequest } from "./lanes.js";
import { bindingOf, ConsentConnect, type Linked, type Sealer } from "./connect.js";
import { sealerOf, type ConsentCredentials, type ConsentOptions } from "./consent-config.js";
import {
  authorizationServerOf,
  register,
  secure,
  tokenRequest,
  untilOf,
  type Pending,
  type Tokens,
} from "./consent-oauth.js";
import { MAX_FLOWS_PER_CALLER, MemoryConsentStore, saveFlow, type ConsentStore } from "./consent-store.js";

export { MemoryConsentStore, type ConsentStore, type MemoryConsentStoreOptions } from "./consent-store.js";
export { checkConsent, type ConsentCredentials, type ConsentOptions } from "./consent-config.js";

/** The error code of a request that needs the user to visit a URL first (MCP 2025-11-25, `URLElicitationRequiredError`). */
const URL_ELICITATION_REQUIRED = -32042;
/** How long a started consent may be completed (ms). */
const STATE_TTL_MS = 10 * 60_000;
/** How long a 2026-07-28 call the user accepted waits for the consent to complete (ms), and how often it looks in the store (another replica's callback). */
const CONSENT_WAIT_MS = 5 * 60_000;
const POLL_MS = 1000;
/** How long tokens without a refresh token are kept past their expiry, and tokens with one at most (ms). */
const TOKEN_TTL_MS = 30 * 24 * 3600_000;

/**
 * Users' consent at upstreams' own authorization servers: which servers take it, each user's
 * tokens (in the store), the flows under way, and the callback route.
 */
export class UpstreamConsent {
  readonly #servers = new Map<string, ConsentCredentials>();
  readonly #sealer: Sealer;
  readonly #store: ConsentStore;
  readonly #redirectUri: string;
  /** The callback route's path. */
  readonly path: string;
  /** The connect route: the consent links' first stop. */
  readonly connection: ConsentConnect;
  readonly #clients = new Map<string, Promise<{ clientId: string; clientSecret?: string | undefined }>>();
  readonly #refreshing = new Map<string, Promise<Tokens | undefined>>();
  /** Calls waiting for a user's consent to complete (2026-07-28 callers), per token key. */
  readonly #waiting = new Map<string, Set<() => void>>();
  /** 2025-era callers sent a link, per token key: its elicitation id → how to tell them it completed, and until when. */
  readonly #elicited = new Map<string, Map<string, { completed: (id: string) => void; until: number }>>();

  constructor(
    credentials: Readonly<Record<string, { mode: string }>>,
    key: Buffer,
    options: ConsentOptions,
    callers: { issuer: string; idClaim?: string | undefined },
  ) {
    for (const [server, given] of Object.entries(credentials))
      if (given.mode === "consent") this.#servers.set(server, given as ConsentCredentials);
    this.#store = options.store ?? new MemoryConsentStore();
    this.#redirectUri = options.redirectUri;
    this.path = new URL(options.redirectUri).pathname;
    const sealer = (this.#sealer = sealerOf(key));
    this.connection = new ConsentConnect({
      issuer: callers.issuer,
      idClaim: callers.idClaim ?? "sub",
      signIn: options.signIn,
      redirectUri: options.redirectUri,
      store: this.#store,
      sealer,
    });
  }

  has(server: string): boolean {
    return this.#servers.has(server);
  }

  /** The store key of a user's tokens for a server (the caller id is the user's, never a name another could share). */
  static #tokenKey(server: string, caller: string): string {
    return `consent-token:${server}\n${caller}`;
  }

  /** `caller`'s usable tokens for `server` (refreshed now when expired and refreshable), else undefined. */
  async tokens(server: string, caller: string): Promise<Tokens | undefined> {
    const key = UpstreamConsent.#tokenKey(server, caller);
    const kept = this.#sealer.open<Tokens>(await this.#store.get(key));
    if (!kept) return undefined;
    if (kept.until === undefined || kept.until > Date.now()) return kept;
    if (!kept.refresh) return undefined;
    let pending = this.#refreshing.get(key);
    if (!pending) {
      pending = this.#refresh(key, kept).finally(() => this.#refreshing.delete(key));
      this.#refreshing.set(key, pending);
    }
    return pending;
  }

  async #refresh(key: string, kept: Tokens): Promise<Tokens | undefined> {
    const body = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: kept.refresh!,
      resource: kept.resource,
    });
    const answer = await tokenRequest(kept.tokenEndpoint, kept.clientId, kept.clientSecret, body).catch(
      () => undefined,
    );
    if (!answer) {
      await this.#store.delete(key);
      return undefined;
    }
    const tokens: Tokens = {
      ...kept,
      access: answer.access_token,
      refresh: answer.refresh_token ?? kept.refresh,
      until: untilOf(answer.expires_in),
    };
    await this.#store.set(key, this.#sealer.seal(tokens), TOKEN_TTL_MS);
    return tokens;
  }

  /**
   * Throws the URL elicitation a caller without usable tokens for `server` is answered with, after
   * starting its consent (a new state each time: only the latest link the user follows matters).
   */
  async ready(server: string, caller: string, shared: MCPServerConfig, request?: AskingRequest): Promise<void> {
    if (await this.tokens(server, caller)) return;
    const { url, id } = await this.connection.link(
      await this.#start(server, caller, shared.type === "http" || shared.type === "sse" ? shared.url : undefined),
    );
    const elicitation = {
      mode: "url",
      elicitationId: id,
      url,
      message: `Authorize the gateway to use "${server}" on your behalf`,
    };
    // 2025-11-25: the request fails with URLElicitationRequiredError, and the caller retries once the user is done (told so when it can be).
    if (request?.completed) this.#remember(UpstreamConsent.#tokenKey(server, caller), id, request.completed);
    if (!request || request.legacy)
      throw new ProtocolError(
        URL_ELICITATION_REQUIRED,
        `Server "${server}" needs your own authorization: open the link, sign in there, then call again`,
        { elicitations: [elicitation] },
      );
    // 2026-07-28 has no -32042: the caller is asked (an input_required round), and the call goes on once the callback has the tokens.
    const urlMode = (request.capabilities?.["elicitation"] as { url?: unknown } | undefined)?.url;
    if (urlMode === undefined || urlMode === null)
      throw new ProtocolError(
        -32603,
        `Server "${server}" needs your own authorization, and this client cannot be sent a link (it declared no URL elicitation): open ${url} , sign in there, then call again`,
        { elicitations: [elicitation] },
      );
    const answer = (await request.asker.ask("elicitation/create", elicitation, request.signal)) as
      { action?: unknown } | undefined;
    if (answer?.action !== "accept")
      throw new ProtocolError(
        -32603,
        `The user did not authorize the gateway to use "${server}" (${String(answer?.action)})`,
      );
    await this.#completed(server, caller, request.signal);
  }

  /** Keeps how to tell a caller that elicitation `id` completed: the latest MAX_FLOWS_PER_CALLER per caller and server, 10,000 callers and servers at most, for as long as a flow lives. */
  #remember(key: string, id: string, completed: (id: string) => void): void {
    const now = Date.now();
    const ids = this.#elicited.get(key) ?? new Map<string, { completed: (id: string) => void; until: number }>();
    this.#elicited.delete(key);
    if (this.#elicited.size >= 10_000) this.#elicited.delete(this.#elicited.keys().next().value!);
    this.#elicited.set(key, ids);
    for (const [old, entry] of ids) if (entry.until <= now || ids.size >= MAX_FLOWS_PER_CALLER) ids.delete(old);
    ids.set(id, { completed, until: now + 3 * STATE_TTL_MS });
  }

  /** Resolves once `caller`'s consent for `server` is complete: told by this replica's callback, else seen in the store (another replica's), within CONSENT_WAIT_MS. */
  async #completed(server: string, caller: string, signal: AbortSignal): Promise<void> {
    const key = UpstreamConsent.#tokenKey(server, caller);
    const deadline = Date.now() + CONSENT_WAIT_MS;
    while (Date.now() < deadline) {
      signal.throwIfAborted();
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const waiting = this.#waiting.get(key) ?? this.#waiting.set(key, new Set()).get(key)!;
      waiting.add(wake);
      const timer = setTimeout(wake, POLL_MS);
      const abort = (): void => wake();
      signal.addEventListener("abort", abort, { once: true });
      try {
        if (await this.tokens(server, caller)) return;
        await woken;
      } finally {
        clearTimeout(timer);
        signal.removeEventListener("abort", abort);
        waiting.delete(wake);
        if (waiting.size === 0) this.#waiting.delete(key);
      }
    }
    throw new ProtocolError(-32603, `The authorization for "${server}" did not complete in time: call again`);
  }

  /** A new authorization request at `server`'s authorization server, kept by the link until its user is verified. */
  async #start(server: string, caller: string, upstream: string | undefined): Promise<Linked> {
    const settings = this.#servers.get(server)!;
    if (upstream === undefined)
      throw new Error(`server "${server}" is not reached over HTTP: it cannot take each user's consent`);
    const { issuer, metadata, resource } = await authorizationServerOf(settings, upstream);
    if (!metadata.authorization_endpoint || !metadata.token_endpoint)
      throw new Error(`the authorization server of "${server}" (${issuer}) names no authorization or token endpoint`);
    // Users' browsers are sent to the one, codes (and the client's secret) to the other: https only, or loopback http.
    for (const endpoint of [metadata.authorization_endpoint, metadata.token_endpoint])
      if (!secure(endpoint))
        throw new Error(
          `the authorization server of "${server}" names an endpoint that is not https (nor loopback http): each must be https`,
        );
    const client = await this.#client(server, settings, metadata);
    const pkce = await createPkce();
    const state = createState();
    const pending: Pending = {
      caller,
      server,
      verifier: pkce.verifier,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      tokenEndpoint: metadata.token_endpoint,
      resource,
      issuer,
    };
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.clientId);
    url.searchParams.set("redirect_uri", this.#redirectUri);
    url.searchParams.set("code_challenge", pkce.challenge);
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    url.searchParams.set("resource", resource);
    if (settings.scope) url.searchParams.set("scope", settings.scope);
    // OpenID Connect issues a refresh token for offline_access only with prompt=consent.
    if (settings.scope?.split(" ").includes("offline_access")) url.searchParams.set("prompt", "consent");
    return { caller, server, state, pending: pending as unknown as Record<string, unknown>, url: url.href };
  }

  /** The gateway's client at `server`'s authorization server: the configured one, else one registered once (RFC 7591). */
  #client(
    server: string,
    settings: ConsentCredentials,
    metadata: AuthorizationServerMetadata,
  ): Promise<{ clientId: string; clientSecret?: string | undefined }> {
    if (settings.clientId) return Promise.resolve({ clientId: settings.clientId, clientSecret: settings.clientSecret });
    let client = this.#clients.get(server);
    if (!client) {
      client = register(server, metadata, this.#redirectUri);
      client.catch(() => this.#clients.delete(server));
      this.#clients.set(server, client);
    }
    return client;
  }

  /** The callback route: trades the code of a state this gateway started, for the caller who started it. */
  async callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (status: number, text: string): void => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(text);
    };
    if (req.method !== "GET") return answer(405, "Method not allowed\n");
    const query = new URL(req.url ?? "/", "http://gateway").searchParams;
    // A state this gateway made is 32 characters: anything much longer is not looked up.
    const state = (query.get("state") ?? "").length <= 128 ? query.get("state") : null;
    // A sign-in at the callers' issuer started by the connect route comes back here too.
    if (
      state &&
      (await this.connection.login(req, res, state, query, (linked, binding) =>
        saveFlow(
          this.#store,
          `consent-state:${linked.state}`,
          this.#sealer.seal({ ...linked.pending, binding }),
          STATE_TTL_MS,
          linked.caller,
        ),
      ))
    )
      return;
    const stateKey = `consent-state:${state}`;
    // Single use: the state is forgotten before anything else, whatever follows.
    const pending = state ? this.#sealer.open<Pending>(await this.#store.get(stateKey)) : undefined;
    if (state) await this.#store.delete(stateKey);
    if (!pending)
      return answer(400, "Unknown, expired or already used authorization state: start again from your MCP client.\n");
    // Only the browser whose user was verified at the connect route completes the flow.
    if (!pending.binding || bindingOf(req, state!) !== pending.binding)
      return answer(
        400,
        "This authorization was not started in this browser: open the link from your MCP client again.\n",
      );
    const code = query.get("code");
    if (!code)
      return answer(
        400,
        `The authorization server did not authorize: ${(query.get("error") ?? "no code").slice(0, 100)}. Start again from your MCP client.\n`,
      );
    const iss = query.get("iss");
    if (iss !== null && iss !== pending.issuer)
      return answer(400, "The authorization response came from another issuer than the one asked.\n");
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: this.#redirectUri,
      code_verifier: pending.verifier,
      resource: pending.resource,
    });
    const tokens = await tokenRequest(pending.tokenEndpoint, pending.clientId, pending.clientSecret, body).catch(
      (error: Error) => error,
    );
    if (tokens instanceof Error)
      return answer(
        502,
        `The authorization server refused the code (${tokens.message.slice(0, 200)}). Start again from your MCP client.\n`,
      );
    const kept: Tokens = {
      access: tokens.access_token,
      refresh: tokens.refresh_token,
      until: untilOf(tokens.expires_in),
      clientId: pending.clientId,
      clientSecret: pending.clientSecret,
      tokenEndpoint: pending.tokenEndpoint,
      resource: pending.resource,
    };
    const key = UpstreamConsent.#tokenKey(pending.server, pending.caller);
    await this.#store.set(key, this.#sealer.seal(kept), TOKEN_TTL_MS);
    for (const wake of this.#waiting.get(key) ?? []) wake();
    // notifications/elicitation/complete to each connection of this caller sent a link for this server (still open or not: a closed one drops it).
    const elicited = this.#elicited.get(key);
    this.#elicited.delete(key);
    for (const [id, { completed, until }] of elicited ?? []) if (until > Date.now()) completed(id);
    res.setHeader("set-cookie", this.connection.clear(state!));
    answer(
      200,
      `Authorized: the gateway now reaches "${pending.server}" as you. Return to your MCP client and call again.\n`,
    );
  }

  /** The config of `caller`'s own connection to `server`: its own token instead of the shared credentials. */
  config(server: string, shared: MCPServerConfig, caller: string): MCPServerConfig {
    if (shared.type !== "http" && shared.type !== "sse")
      throw new Error(`server "${server}" is not reached over HTTP: it cannot take each user's consent`);
    const headers = Object.fromEntries(
      Object.entries(shared.headers ?? {}).filter(
        ([name]) => !["authorization", "proxy-authorization", "cookie", "dpop"].includes(name.toLowerCase()),
      ),
    );
    const provider: HttpAuthProvider = {
      headers: async () => {
        const tokens = await this.tokens(server, caller);
        if (!tokens)
          throw new Error(`server "${server}": the user's authorization ended; call again to authorize anew`);
        return { authorization: `Bearer ${tokens.access}` };
      },
      // Refused: the user's tokens are dropped (only those the request carried, not newer ones), and the next call asks for consent again.
      onUnauthorized: async ({ sent }) => {
        const key = UpstreamConsent.#tokenKey(server, caller);
        if (
          this.#sealer.open<Tokens>(await this.#store.get(key))?.access ===
          /^Bearer (.+)$/.exec(sent?.["authorization"] ?? "")?.[1]
        )
          await this.#store.delete(key);
        return false;
      },
    };
    return { ...shared, headers, authProvider: provider };
  }
}
