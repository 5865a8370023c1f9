// createGateway: a manager's servers as one MCP server, served over HTTP (a node:http request
// handler, mountable under a path of your server, with your authentication) and over stdio.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable, Writable } from "node:stream";
import { InvalidConfigError } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import { serveStdio as sdkServeStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { checkConsent, UpstreamConsent, type ConsentOptions } from "./consent.js";
import { checkCredentials, UpstreamAuth, type UpstreamCredentials } from "./exchange.js";
import { Gateway } from "./gateway.js";
import type { GatewayOptions } from "./gateway-options.js";
import { bindHandlers, type GatewayHandlers } from "./handlers.js";
import { bearerTokens, createHttpHandler, type Authenticate, type HttpHandlerOptions } from "./http.js";
import { createInstance } from "./instance.js";
import { GatewayMetrics } from "./metrics.js";
import { oidcAuthenticate, type OidcAuth, type OidcOptions } from "./oidc.js";
import { withOperations, type OperationsOptions } from "./ops.js";
import type { PerUserAuth } from "./lanes.js";
import { checkSharing, lateSharing } from "./sharing.js";
import { storedSignIns } from "./sign-ins.js";
import type { Caller } from "./policy.js";

/** Options of {@link createGateway}. */
export interface CreateGatewayOptions
  extends Omit<GatewayOptions, "callers" | "upstreamAuth" | "servable">, Omit<HttpHandlerOptions, "authenticate"> {
  /**
   * The handlers the manager was made with ({@link gatewayHandlers}): without them the manager's
   * servers cannot ask the gateway's callers anything (and do not, as the manager does not offer it).
   */
  handlers?: GatewayHandlers | undefined;
  /** Who sends an HTTP request: your authentication. Default: a bearer token of `tokens`. */
  authenticate?: Authenticate | undefined;
  /** Bearer token → caller, for the default `authenticate` (each compared in constant time). */
  tokens?: ReadonlyMap<string, Caller> | undefined;
  /**
   * Every caller there is, when you know them: with exactly one, what an upstream server sends
   * that no call ties is that caller's (see the README). Default: the callers of `tokens`, else
   * unknown (several). With `oidc`, always unknown.
   */
  callers?: readonly Caller[] | undefined;
  /**
   * Accept the JWT access tokens of an OAuth issuer (the organization's identity provider) as the
   * MCP authorization spec describes: see {@link OidcOptions}. `tokens` still work beside them.
   * Serves the protected resource metadata at `/.well-known/oauth-protected-resource[/<path>]`.
   */
  oidc?: OidcOptions | undefined;
  /**
   * How each upstream server named here is reached for a caller signed in through `oidc`:
   * `{ mode: "shared" }`, with the credentials of its own config (the same for every caller); or `{ mode: "exchange", … }` (HTTP servers), each user's own token for it,
   * got by RFC 8693 token exchange of the caller's access token at the issuer, kept per user until
   * it expires, sent on that user's own connection to the server (see {@link ExchangeCredentials}).
   * The caller's own token is never sent upstream. A caller of a static token has nothing to exchange:
   * its calls to such a server fail. Or `{ mode: "consent", … }` (HTTP servers with an authorization
   * server of their own, see {@link ConsentCredentials}): each user authorizes the gateway there
   * once, sent by a URL-mode elicitation (error -32042) a link to the gateway's connect route, where
   * they first sign in at the `oidc` issuer as the caller the link was made for; needs `consent`.
   *
   * When several callers can use the gateway (`oidc`, a custom `authenticate`, several static
   * callers), a server of the manager that carries credentials of its own (an HTTP server with a
   * secret header, `oauth`, an `authProvider`, a `headersHelper`, a password in its URL) must be
   * named here: otherwise `createGateway` throws a `SharedCredentialsError` naming it. A stdio
   * server with secret-looking environment variables and no entry is a warning (`warn`). A server
   * not named (and carrying nothing of its own) is reached as it is configured.
   */
  credentials?: Readonly<Record<string, UpstreamCredentials>> | undefined;
  /** For `consent` servers: the gateway's callback URL (served by `handle`, its connect route next to it), the tokens' encryption key, their store, and the gateway's client at the `oidc` issuer (see {@link ConsentOptions}). */
  consent?: ConsentOptions | undefined;
  /** `/healthz`, `/readyz` and `/metrics` (see {@link OperationsOptions}); none by default. */
  operations?: OperationsOptions | undefined;
}

/** Options of {@link McpGateway.serveStdio}. */
export interface GatewayStdioOptions {
  /** Who is on the other end. Default `{ id: "stdio", name: "stdio" }` (no allow or deny lists). */
  caller?: Caller | undefined;
  /** Default `process.stdin` / `process.stdout`. */
  stdin?: Readable | undefined;
  stdout?: Writable | undefined;
}

/** What a gateway holds now: for metrics, and to see that nothing piles up. */
export interface GatewayStats {
  /** 2025-era sessions held here. */
  sessions: number;
  /** Callers' own upstream connections, open or opening. */
  lanes: number;
  /** Server instances with a connection of their own (stdio connections and 2025 sessions). */
  connections: number;
  /** 2026-07-28 upstream requests waiting for their caller to come back with an answer. */
  rounds: number;
}

/** A gateway: see {@link createGateway}. */
export interface McpGateway {
  readonly manager: MCPManager;
  /** The node:http request handler: `<path>` (default `/mcp`) and `<path>/<server>`. */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Serves one caller over a stdio pair (both protocol eras, as the opening message says). */
  serveStdio(options?: GatewayStdioOptions): { close(): Promise<void> };
  /** What the gateway holds now. */
  stats(): GatewayStats;
  /** Ends sessions, pending rounds and callers' own upstream connections; the manager is yours to close. */
  close(): Promise<void>;
}

/**
 * Static tokens first (machines), then the issuer's JWTs (people); with no issuer, the static tokens
 * alone. With servers taking each user's own credentials, a user's token is kept to exchange.
 */
function withIssuer(
  tokens: Authenticate,
  oidc: OidcAuth | undefined,
  upstream: UpstreamAuth | undefined,
): Authenticate {
  if (!oidc) return tokens;
  if (!upstream) return async (req) => (await tokens(req)) ?? oidc.authenticate(req);
  return async (req) => {
    const machine = await tokens(req);
    if (machine) return machine;
    const caller = await oidc.authenticate(req);
    upstream.note(caller.id, req.headers.authorization!.slice(7).trim());
    return caller;
  };
}

/** Servers reached with each user's own credentials: exchanged, consented, or some of each. */
function perUser(
  exchanging: UpstreamAuth | undefined,
  consenting: UpstreamConsent | undefined,
): PerUserAuth | undefined {
  if (!exchanging || !consenting) return exchanging ?? consenting;
  const of = (server: string): PerUserAuth => (consenting.has(server) ? consenting : exchanging);
  return {
    has: (server) => exchanging.has(server) || consenting.has(server),
    config: (server, shared, caller) => of(server).config(server, shared, caller),
    ready: async (server, caller, shared, request) =>
      consenting.has(server) ? consenting.ready(server, caller, shared, request) : undefined,
  };
}

/** The consent connect and callback routes before the gateway's own (only with consent servers: nothing is added otherwise). */
function withCallback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  consent: UpstreamConsent,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => {
    const url = req.url ?? "/";
    const end = url.indexOf("?");
    const path = end === -1 ? url : url.slice(0, end);
    const route =
      path === consent.connection.path
        ? consent.connection.connect(req, res)
        : path === consent.path
          ? consent.callback(req, res)
          : undefined;
    // A store or issuer failing mid-flow is a 500 saying nothing more, never an unhandled rejection.
    return route
      ? route.catch(
          () =>
            void (res.headersSent
              ? res.destroy()
              : res
                  .writeHead(500, { "cache-control": "no-store" })
                  .end("The authorization could not be completed: call again from your MCP client.\n")),
        )
      : handle(req, res);
  };
}

/** The caller of a stdio connection when none is named. */
export const STDIO_CALLER: Caller = { id: "stdio", name: "stdio" };

/**
 * Makes a gateway over `manager`'s servers: tools and prompts as `<server>__<name>` on `<path>`
 * and by their own names on `<path>/<server>`, resources by URI, completions to their owner; a
 * server's questions, logs and progress to the caller whose call they are about, and never to
 * another; both protocol eras (on the official SDK v2 server).
 */
export function createGateway(manager: MCPManager, options: CreateGatewayOptions = {}): McpGateway {
  const callers = options.callers ?? (options.tokens ? [...options.tokens.values()] : undefined);
  for (const caller of [
    ...(callers ?? []),
    ...(options.oidc?.rules ?? []).map((rule) => rule.caller),
    ...(options.oidc?.defaults ? [{ name: "(issuer's tokens)", ...options.oidc.defaults }] : []),
  ]) {
    if (caller.view !== undefined && !options.views?.has(caller.view))
      throw new InvalidConfigError(
        `caller "${caller.name}" is given the view "${caller.view}", which is not one of the gateway's views (${[...(options.views?.keys() ?? [])].join(", ") || "none"})`,
        { field: "view" },
      );
  }
  const metricsOption = options.operations?.metrics;
  const metrics = metricsOption ? new GatewayMetrics() : undefined;
  // Metrics are counted from the audit entries: with both, each entry goes to both.
  const given = options.audit;
  const audit =
    metrics && given
      ? (entry: Parameters<typeof metrics.record>[0]) => (given(entry), metrics.record(entry))
      : (metrics?.record ?? given);
  checkCredentials(options.credentials ?? {}, options.oidc?.issuer);
  // Several callers never silently share one upstream identity: see sharing.ts.
  const configs = Object.fromEntries(
    manager.getStatuses().flatMap((s) => {
      const config = manager.getServerConfig(s.name);
      return config ? [[s.name, config] as const] : [];
    }),
  );
  checkSharing(configs, options, options.warn);
  const late = lateSharing(
    new Set(Object.keys(configs)),
    (name) => manager.getServerConfig(name),
    options,
    options.warn,
  );
  const signIns = storedSignIns(
    configs,
    (name) => manager.getServerConfig(name),
    (config) => manager.hasSignIn(config),
    options,
    options.warn,
  );
  const servable =
    late || signIns ? (name: string) => (late?.(name) ?? true) && !(signIns?.refuses(name) ?? false) : undefined;
  const oidc: OidcAuth | undefined = options.oidc ? oidcAuthenticate(options.oidc) : undefined;
  const exchanging =
    oidc && Object.values(options.credentials ?? {}).some((c) => c.mode === "exchange")
      ? new UpstreamAuth(options.credentials!, () => oidc.tokenEndpoint())
      : undefined;
  const consentKey = checkConsent(options.credentials ?? {}, options.consent, options.oidc?.issuer);
  const consenting = consentKey
    ? new UpstreamConsent(options.credentials!, consentKey, options.consent!, options.oidc!)
    : undefined;
  // An issuer's tokens bring callers nobody listed: never one sole caller then (see README, "Trust").
  const core = new Gateway(manager, {
    ...options,
    callers: options.oidc ? undefined : callers,
    audit,
    upstreamAuth: perUser(exchanging, consenting),
    servable,
  });
  if (options.handlers) bindHandlers(options.handlers, core);
  const authenticate = options.authenticate ?? withIssuer(bearerTokens(options.tokens ?? new Map()), oidc, exchanging);
  const http = createHttpHandler(core, { ...options, authenticate });
  const stats = (): GatewayStats => ({
    sessions: http.sessions,
    lanes: core.lanes.size,
    connections: core.connections,
    rounds: core.rounds.size,
  });
  const front =
    oidc || metrics || options.operations?.probes
      ? withOperations(http, {
          manager,
          oidc,
          metrics,
          metricsToken: typeof metricsOption === "object" ? metricsOption.token : undefined,
          probes: Boolean(options.operations?.probes),
          holds: () => ({
            ...stats(),
            in_flight: core.inflight.size,
            ...(exchanging ? { exchanged_tokens: exchanging.held } : {}),
          }),
        })
      : http;
  const served = consenting ? withCallback(front, consenting) : front;
  const stdio = new Set<{ close(): Promise<void> }>();
  // A request waits for the stored sign-ins of the manager's servers to be looked up (else it would
  // find those servers missing); one added to the manager since is looked up then.
  const handle = !signIns
    ? served
    : async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
        const looking = signIns.wait(manager.getStatuses().map((s) => s.name));
        if (looking) await looking;
        return served(req, res);
      };
  return {
    manager,
    handle,
    serveStdio(stdioOptions = {}) {
      const caller = stdioOptions.caller ?? STDIO_CALLER;
      const view = caller.view === undefined ? undefined : core.views.get(caller.view);
      if (caller.view !== undefined && !view)
        throw new InvalidConfigError(`the stdio caller's view "${caller.view}" is not one of the gateway's views`, {
          field: "view",
        });
      const transport = new StdioServerTransport(stdioOptions.stdin, stdioOptions.stdout);
      const handle = sdkServeStdio(
        (ctx) => createInstance(core, { server: undefined, view, endpoint: "stdio", caller, era: ctx.era }, true),
        { transport, onerror: (error) => core.warn(error.message) },
      );
      const served = { close: () => (stdio.delete(served), handle.close()) };
      stdio.add(served);
      return served;
    },
    stats,
    async close() {
      await Promise.all([...stdio].map((s) => s.close().catch(() => undefined)));
      await http.close();
      await core.close();
    },
  };
}
