// `mcp serve --stdio | --http`: the configured servers as one MCP server.

import { createWriteStream } from "node:fs";
import { InvalidConfigError } from "@mcp/client";
import {
  auditStream,
  gatewayFromOptions,
  GatewayListenError,
  gatewayHandlers,
  isLoopback,
  serveCallers,
  serveUntilStopped,
  type AuditStreamSink,
  type GatewayFromOptions,
  type McpGateway,
  type ServeCallerOptions,
} from "@mcp/gateway";
import { CLI_VERSION, openSession, type GlobalOptions } from "../session.js";
import { CliError, color, EXIT, note, out, plural, stdout, usageError, warn } from "../ui.js";

/** The options of `mcp serve`: @mcp/gateway's (its callers' and the gateway's), the mode, the audit file and Redis. */
export type ServeOptions = Omit<ServeCallerOptions, "http" | "env"> &
  Pick<GatewayFromOptions, "allowedHost" | "origin" | "toolSearch" | "view" | "metrics"> & {
    stdio?: boolean | undefined;
    http?: boolean | undefined;
    audit?: string | undefined;
    redis?: string | undefined;
    redisPlaintextTokens?: boolean | undefined;
  };

/** The audit sink of `--audit <file|->`: JSON lines appended to the file (mode 600), or to stdout. */
function auditTo(target: string, stdio: boolean): AuditStreamSink {
  if (target === "-" && stdio)
    throw new CliError("--audit - would write into the MCP stream of --stdio; give a file", EXIT.usage);
  // A reader of stdout that goes away loses the audit lines, not the gateway.
  if (target === "-") stdout.exitWhenClosed = false;
  const stream = target === "-" ? process.stdout : createWriteStream(target, { flags: "a", mode: 0o600 });
  return auditStream(stream, (error) =>
    warn(`mcp serve: the audit log ${target === "-" ? "(stdout)" : target} failed: ${error.message}; serving goes on`),
  );
}

/** `mcp serve`. */
export async function serveCommand(globals: GlobalOptions, options: ServeOptions): Promise<number> {
  if (Boolean(options.stdio) === Boolean(options.http))
    throw new CliError("mcp serve needs one of --stdio or --http", EXIT.usage);
  if (options.stdio && (options.oidcIssuer !== undefined || options.metrics))
    throw new CliError("--oidc-issuer and --metrics go with --http", EXIT.usage);
  const who = await serveCallers({ ...options, http: Boolean(options.http) }).catch((error: unknown) =>
    usageError(error, true),
  );
  const { self, oidc } = who;

  // Replicas share tool lists, upstream OAuth tokens and 2025-era sessions through Redis.
  if (options.redis) process.env["MCP_REDIS_URL"] = options.redis;
  if (options.redisPlaintextTokens) process.env["MCP_REDIS_PLAINTEXT_TOKENS"] = "1";
  // The manager's handlers need the gateway, and the gateway the manager: the handlers look it up when called.
  const handlers = gatewayHandlers();
  const session = await openSession(globals, {
    connect: false,
    handlers: { onSampling: handlers.onSampling, onElicitation: handlers.onElicitation },
    onNotification: handlers.onNotification,
    manager: { onLog: handlers.onLog, onRoots: handlers.onRoots, connect: handlers.connect },
  });
  const host = options.host ?? "127.0.0.1";
  // What may refuse to start (views, the audit file, callers' views) is settled before anything runs;
  // a server whose name holds "__" is left out of session.configs, warned.
  let gateway: McpGateway;
  let audit: AuditStreamSink | undefined;
  try {
    ({ gateway, audit } = await gatewayFromOptions(session.manager, session.configs, {
      ...options,
      http: Boolean(options.http),
      callers: who,
      handlers,
      name: "mcp-serve",
      version: CLI_VERSION,
      clientInfo: { name: "mcp-cli", version: CLI_VERSION },
      files: globals.config,
      home: session.home,
      audit: options.audit === undefined ? undefined : () => auditTo(options.audit!, Boolean(options.stdio)),
      shared: session.shared,
      warn: (message) => warn(`mcp serve: ${message}`),
    }));
  } catch (error) {
    await session.close();
    if (error instanceof CliError) throw error;
    // A short MCP_METRICS_TOKEN is said as it is.
    const metrics = InvalidConfigError.isInstance(error) && error.field === "MCP_METRICS_TOKEN";
    throw new CliError(`${metrics ? "" : "mcp serve: "}${(error as Error).message}`, EXIT.usage);
  }
  // Asked to stop (Ctrl-C, SIGTERM, or the end of stdin for `--stdio`): said, unless the end of
  // stdin, which is how a host ends a stdio server; from then a second signal quits at once. Once a
  // stop was asked for, closing takes at most serveUntilStopped's 800 ms (the audit log is written
  // out before the servers close: they may be cut short); then the process exits here (its stdio
  // servers' process groups with it), rather than when the last background close lets the event loop end.
  const { why, closed } = await serveUntilStopped(gateway, {
    stdio: options.stdio ? { caller: self } : undefined,
    host,
    port: options.port,
    connect: () => session.manager.connectServers(session.configs, session.servers),
    close: async () => {
      await audit?.close();
      await session.close();
    },
    onStopping: (why) => {
      if (why !== "end of stdin") note(`mcp serve: stopping (${why}; again to quit now)`);
    },
    onStarted: (failed) => {
      for (const [name, message] of failed) warn(`mcp serve: server "${name}" failed: ${message}`);
      if (!options.stdio && !isLoopback(host))
        warn(`mcp serve: listening on ${host}, beyond this machine: only bearer tokens keep others out`);
    },
    onServing: (http) =>
      http
        ? listening(http.url)
        : note(`mcp serve: serving ${plural(Object.keys(session.configs).length, "server")} over stdio`),
  }).catch((error: unknown) => {
    throw error instanceof GatewayListenError ? new CliError(`mcp serve ${error.message}`) : error;
  });
  if (closed === "late") note("mcp serve: stopped (servers still closing were ended)");
  else if (why !== "end of stdin") note("mcp serve: stopped");
  process.exit(EXIT.ok);

  /** What a person (or `--json`) is told once HTTP listens. */
  function listening(url: string): void {
    const printed = who.generatedToken;
    if (globals.json)
      out(
        JSON.stringify({
          url,
          pid: process.pid,
          servers: Object.keys(session.configs),
          redis: session.shared !== undefined,
          ...(printed ? { token: printed } : {}),
        }),
      );
    else {
      out(`mcp serve is listening at ${color.bold(url)} (and ${url}/<server> for one server)`);
      if (printed) out(`token: ${printed}  (send "Authorization: Bearer <token>"; it is shown only now)`);
      if (oidc)
        out(
          `sign-in: access tokens of ${oidc.issuer} for ${String(oidc.audience)} (metadata at /.well-known/oauth-protected-resource/mcp)`,
        );
    }
  }
}
