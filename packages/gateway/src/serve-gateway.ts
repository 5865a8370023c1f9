// A gateway assembled from a command line's options (what `mcp serve` is built on), before any
// server starts: its config file read (views, server credentials), the view asked for checked, the
// audit sink opened, the sharing check, the consent options and the /metrics token from the
// environment, then `createGateway`. Whatever refuses to start refuses here.

import type { Implementation, MCPServerConfig } from "@mcp/client";
import { InvalidConfigError } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import type { AuditStreamSink } from "./audit.js";
import { checkConfigSharing, consentFromEnv, readGatewayConfig } from "./config-file.js";
import type { ConsentStore } from "./consent.js";
import { createGateway, type McpGateway } from "./create.js";
import type { GatewayHandlers } from "./handlers.js";
import type { RateLimitStore } from "./limits.js";
import { servableName } from "./policy.js";
import { metricsTokenFromEnv, servedHosts, type ServeCallers } from "./serve-setup.js";
import type { SessionStore } from "./sessions.js";

/** Options of {@link gatewayFromOptions}. */
export interface GatewayFromOptions {
  /** Served over HTTP (to the callers' tokens, with health probes); otherwise over stdio, to `callers.self`. */
  http: boolean;
  /** Who may call it ({@link serveCallers}). */
  callers: ServeCallers;
  /** The handlers the manager was made with (`gatewayHandlers`). */
  handlers: GatewayHandlers;
  /** The gateway's name and version, as its callers see them. */
  name: string;
  version: string;
  /** How the gateway introduces itself to upstream servers it connects for a caller. */
  clientInfo?: Implementation | undefined;
  /** The config files read for `views` and `gateway` entries (none: the user's own, under `home`). */
  files?: readonly string[] | undefined;
  home?: string | undefined;
  /** The gateway's client id at the callers' issuer (`readGatewayConfig`'s). */
  introspectionClient?: string | undefined;
  /** The view the stdio caller or the token's caller sees: an `InvalidConfigError` when the files have none of that name. */
  view?: string | undefined;
  /** The address listened on (its `Host` accepted), default `127.0.0.1`, and more `Host` names accepted. */
  host?: string | undefined;
  allowedHost?: readonly string[] | undefined;
  /** Browser origins allowed. */
  origin?: string[] | undefined;
  toolSearch?: boolean | undefined;
  /** /metrics (with `MCP_METRICS_TOKEN` from `env` when set); HTTP only. */
  metrics?: boolean | undefined;
  /** Opens the audit sink, after the view is checked; closed here when the gateway cannot be made. */
  audit?: (() => AuditStreamSink) | undefined;
  /** Stores shared by replicas (e.g. `@mcp/store-redis`'s). */
  shared?: { sessions?: SessionStore; rates?: RateLimitStore; consent?: ConsentStore } | undefined;
  /** Warnings (a secret-looking environment of a stdio server served to several callers, …). */
  warn: (message: string) => void;
  /** Where `MCP_AUDIT_KEY`, `MCP_METRICS_TOKEN`, the consent settings and secrets are read (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * The gateway `options` describe, on `manager`'s servers `configs` (checked here, before they
 * connect), and its audit sink. A server whose name holds `__` (not `servableName`) is taken out of
 * `configs` first, with a warning: `<server>__<tool>` would be ambiguous. Throws an `InvalidConfigError` for an unknown view, a bad config
 * file, credentials shared with several callers without saying so, missing consent settings or a
 * short `MCP_METRICS_TOKEN` (field `MCP_METRICS_TOKEN`).
 */
export async function gatewayFromOptions(
  manager: MCPManager,
  configs: Record<string, MCPServerConfig>,
  options: GatewayFromOptions,
): Promise<{ gateway: McpGateway; audit: AuditStreamSink | undefined }> {
  for (const name of Object.keys(configs).filter((name) => !servableName(name))) {
    options.warn(`server "${name}" is not served: "__" in its name would make <server>__<tool> ambiguous; rename it`);
    delete configs[name];
  }
  const env = options.env ?? process.env;
  const { self, tokens, oidc } = options.callers;
  let audit: AuditStreamSink | undefined;
  try {
    const { views, credentials } = await readGatewayConfig(options);
    if (options.view !== undefined) {
      if (!views.has(options.view))
        throw new InvalidConfigError(
          `--view ${options.view}: no such view in your config (${[...views.keys()].join(", ") || "none"})`,
          { field: "view" },
        );
      self.view = options.view;
    }
    audit = options.audit?.();
    const callers = options.http ? [...tokens.values()] : [self];
    // A sign-in the manager holds is the operator's own identity too (looked up here: the gateway cannot wait).
    await checkConfigSharing(manager, configs, { oidc, callers, credentials }, options.warn);
    const gateway = createGateway(manager, {
      handlers: options.handlers,
      name: options.name,
      version: options.version,
      warn: options.warn,
      callers,
      connect: options.clientInfo ? { clientInfo: options.clientInfo } : undefined,
      tokens,
      hosts: servedHosts(options.host ?? "127.0.0.1", options.allowedHost),
      origins: options.origin,
      sessions: options.shared?.sessions,
      rateLimits: options.shared?.rates,
      views,
      toolSearch: options.toolSearch,
      audit,
      // One key for every replica, so their argsHash compare; none: a random one per process.
      auditKey: env["MCP_AUDIT_KEY"] || undefined,
      oidc,
      credentials,
      consent: consentFromEnv(credentials, options.shared?.consent, env),
      operations: options.http
        ? { probes: true, metrics: options.metrics ? { token: metricsTokenFromEnv(env) } : false }
        : undefined,
    });
    return { gateway, audit };
  } catch (error) {
    await audit?.close();
    throw error;
  }
}
