// `mcp inspect`: the web inspector's server. It listens on 127.0.0.1 only, answers nobody without
// the session's token, refuses a foreign Host (DNS rebinding) or Origin (cross-site requests), and
// speaks the API that @mcp/inspector's api.ts documents, on the same manager the CLI uses.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { complete, getPrompt, readResource, setLoggingLevel, subscribe, unsubscribe, type LoggingLevel, type CreateMessageParams, type CreateMessageResult, type ElicitParams, type ElicitResult, type MCPServerConnection } from "@mcp/client";
import {
  inspectorPage,
  LOG_LEVELS,
  TOKEN_HEADER,
  type ApiError,
  type CallAnswer,
  type CallRequest,
  type CompleteRequestBody,
  type Dialog,
  type DialogAnswer,
  type InspectedServer,
  type InspectorEvent,
  type InspectorState,
  type JsonSchema,
  type LogEntry,
  type PromptAnswer,
  type ReadAnswer,
} from "@mcp/inspector";
import { openInBrowser } from "@mcp/oauth";
import { promptRows, resourceRows, serverRows, toolRows } from "./rows.js";
import { CLI_VERSION, openSession, type GlobalOptions, type Session } from "./session.js";
import { CliError, color, EXIT, note, out } from "./ui.js";

/** Largest request body the API reads. */
const MAX_BODY = 1024 * 1024;
/** Entries kept for a page that opens later. */
const LOG_SIZE = 1000;
/** A log entry's result or params bigger than this (as JSON) is kept as a preview only. */
const MAX_LOGGED = 32 * 1024;
const KEEPALIVE_MS = 15_000;

/** A request the API refuses, with the status to answer. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string | number,
  ) {
    super(message);
  }
}

function clip(value: unknown): unknown {
  if (value === undefined) return undefined;
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return "(not JSON)";
  }
  return json.length > MAX_LOGGED ? { truncated: true, bytes: json.length, preview: json.slice(0, 2048) } : value;
}

/** A traced request's outcome and the time it took. */
type Traced<T> = { result: T; ms: number } | { error: unknown; ms: number };

/** A JSON object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** ms since `started`, to a tenth. */
function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function errorOf(error: unknown): ApiError {
  const e = error as { message?: unknown; code?: unknown };
  const code = typeof e.code === "string" || typeof e.code === "number" ? e.code : undefined;
  return { message: typeof e.message === "string" ? e.message : String(error), ...(code === undefined ? {} : { code }) };
}

/**
 * What the page sees live: the event stream's subscribers, the log, and the dialogs a server waits
 * on. Made before the manager, whose elicitation and sampling handlers it answers.
 */
export class InspectorHub {
  readonly #streams = new Set<ServerResponse>();
  readonly #dialogs = new Map<string, { dialog: Dialog; settle: (answer: DialogAnswer) => void }>();
  #log: LogEntry[] = [];
  #seq = 0;

  emit(event: InspectorEvent): void {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const stream of this.#streams) stream.write(frame);
  }

  record(entry: Omit<LogEntry, "seq" | "time">): void {
    const full: LogEntry = { seq: ++this.#seq, time: new Date().toISOString(), ...entry, params: clip(entry.params), result: clip(entry.result) };
    if (full.params === undefined) delete full.params;
    if (full.result === undefined) delete full.result;
    this.#log.push(full);
    if (this.#log.length > LOG_SIZE) this.#log = this.#log.slice(-LOG_SIZE);
    this.emit({ type: "log", entry: full });
  }

  get log(): LogEntry[] {
    return [...this.#log];
  }

  get dialogs(): Dialog[] {
    return [...this.#dialogs.values()].map((d) => d.dialog);
  }

  /**
   * Runs one request to a server, logging it and its answer with the time it took; that same time
   * is given back, so the page's answer and the log agree. Never rejects.
   */
  async trace<T>(server: string, method: string, params: unknown, run: () => Promise<T>): Promise<Traced<T>> {
    this.record({ server, kind: "request", method, params });
    const started = performance.now();
    try {
      const result = await run();
      const ms = elapsed(started);
      this.record({ server, kind: "response", method, result, ms });
      return { result, ms };
    } catch (error) {
      const ms = elapsed(started);
      this.record({ server, kind: "error", method, error: errorOf(error).message, ms });
      return { error, ms };
    }
  }

  /** {@link trace}, rejecting with the request's error when it failed. */
  async traced<T>(server: string, method: string, params: unknown, run: () => Promise<T>): Promise<{ result: T; ms: number }> {
    const outcome = await this.trace(server, method, params, run);
    if ("error" in outcome) throw outcome.error;
    return outcome;
  }

  /** Shows a dialog on every open page and waits for the user; logs it when the server gives up. */
  async ask(dialog: Dialog, method: string, signal: AbortSignal): Promise<DialogAnswer> {
    try {
      return await this.#ask(dialog, signal);
    } catch (error) {
      this.record({ server: dialog.server, kind: "error", method, error: `withdrawn before an answer: ${errorOf(error).message}` });
      throw error;
    }
  }

  #ask(dialog: Dialog, signal: AbortSignal): Promise<DialogAnswer> {
    return new Promise((resolve, reject) => {
      const close = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.#dialogs.delete(dialog.id);
        this.emit({ type: "dialog-closed", id: dialog.id });
      };
      const onAbort = (): void => {
        close();
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#dialogs.set(dialog.id, {
        dialog,
        settle: (answer) => {
          close();
          resolve(answer);
        },
      });
      this.emit({ type: "dialog", dialog });
    });
  }

  /** The user's answer to a dialog; false when no dialog has that id (answered, or withdrawn). */
  answer(answer: DialogAnswer): boolean {
    const open = this.#dialogs.get(answer.id);
    if (!open) return false;
    open.settle(answer);
    return true;
  }

  /** Elicitation handler for the manager's connections. */
  readonly onElicitation = async (server: string, params: ElicitParams, context: { signal: AbortSignal }): Promise<ElicitResult> => {
    const url = typeof params["url"] === "string" ? params["url"] : undefined;
    const dialog: Dialog = { id: randomBytes(8).toString("hex"), server, kind: "elicitation", message: params.message, requestedSchema: params.requestedSchema as JsonSchema | undefined, ...(url === undefined ? {} : { url }) };
    this.record({ server, kind: "server-request", method: "elicitation/create", params });
    const answer = await this.ask(dialog, "elicitation/create", context.signal);
    const result: ElicitResult = answer.action === "accept" && url === undefined ? { action: "accept", content: answer.content ?? {} } : { action: answer.action };
    this.record({ server, kind: "response", method: "elicitation/create", result });
    return result;
  };

  /** Sampling handler: the user writes the model's reply. */
  readonly onSampling = async (server: string, params: CreateMessageParams, context: { signal: AbortSignal }): Promise<CreateMessageResult> => {
    const messages = params.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [m.content]).map((content) => ({ role: m.role, content })));
    const dialog: Dialog = { id: randomBytes(8).toString("hex"), server, kind: "sampling", messages, systemPrompt: params.systemPrompt, maxTokens: params.maxTokens };
    this.record({ server, kind: "server-request", method: "sampling/createMessage", params });
    const answer = await this.ask(dialog, "sampling/createMessage", context.signal);
    if (answer.action !== "accept") {
      this.record({ server, kind: "error", method: "sampling/createMessage", error: "declined by the user" });
      throw Object.assign(new Error("The user declined the sampling request"), { code: -1 });
    }
    const result: CreateMessageResult = { role: "assistant", content: { type: "text", text: answer.text ?? "" }, model: "mcp-inspect (human)", stopReason: "endTurn" };
    this.record({ server, kind: "response", method: "sampling/createMessage", result });
    return result;
  };

  /** Adds an event-stream subscriber (the page's EventSource). */
  attach(stream: ServerResponse): void {
    this.#streams.add(stream);
    stream.on("close", () => this.#streams.delete(stream));
    // A page that went away mid-write is not this process's problem.
    stream.on("error", () => this.#streams.delete(stream));
  }

  keepalive(): void {
    for (const stream of this.#streams) stream.write(": keepalive\n\n");
  }

  /** Ends every stream and withdraws every dialog (the servers get `cancel`). */
  close(): void {
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
    for (const { dialog, settle } of [...this.#dialogs.values()]) settle({ id: dialog.id, action: "cancel" });
  }
}

/** A running inspector. */
export interface Inspector {
  /** The page's address, token included: what the user opens. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export interface InspectorOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** The token; random (32 bytes) by default. */
  token?: string | undefined;
}

function sameToken(given: string | undefined, token: Buffer): boolean {
  if (given === undefined) return false;
  const bytes = Buffer.from(given);
  return bytes.length === token.length && timingSafeEqual(bytes, token);
}

/** Why a request is refused before it reaches a route, or undefined when it may go on. */
export function refusalOf(req: IncomingMessage, port: number, token: Buffer): Refusal | undefined {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host;
  if (host === undefined || !hosts.includes(host.toLowerCase())) return new Refusal(403, `Host "${host ?? ""}" is not this inspector's (${hosts[0]})`);
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return new Refusal(403, `Origin "${origin}" may not use this inspector`);
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return new Refusal(403, `a ${String(site)} request may not use this inspector`);
  const url = new URL(req.url ?? "/", `http://${hosts[0]}`);
  const header = req.headers[TOKEN_HEADER];
  const given = typeof header === "string" ? header : (url.searchParams.get("token") ?? undefined);
  if (!sameToken(given, token)) return new Refusal(401, "missing or wrong token: open the URL that `mcp inspect` printed");
  return undefined;
}

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) throw new Refusal(415, "the body must be application/json");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refusal(413, `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new Refusal(400, `the body is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new Refusal(400, "the body must be a JSON object");
  return value;
}

function text(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== "string" || value === "") throw new Refusal(400, `"${key}" must be a non-empty string`);
  return value;
}

function stringRecord(value: unknown, key: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== "string")) throw new Refusal(400, `"${key}" must be an object of strings`);
  return value as Record<string, string>;
}

/** The server list the page shows: `mcp servers` rows plus what each connected server can do. */
function inspectedServers(session: Session): InspectedServer[] {
  return serverRows(session).map((row) => {
    const capabilities = session.manager.getConnection(row.name)?.capabilities ?? {};
    const resources = capabilities.resources as { subscribe?: boolean } | undefined;
    return { ...row, capabilities: Object.keys(capabilities).filter((k) => capabilities[k as keyof typeof capabilities] !== undefined), subscribe: resources?.subscribe === true };
  });
}

/** Starts the inspector's web server for a session whose manager was made with `hub`'s handlers. */
export async function startInspector(session: Session, hub: InspectorHub, options: InspectorOptions = {}): Promise<Inspector> {
  const token = options.token ?? randomBytes(32).toString("base64url");
  const tokenBytes = Buffer.from(token);
  const calls = new Map<string, AbortController>();
  const { manager } = session;

  const connection = (name: string): MCPServerConnection => {
    const found = manager.getConnection(name);
    if (!found) throw new Refusal(409, `server "${name}" is not connected (${manager.getConnectionStatus(name)?.state ?? "not configured"})`, "server_unavailable");
    return found;
  };

  /** The body's `server`, which the manager must know. */
  const managed = (body: Record<string, unknown>): string => {
    const name = text(body, "server");
    if (!manager.getConnectionStatus(name)) throw new Refusal(404, `no server named "${name}" is managed here`);
    return name;
  };

  /** Connected servers offering `capability` now (the page asks again when that set changes). */
  const offering = (capability: "resources" | "prompts" | "logging", only: unknown): string[] =>
    manager
      .getStatuses()
      .filter((s) => s.state === "connected" && (typeof only !== "string" || s.name === only) && manager.getConnection(s.name)?.capabilities[capability])
      .map((s) => s.name);


  const routes: Record<string, (body: Record<string, unknown>, res: ServerResponse) => unknown> = {
    "/api/servers/reconnect": async (body) => {
      const name = managed(body);
      await manager.reconnectServer(name).catch((error: unknown) => {
        throw new Refusal(502, `reconnecting "${name}" failed: ${errorOf(error).message}`, errorOf(error).code);
      });
      return { ok: true };
    },
    "/api/servers/disable": async (body) => {
      const name = managed(body);
      await manager.disconnectServer(name);
      return { ok: true };
    },
    "/api/call": async (body, res) => {
      const request = body as unknown as CallRequest;
      const id = text(body, "id");
      const name = text(body, "tool");
      const args = request.arguments ?? {};
      if (!isObject(args)) throw new Refusal(400, `"arguments" must be a JSON object`);
      const tool = manager.getTools().find((t) => t.name === name);
      if (!tool) throw new Refusal(404, `no tool named "${name}" (the server may have withdrawn it)`);
      if (calls.has(id)) throw new Refusal(409, `a call with id "${id}" is running`);
      const controller = new AbortController();
      calls.set(id, controller);
      // The page went away (closed, reloaded): the call is cancelled, not left running.
      const onGone = (): void => {
        if (!res.writableEnded) controller.abort(new Error("the inspector page closed the request"));
      };
      res.on("close", onGone);
      try {
        const outcome = await hub.trace(tool.serverName, "tools/call", { name: tool.toolName, arguments: args }, () =>
          tool.call(args, {
            signal: controller.signal,
            resetTimeoutOnProgress: true,
            onProgress: (p) => hub.emit({ type: "progress", id, progress: p.progress, total: p.total, message: p.message }),
          }),
        );
        if (!("error" in outcome)) return { id, ms: outcome.ms, result: outcome.result } satisfies CallAnswer;
        return { id, ms: outcome.ms, error: controller.signal.aborted ? { message: "Cancelled (the server was sent notifications/cancelled)", code: "cancelled" } : errorOf(outcome.error) } satisfies CallAnswer;
      } finally {
        calls.delete(id);
        res.off("close", onGone);
      }
    },
    "/api/cancel": (body) => {
      const controller = calls.get(text(body, "id"));
      controller?.abort(new Error("cancelled in the inspector"));
      return { ok: true, found: controller !== undefined };
    },
    "/api/resources": async (body) => {
      return resourceRows(session, offering("resources", body["server"]));
    },
    "/api/read": async (body) => {
      const server = text(body, "server");
      const uri = text(body, "uri");
      const { result, ms } = await hub.traced(server, "resources/read", { uri }, () => readResource(connection(server), uri));
      return { server, ms, contents: result.contents } satisfies ReadAnswer;
    },
    "/api/subscribe": async (body) => {
      const server = text(body, "server");
      const uri = text(body, "uri");
      const on = body["on"] !== false;
      await hub.traced(server, on ? "resources/subscribe" : "resources/unsubscribe", { uri }, () => (on ? subscribe : unsubscribe)(connection(server), uri));
      return { ok: true };
    },
    "/api/prompts": async (body) => {
      return promptRows(session, offering("prompts", body["server"]));
    },
    "/api/prompt": async (body) => {
      const server = text(body, "server");
      const name = text(body, "name");
      const args = stringRecord(body["arguments"], "arguments");
      const { result, ms } = await hub.traced(server, "prompts/get", { name, arguments: args }, () => getPrompt(connection(server), name, args));
      return { ms, description: result.description, messages: result.messages as PromptAnswer["messages"] } satisfies PromptAnswer;
    },
    "/api/complete": async (body) => {
      const request = body as unknown as CompleteRequestBody;
      const server = text(body, "server");
      const ref = request.ref;
      const argument = request.argument;
      if (!ref || typeof ref !== "object" || (ref.type !== "ref/prompt" && ref.type !== "ref/resource")) throw new Refusal(400, `"ref" must be a ref/prompt or ref/resource`);
      if (!argument || typeof argument.name !== "string" || typeof argument.value !== "string") throw new Refusal(400, `"argument" must be { name, value }`);
      const context = request.context?.arguments ? { arguments: stringRecord(request.context.arguments, "context.arguments") } : undefined;
      const { result } = await hub.traced(server, "completion/complete", { ref, argument }, () => complete(connection(server), { ref, argument, ...(context ? { context } : {}) }));
      return { values: result.completion.values };
    },
    "/api/log-level": async (body) => {
      const level = body["level"];
      if (typeof level !== "string" || !(LOG_LEVELS as readonly string[]).includes(level)) throw new Refusal(400, `"level" must be one of ${LOG_LEVELS.join(", ")}`);
      const names = offering("logging", body["server"]);
      await Promise.all(names.map((n) => hub.traced(n, "logging/setLevel", { level }, () => setLoggingLevel(connection(n), level as LoggingLevel))));
      return { servers: names };
    },
    "/api/dialog": (body) => {
      const action = body["action"];
      if (action !== "accept" && action !== "decline" && action !== "cancel") throw new Refusal(400, `"action" must be accept, decline or cancel`);
      const content = body["content"];
      if (content !== undefined && !isObject(content)) throw new Refusal(400, `"content" must be a JSON object`);
      const answered = hub.answer({ id: text(body, "id"), action, content, text: typeof body["text"] === "string" ? body["text"] : undefined });
      if (!answered) throw new Refusal(404, "that dialog is no longer open (the server withdrew it, or it was answered)");
      return { ok: true };
    },
  };

  let port = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = refusalOf(req, port, tokenBytes);
    if (refusal) return sendJson(res, refusal.status, { message: refusal.message } satisfies ApiError);
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method === "GET" && path === "/") {
      const nonce = randomBytes(16).toString("base64");
      const html = inspectorPage({ nonce, title: `mcp inspect (${session.embedded ? "embedded default" : `${Object.keys(session.configs).length} servers`})` });
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; media-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      });
      return void res.end(html);
    }
    if (req.method === "GET" && path === "/api/state") {
      return sendJson(res, 200, { servers: inspectedServers(session), tools: toolRows(manager.getTools()), log: hub.log, dialogs: hub.dialogs, version: CLI_VERSION } satisfies InspectorState);
    }
    if (req.method === "GET" && path === "/api/events") {
      res.writeHead(200, { ...SECURITY_HEADERS, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
      res.write(": mcp inspect\n\n");
      hub.attach(res);
      return;
    }
    const route = routes[path];
    if (!route) return sendJson(res, 404, { message: `no such endpoint: ${req.method ?? ""} ${path}` } satisfies ApiError);
    if (req.method !== "POST") return sendJson(res, 405, { message: `${path} takes POST` } satisfies ApiError);
    try {
      const body = await readBody(req);
      sendJson(res, 200, await route(body, res));
    } catch (error) {
      if (error instanceof Refusal) return sendJson(res, error.status, { message: error.message, ...(error.code === undefined ? {} : { code: error.code }) } satisfies ApiError);
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
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  // Live news for the page, from the moment it can be served.
  const unsubscribers = [
    manager.onStatusChange((status) => {
      hub.record({ server: status.name, kind: "status", method: status.state, ...(status.lastError ? { error: status.lastError } : {}) });
      hub.emit({ type: "servers", servers: inspectedServers(session) });
    }),
    manager.onToolsChanged(() => hub.emit({ type: "tools", tools: toolRows(manager.getTools()) })),
  ];
  const keepalive = setInterval(() => hub.keepalive(), KEEPALIVE_MS);
  keepalive.unref();

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      clearInterval(keepalive);
      for (const off of unsubscribers) off();
      for (const controller of calls.values()) controller.abort(new Error("mcp inspect is stopping"));
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `mcp inspect`: starts the inspector on the CLI's servers and runs until Ctrl-C (or SIGTERM). */
export async function inspectCommand(globals: GlobalOptions, options: { port?: number | undefined; open?: boolean | undefined }): Promise<number> {
  const hub = new InspectorHub();
  const session = await openSession(globals, {
    connect: false,
    handlers: { onElicitation: hub.onElicitation, onSampling: hub.onSampling },
    onNotification: (server, method, params) => {
      hub.record({ server, kind: method === "notifications/message" ? "log" : "notification", method, params });
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (method === "notifications/resources/updated" && typeof uri === "string") hub.emit({ type: "resource-updated", server, uri });
    },
  });
  let inspector: Inspector | undefined;
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    inspector = await startInspector(session, hub, { port: options.port }).catch((error: unknown) => {
      throw new CliError(`mcp inspect could not listen on 127.0.0.1:${options.port ?? 0}: ${(error as Error).message}`);
    });
    // Servers connect in the background: the page shows them arrive.
    session.manager.connectServers(session.configs, session.servers).catch((error: unknown) => note(`connecting: ${(error as Error).message}`));
    if (globals.json) out(JSON.stringify({ url: inspector.url, port: inspector.port }));
    else {
      out(`mcp inspect is running at ${color.bold(inspector.url)}`);
      note("Only this URL (with its token) opens it, and only from this machine. Ctrl-C stops it.");
    }
    if (options.open !== false) openInBrowser(inspector.url);
    await new Promise<void>((resolve) => stop.signal.addEventListener("abort", () => resolve(), { once: true }));
    return EXIT.ok;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await inspector?.close();
    await session.close();
  }
}
