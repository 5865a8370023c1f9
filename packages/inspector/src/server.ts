// The inspector's server: it listens on 127.0.0.1 only, answers nobody without the token, refuses a
// foreign Host (DNS rebinding) or Origin (cross-site requests), and speaks the API that api.ts
// documents, on the manager it is given.
import { randomBytes } from "node:crypto";
import { isAbsolute } from "node:path";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { MCPServerConfig, MCPServerConnection } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import type { ApiError, InspectedServer, InspectorState, ServerRow } from "./api.js";
import { appRoutes } from "./app-routes.js";
import { authRoutes } from "./auth-route.js";
import { configRoutes, type InspectorConfigEditing } from "./config-route.js";
import { toolCalls } from "./calls.js";
import { InspectorError } from "./errors.js";
import { hubOf, type InspectorHooks } from "./hooks.js";
import { errorOf } from "./hub.js";
import { readBody, Refusal, refusalOf, SECURITY_HEADERS, sendJson } from "./http.js";
import { inspectorPage } from "./page.js";
import { serverRoutes } from "./routes.js";
import { heldRows, statusRows, toolRows } from "./rows.js";
import { rpcRoutes } from "./rpc-route.js";
import { SandboxOrigins } from "./sandbox-origins.js";
import { signInRoutes } from "./sign-in-route.js";

/** How often the event stream gets a keep-alive comment. */
const KEEPALIVE_MS = 15_000;

/** A running inspector (see {@link startInspector}). */
export interface Inspector {
  /** The page's address, token included: what the user opens (`http://127.0.0.1:<port>/?token=…`). */
  url: string;
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** The token every request must carry (in the URL, or the `X-Inspector-Token` header). */
  token: string;
  /** Stops it: running calls are cancelled, open dialogs answered `cancel`, the page's streams and every app origin closed. The manager is left running. Safe to call twice. */
  close(): Promise<void>;
}

/** How {@link startInspector} runs. Every option may be left out. */
export interface InspectorOptions {
  /** The hooks the manager was made with ({@link inspectorHooks}): without them the page gets no dialogs and no notifications. */
  hooks?: InspectorHooks | undefined;
  /** The port on 127.0.0.1 (an integer 0–65535); 0, the default, picks a free one. The inspector never listens on another address. */
  port?: number | undefined;
  /** The token (at least 16 characters, URL-safe: `A-Z a-z 0-9 - _ . ~`); 32 random bytes, base64url, by default. */
  token?: string | undefined;
  /** The page's title; default `MCP inspector`. */
  title?: string | undefined;
  /** The page's heading; default `MCP inspector`. */
  heading?: string | undefined;
  /** Your tool's name and version: the version is shown in the page's header, and told to MCP Apps as their host. Default `{ name: "mcp-inspector", version: "" }`. */
  host?: { name: string; version: string } | undefined;
  /** The server list the page shows; default: the manager's statuses. A tool with more to say (config errors, servers left out) returns its own rows. */
  servers?: (() => ServerRow[]) | undefined;
  /** A server's config, for the sign-in doctor and signing in from the page (HTTP servers only); without it both answer 404 for every server. */
  configOf?: ((server: string) => MCPServerConfig | undefined) | undefined;
  /** The command that approves a held tool in your tool's words, shown beside it (`approve` of a held row). */
  approveCommand?: ((server: string, tool: string) => string) | undefined;
  /**
   * Lets the page add, edit and remove servers in one file, the user's own config (`file`; nothing
   * else is ever written), applied at once: a saved entry runs as it loads again (`load`), when that
   * file is the one it loads from. Without it the page edits nothing.
   */
  config?: InspectorConfigEditing | undefined;
  /** Called with the URL once it listens: open a browser here (`openInBrowser` of `@mcp/oauth` does). A throw is the caller's: the inspector is closed and `startInspector` rejects with it. */
  open?: ((url: string) => void) | undefined;
}

function checkOptions(options: InspectorOptions): void {
  const { port, token } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new InspectorError(
      `startInspector: "port" must be an integer from 0 to 65535, got ${String(port)}`,
      "invalid_option",
    );
  if (token !== undefined && (typeof token !== "string" || token.length < 16 || !/^[A-Za-z0-9._~-]+$/.test(token)))
    throw new InspectorError(
      `startInspector: "token" must be at least 16 URL-safe characters (A-Z a-z 0-9 - _ . ~)`,
      "invalid_option",
    );
  for (const key of ["title", "heading"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "string")
      throw new InspectorError(`startInspector: "${key}" must be a string`, "invalid_option");
  }
  const host = options.host as { name?: unknown; version?: unknown } | undefined;
  if (host !== undefined && (typeof host?.name !== "string" || typeof host.version !== "string"))
    throw new InspectorError(`startInspector: "host" must be { name: string, version: string }`, "invalid_option");
  for (const key of ["servers", "configOf", "approveCommand", "open"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "function")
      throw new InspectorError(`startInspector: "${key}" must be a function`, "invalid_option");
  }
  const config = options.config as unknown as Record<string, unknown> | undefined;
  if (config === undefined) return;
  const file = config?.["file"];
  if (typeof file !== "string" || !isAbsolute(file))
    throw new InspectorError(
      `startInspector: "config.file" must be an absolute path (the user's config file)`,
      "invalid_option",
    );
  for (const key of ["load", "onChange"])
    if (config[key] !== undefined && typeof config[key] !== "function")
      throw new InspectorError(`startInspector: "config.${key}" must be a function`, "invalid_option");
}

/** The server list the page shows: the rows plus what each connected server can do. */
function inspectedServers(manager: MCPManager, rows: ServerRow[]): InspectedServer[] {
  return rows.map((row) => {
    const capabilities = manager.getConnection(row.name)?.capabilities ?? {};
    const resources = capabilities.resources as { subscribe?: boolean } | undefined;
    return {
      ...row,
      capabilities: Object.keys(capabilities).filter((k) => capabilities[k as keyof typeof capabilities] !== undefined),
      subscribe: resources?.subscribe === true,
    };
  });
}

/**
 * Starts the web inspector on `manager`: every server it manages, their tools (a form for each),
 * resources, prompts, tasks, MCP Apps and a live log, in a browser, at the returned `url`. It
 * listens on 127.0.0.1 only and answers nothing without the token (a random one by default). Make
 * the manager with {@link inspectorHooks} for the servers' dialogs and notifications to reach the
 * page. The inspector neither connects nor closes the manager's servers.
 *
 * @throws {@link InspectorError} `invalid_option` for a bad option, `listen_failed` when the port cannot be used.
 * @example
 * const hooks = inspectorHooks();
 * const manager = new MCPManager({ ...hooks });
 * await manager.connectServers({ everything: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] } });
 * const inspector = await startInspector(manager, { hooks });
 * console.log(inspector.url); // open it in a browser; await inspector.close() when done
 */
export async function startInspector(manager: MCPManager, options: InspectorOptions = {}): Promise<Inspector> {
  checkOptions(options);
  const hub = hubOf(options.hooks);
  const token = options.token ?? randomBytes(32).toString("base64url");
  const tokenBytes = Buffer.from(token);
  const host = options.host ?? { name: "mcp-inspector", version: "" };
  let removed: ReadonlySet<string> = new Set();
  const servers = (): InspectedServer[] =>
    inspectedServers(manager, options.servers ? options.servers() : statusRows(manager)).filter(
      (row) => !removed.has(row.name),
    );
  const held = () => heldRows(manager, options.approveCommand);

  const connection = (name: string): MCPServerConnection => {
    const found = manager.getConnection(name);
    if (!found)
      throw new Refusal(
        409,
        `server "${name}" is not connected (${manager.getConnectionStatus(name)?.state ?? "not configured"})`,
        "server_unavailable",
      );
    return found;
  };

  const calls = toolCalls(manager, hub);
  const { runCall } = calls;
  const routes: Record<string, (body: Record<string, unknown>, res: ServerResponse) => unknown> = {
    ...calls.routes,
    ...serverRoutes({ manager, hub, held, connection, removed: () => removed }),
  };

  let port = 0;
  // MCP Apps render each on an origin of its own (a port of its own), never the inspector's.
  const sandboxes = new SandboxOrigins(() => `http://127.0.0.1:${port}`);
  Object.assign(
    routes,
    appRoutes({ manager, hostInfo: host, hub, sandboxes, connection, runCall }),
    authRoutes(options.configOf ?? (() => undefined)),
    rpcRoutes(hub, connection, manager),
  );
  const signIns = signInRoutes(manager, options.configOf ?? (() => undefined));
  Object.assign(routes, signIns.routes);
  const config = configRoutes(manager, hub, options.config, () => hub.emit({ type: "servers", servers: servers() }));
  removed = config.removed;
  Object.assign(routes, config.routes);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = refusalOf(req, port, tokenBytes);
    if (refusal) return sendJson(res, refusal.status, { message: refusal.message } satisfies ApiError);
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method === "GET" && path === "/") {
      const nonce = randomBytes(16).toString("base64");
      const html = inspectorPage({ nonce, title: options.title });
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; media-src data:; connect-src 'self'; frame-src http://*.localhost:*; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      });
      return void res.end(html);
    }
    if (req.method === "GET" && path === "/api/state") {
      return sendJson(res, 200, {
        servers: servers(),
        tools: toolRows(manager.getTools()),
        held: held(),
        log: hub.log,
        dialogs: hub.dialogs,
        tasks: hub.tasks,
        roots: hub.roots,
        version: host.version,
        heading: options.heading ?? "MCP inspector",
        ...(options.config ? { configFile: options.config.file } : {}),
        at: hub.at,
      } satisfies InspectorState);
    }
    if (req.method === "GET" && path === "/api/events") {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/event-stream; charset=utf-8",
        connection: "keep-alive",
      });
      res.write(": mcp inspector\n\n");
      hub.attach(res, new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("page") ?? undefined);
      return;
    }
    const route = routes[path];
    if (!route)
      return sendJson(res, 404, { message: `no such endpoint: ${req.method ?? ""} ${path}` } satisfies ApiError);
    if (req.method !== "POST") return sendJson(res, 405, { message: `${path} takes POST` } satisfies ApiError);
    try {
      const body = await readBody(req);
      sendJson(res, 200, await route(body, res));
    } catch (error) {
      if (error instanceof Refusal)
        return sendJson(res, error.status, {
          message: error.message,
          ...(error.code === undefined ? {} : { code: error.code }),
        } satisfies ApiError);
      sendJson(res, 502, errorOf(error));
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorOf(error));
      else res.destroy();
    });
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        new InspectorError(
          `the inspector could not listen on 127.0.0.1:${options.port ?? 0}: ${error.message}`,
          "listen_failed",
          { cause: error },
        ),
      ),
    );
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.removeAllListeners("error");
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  // Live news for the page, from the moment it can be served.
  const unsubscribers = [
    manager.onStatusChange((status) => {
      hub.record({
        server: status.name,
        kind: "status",
        method: status.state,
        ...(status.lastError ? { error: status.lastError } : {}),
      });
      hub.emit({ type: "servers", servers: servers() });
    }),
    manager.onToolsChanged(() => {
      hub.emit({ type: "tools", tools: toolRows(manager.getTools()) });
      hub.emit({ type: "held", held: held() });
    }),
    manager.pins.onHeld(() => hub.emit({ type: "held", held: held() })),
  ];
  const keepalive = setInterval(() => hub.keepalive(), KEEPALIVE_MS);
  keepalive.unref();

  let closing: Promise<void> | undefined;
  const inspector: Inspector = {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () => (closing ??= stop()),
  };
  const stop = async (): Promise<void> => {
    clearInterval(keepalive);
    for (const off of unsubscribers) off();
    calls.abortAll("the inspector is stopping");
    signIns.close();
    hub.close();
    server.closeAllConnections();
    await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), sandboxes.close()]);
  };
  if (options.open) {
    try {
      options.open(inspector.url);
    } catch (error) {
      await inspector.close();
      throw error;
    }
  }
  return inspector;
}
