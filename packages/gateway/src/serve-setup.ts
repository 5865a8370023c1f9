// A gateway served from a command line's options (what `mcp serve` is built on): who may call it (a
// callers file, a bearer token from MCP_SERVE_TOKEN or a fresh one, an OIDC issuer's access
// tokens), its URL and the Host names it accepts, the /metrics token, and a node:http server
// listening for it with its connections guarded. Every wrong option is an `InvalidConfigError`
// naming it.

import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { InvalidConfigError } from "@mcp/client";
import { parseCallers, parseClaimRules } from "./callers.js";
import { guardConnections } from "./connections.js";
import type { OidcOptions } from "./oidc-options.js";
import { callerId, type Caller } from "./policy.js";

/** Options of {@link serveCallers}: a command line's callers, sign-in and listening options. */
export interface ServeCallerOptions {
  /** Served over HTTP (callers, tokens, sign-in); otherwise over stdio, to one caller. */
  http: boolean;
  /** The callers file (`parseCallers`, and `parseClaimRules` with an issuer). */
  callers?: string | undefined;
  /** Tool patterns the stdio caller, the generated token's caller and the issuer's callers without rules may use. */
  allow?: string[] | undefined;
  /** Tool patterns they may not use. */
  deny?: string[] | undefined;
  /** The address listened on (default `127.0.0.1`): with `port`, the default audience. */
  host?: string | undefined;
  /** The port listened on. */
  port?: number | undefined;
  /** An OAuth issuer whose access tokens are accepted. */
  oidcIssuer?: string | undefined;
  /** The resource URL its tokens must name (default: this server's /mcp URL, when `port` is given). */
  audience?: string | undefined;
  /** Scopes every token must carry. */
  requiredScope?: string[] | undefined;
  /** Introspect the issuer's opaque tokens as this client (RFC 7662). */
  introspectionClient?: string | undefined;
  /** The variable its secret is read from (default `MCP_INTROSPECTION_SECRET`). */
  introspectionSecretEnv?: string | undefined;
  /** Where MCP_SERVE_TOKEN and the introspection secret are read (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** Who may call a gateway, as {@link serveCallers} found it. */
export interface ServeCallers {
  /** The stdio caller, or the bearer token's (MCP_SERVE_TOKEN's or the one generated here). */
  self: Caller;
  /** Callers by their bearer token (`createGateway`'s `tokens`): the callers file's, and `self`'s token when there is one. */
  tokens: Map<string, Caller>;
  /** The issuer's options (`createGateway`'s `oidc`), when one is given. */
  oidc: OidcOptions | undefined;
  /** The token generated here for `self` (no MCP_SERVE_TOKEN, no callers file, no issuer): shown once to whoever started the server. */
  generatedToken: string | undefined;
}

/** `http://<host>:<port>/mcp`, an IPv6 address in brackets. */
export function mcpUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`;
}

/** The `Host` names a gateway listening on `host` accepts (`createGateway`'s `hosts`): that address (an IPv6 one in brackets), and `more`. */
export function servedHosts(host: string, more: readonly string[] = []): string[] {
  return [host.includes(":") && !host.startsWith("[") ? `[${host}]` : host, ...more];
}

/**
 * Who may call a gateway served with these options. Over stdio: one caller with the `allow` and
 * `deny` lists. Over HTTP: the callers file's (read here), an issuer's token holders (its claim
 * rules from the callers file, else everyone with the lists), and a bearer token with the lists:
 * `MCP_SERVE_TOKEN` (at least 16 characters), else one generated when neither a callers file nor
 * an issuer says who calls. Throws an `InvalidConfigError` naming the option or variable that is
 * wrong (the callers file's own errors are `parseCallers`'), or the error reading the file.
 */
export async function serveCallers(options: ServeCallerOptions): Promise<ServeCallers> {
  const env = options.env ?? process.env;
  const lists = { allow: options.allow?.length ? options.allow : undefined, deny: options.deny };
  let self: Caller = { id: "stdio", name: "stdio", ...lists };
  const found: ServeCallers = { self, tokens: new Map(), oidc: undefined, generatedToken: undefined };
  if (!options.http) return found;
  let text: string | undefined;
  if (options.callers) found.tokens = parseCallers((text = await readFile(options.callers, "utf8")), options.callers);
  found.oidc = oidcOf(options, text, lists, env);
  const token = env["MCP_SERVE_TOKEN"];
  if (token !== undefined && token.length < 16)
    throw new InvalidConfigError("MCP_SERVE_TOKEN must be at least 16 characters", { field: "MCP_SERVE_TOKEN" });
  // Signing in through the issuer needs no token of ours; a callers file names its own.
  if (token !== undefined || (!options.callers && !found.oidc)) {
    const chosen = token ?? randomBytes(24).toString("base64url");
    self = { id: callerId(chosen), name: "token", ...lists };
    found.tokens.set(chosen, self);
    found.self = self;
    if (token === undefined) found.generatedToken = chosen;
  }
  return found;
}

const bad = (message: string, field: string): InvalidConfigError => new InvalidConfigError(message, { field });

/**
 * The issuer's options: the audience (`audience`, else this server's /mcp URL when `port` is
 * given), the scopes required, and the claim rules of the callers file (none: every valid token
 * is a caller with the lists).
 */
function oidcOf(
  options: ServeCallerOptions,
  callersText: string | undefined,
  lists: Omit<Caller, "id" | "name">,
  env: NodeJS.ProcessEnv,
): OidcOptions | undefined {
  if (options.oidcIssuer === undefined) {
    if (options.audience !== undefined || options.requiredScope?.length || options.introspectionClient !== undefined)
      throw bad("--audience, --required-scope and --introspection-client go with --oidc-issuer", "oidcIssuer");
    if (callersText !== undefined && parseClaimRules(callersText, options.callers!).length > 0)
      throw bad(`${options.callers}: callers chosen by a "claim" need --oidc-issuer`, "oidcIssuer");
    return undefined;
  }
  const audience = options.audience ?? (options.port ? mcpUrl(options.host ?? "127.0.0.1", options.port) : undefined);
  if (audience === undefined)
    throw bad("--oidc-issuer needs --audience (the URL callers reach this server's /mcp at) or --port", "audience");
  const rules = callersText === undefined ? [] : parseClaimRules(callersText, options.callers!);
  return {
    issuer: options.oidcIssuer,
    audience,
    requiredScopes: options.requiredScope,
    ...introspectionOf(options, env),
    ...(rules.length > 0 ? { rules } : { defaults: lists }),
  };
}

/** The introspection client's credentials: the secret is read from the environment, never from the command line. */
function introspectionOf(options: ServeCallerOptions, env: NodeJS.ProcessEnv): Pick<OidcOptions, "introspection"> {
  if (options.introspectionClient === undefined) {
    if (options.introspectionSecretEnv !== undefined)
      throw bad("--introspection-secret-env goes with --introspection-client", "introspectionSecretEnv");
    return {};
  }
  const variable = options.introspectionSecretEnv ?? "MCP_INTROSPECTION_SECRET";
  const secret = env[variable];
  if (!secret)
    throw bad(`--introspection-client ${options.introspectionClient} needs its secret in $${variable}`, variable);
  return { introspection: { clientId: options.introspectionClient, clientSecret: secret } };
}

/**
 * `MCP_METRICS_TOKEN`, the bearer token /metrics asks for (`operations.metrics.token`), when set;
 * undefined when not (then /metrics answers loopback only). An `InvalidConfigError` when it is
 * shorter than 16 characters.
 */
export function metricsTokenFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env["MCP_METRICS_TOKEN"] || undefined;
  if (token !== undefined && token.length < 16)
    throw bad("MCP_METRICS_TOKEN must be at least 16 characters", "MCP_METRICS_TOKEN");
  return token;
}

/** A node:http server answering with a gateway, listening (see {@link startGatewayServer}). */
export interface GatewayServer {
  /** The node:http server. */
  server: Server;
  /** The port it listens on. */
  port: number;
  /** Its MCP endpoint, `http://<host>:<port>/mcp` (`/mcp/<server>` for one server). */
  url: string;
  /** Closes every connection, then the server (the gateway itself is the caller's to close). */
  close(): Promise<void>;
}

/**
 * Serves `gateway.handle` on `host:port` (default `127.0.0.1`, a free port): connections capped
 * (in all and per address) and bound to send each request head within 10 s (`guardConnections`),
 * so idle or slow ones cannot hold every descriptor of the process. Rejects with the listening
 * error (`EADDRINUSE`, …).
 */
export async function startGatewayServer(
  gateway: { handle(req: IncomingMessage, res: ServerResponse): unknown },
  options: { host?: string | undefined; port?: number | undefined } = {},
): Promise<GatewayServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => void gateway.handle(req, res));
  guardConnections(server);
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve((server.address() as { port: number }).port));
  });
  return {
    server,
    port,
    url: mcpUrl(host, port),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
