// `mcp serve --stdio | --http`: the configured servers as one MCP server.

import { createWriteStream } from "node:fs";
import { InvalidConfigError } from "@mcp/client";
import {
  auditStream,
  closeWithin,
  gatewayFromOptions,
  gatewayHandlers,
  isLoopback,
  servableName,
  serveCallers,
  startGatewayServer,
  stopRequests,
  type AuditStreamSink,
  type McpGateway,
  type ServeCallers,
} from "@mcp/gateway";
import { CLI_VERSION, openSession, type GlobalOptions } from "../session.js";
import { CliError, color, EXIT, note, out, plural, stdout, warn } from "../ui.js";

/** The options of `mcp serve`. */
export interface ServeOptions {
  stdio?: boolean | undefined;
  http?: boolean | undefined;
  port?: number | undefined;
  host?: string | undefined;
  callers?: string | undefined;
  allow?: string[] | undefined;
  deny?: string[] | undefined;
  origin?: string[] | undefined;
  redis?: string | undefined;
  redisPlaintextTokens?: boolean | undefined;
  allowedHost?: string[] | undefined;
  audit?: string | undefined;
  toolSearch?: boolean | undefined;
  view?: string | undefined;
  oidcIssuer?: string | undefined;
  audience?: string | undefined;
  requiredScope?: string[] | undefined;
  introspectionClient?: string | undefined;
  introspectionSecretEnv?: string | undefined;
  metrics?: boolean | undefined;
}

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

/** How long stopping may take: what is still closing then (a server slow to exit, a DELETE not answered) is ended. */
const STOP_MS = 800;

/** `mcp serve`. */
export async function serveCommand(globals: GlobalOptions, options: ServeOptions): Promise<number> {
  if (Boolean(options.stdio) === Boolean(options.http))
    throw new CliError("mcp serve needs one of --stdio or --http", EXIT.usage);
  if (options.stdio && (options.oidcIssuer !== undefined || options.metrics))
    throw new CliError("--oidc-issuer and --metrics go with --http", EXIT.usage);
  let who: ServeCallers;
  try {
    who = await serveCallers({ ...options, http: Boolean(options.http) });
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }
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
  for (const name of Object.keys(session.configs).filter((name) => !servableName(name))) {
    warn(
      `mcp serve: server "${name}" is not served: "__" in its name would make <server>__<tool> ambiguous; rename it`,
    );
    delete session.configs[name];
  }
  const host = options.host ?? "127.0.0.1";
  // What may refuse to start (views, the audit file, callers' views) is settled before anything runs.
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
  // stdin, which is how a host ends a stdio server; from then a second signal quits at once (the
  // stdio servers' process groups are ended on exit).
  const stop = stopRequests({ stdin: options.stdio ? process.stdin : undefined, again: () => process.exit(EXIT.ok) });
  let said = false;
  const until = stop.asked.then((why) => {
    said = why !== "end of stdin";
    if (said) note(`mcp serve: stopping (${why}; again to quit now)`);
  });
  try {
    // A stop while servers are still starting ends their attempts (the session's close, below)
    // rather than waiting for the slowest of them.
    const connecting = session.manager.connectServers(session.configs, session.servers);
    const started = await Promise.race([connecting, until.then(() => undefined)]);
    if (started === undefined) {
      connecting.catch(() => undefined);
      return EXIT.ok;
    }
    for (const [name, message] of started.errors) warn(`mcp serve: server "${name}" failed: ${message}`);
    if (options.stdio) {
      const handle = gateway.serveStdio({ caller: self });
      note(`mcp serve: serving ${plural(Object.keys(session.configs).length, "server")} over stdio`);
      await until;
      await handle.close();
      return EXIT.ok;
    }
    if (!isLoopback(host))
      warn(`mcp serve: listening on ${host}, beyond this machine: only bearer tokens keep others out`);
    const http = await startGatewayServer(gateway, { host, port: options.port }).catch((error: unknown) => {
      throw new CliError(`mcp serve could not listen on ${host}:${options.port ?? 0}: ${(error as Error).message}`);
    });
    const printed = who.generatedToken;
    if (globals.json)
      out(
        JSON.stringify({
          url: http.url,
          pid: process.pid,
          servers: Object.keys(session.configs),
          redis: session.shared !== undefined,
          ...(printed ? { token: printed } : {}),
        }),
      );
    else {
      out(`mcp serve is listening at ${color.bold(http.url)} (and ${http.url}/<server> for one server)`);
      if (printed) out(`token: ${printed}  (send "Authorization: Bearer <token>"; it is shown only now)`);
      if (oidc)
        out(
          `sign-in: access tokens of ${oidc.issuer} for ${String(oidc.audience)} (metadata at /.well-known/oauth-protected-resource/mcp)`,
        );
    }
    await until;
    await http.close();
    return EXIT.ok;
  } finally {
    // The audit log is written out before the servers close: they may be cut short. Once a stop
    // was asked for, within STOP_MS of it; then the process exits here (its stdio servers' process
    // groups with it), rather than when the last background close lets the event loop end.
    const closed = await closeWithin(stop.at, STOP_MS, async () => {
      await gateway.close();
      await audit?.close();
      await session.close();
    });
    if (stop.at !== undefined) {
      if (closed === "late") note("mcp serve: stopped (servers still closing were ended)");
      else if (said) note("mcp serve: stopped");
      process.exit(EXIT.ok);
    }
  }
}
