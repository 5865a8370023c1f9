// MCP Apps in the inspector, the server's side: a tool's app opened (its ui:// resource read and
// checked), and every message the app sends logged; its `tools/call` runs as the user's own calls
// do (the same route: logged, cancellable, ended with the page), limited to the tools of the app's
// own server that let apps call them; its `resources/read` reads from that server only.
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { readResource, type MCPServerConnection } from "@mcp/client";
import { readUiResource, toolUi, type UiPermissions } from "@mcp/client/apps";
import type { MCPManager, MCPTool } from "@mcp/manager";
import { APP_MESSAGE_PART_CHARS, MAX_APP_MESSAGE_CHARS } from "./api-apps.js";
import type { AppMessageAnswer, AppOpenAnswer, CallAnswer } from "./api.js";
import { errorOf, type InspectorHub } from "./hub.js";
import { isObject, Refusal, text } from "./http.js";
import type { AppSandbox, SandboxOrigins } from "./sandbox-origins.js";

/** Apps open at once; opening one more forgets the oldest. */
const MAX_VIEWS = 32;

/** One rendering of a tool's app. */
interface View {
  server: string;
  tool: string;
  sandbox: AppSandbox;
  /** The page that opened it (its id), when it said. */
  page: string | undefined;
  /** A message too big for one body, as its parts arrive (one at a time per view). */
  parts?: { id: string; count: number; data: string[]; chars: number } | undefined;
}

/**
 * One part of an app message too big for one body (see `AppMessagePart`): kept until the last,
 * which gives the whole message. Parts come in order, for one message at a time; the whole is at
 * most {@link MAX_APP_MESSAGE_CHARS} characters.
 */
function messagePart(view: View, part: unknown): unknown {
  const p = part as { id?: unknown; index?: unknown; count?: unknown; data?: unknown };
  const maxParts = Math.ceil(MAX_APP_MESSAGE_CHARS / APP_MESSAGE_PART_CHARS);
  if (
    !isObject(part) ||
    typeof p.id !== "string" ||
    typeof p.data !== "string" ||
    p.data.length > APP_MESSAGE_PART_CHARS ||
    !Number.isInteger(p.count) ||
    !Number.isInteger(p.index)
  )
    throw new Refusal(
      400,
      `"part" must be { id, index, count, data } with at most ${APP_MESSAGE_PART_CHARS} characters of data`,
    );
  const count = p.count as number;
  const index = p.index as number;
  if (count < 2 || count > maxParts)
    throw new Refusal(
      413,
      `an app message is at most ${MAX_APP_MESSAGE_CHARS} characters (${maxParts} parts); this one has ${count} parts`,
    );
  if (index === 0) view.parts = { id: p.id, count, data: [], chars: 0 };
  const parts = view.parts;
  if (!parts || parts.id !== p.id || parts.count !== count || index !== parts.data.length) {
    view.parts = undefined;
    throw new Refusal(
      400,
      `part ${index} of app message "${p.id}" is out of order (parts come 0, 1, … in order, one message at a time)`,
    );
  }
  parts.data.push(p.data);
  parts.chars += p.data.length;
  if (parts.chars > MAX_APP_MESSAGE_CHARS) {
    view.parts = undefined;
    throw new Refusal(413, `an app message is at most ${MAX_APP_MESSAGE_CHARS} characters`);
  }
  if (parts.data.length < count) return undefined;
  view.parts = undefined;
  try {
    return JSON.parse(parts.data.join("")) as unknown;
  } catch (error) {
    throw new Refusal(400, `app message "${p.id}" is not JSON once its parts are joined: ${(error as Error).message}`);
  }
}

/** What the app routes need from the inspector. */
export interface AppHost {
  manager: MCPManager;
  /** The host the apps are told they run in (`ui/initialize`). */
  hostInfo: { name: string; version: string };
  hub: InspectorHub;
  /** Where each app gets its origin. */
  sandboxes: SandboxOrigins;
  connection(name: string): MCPServerConnection;
  /** Runs a tool call as `POST /api/call` does. */
  runCall(tool: MCPTool, args: Record<string, unknown>, id: string, res: ServerResponse): Promise<CallAnswer>;
}

type Route = (body: Record<string, unknown>, res: ServerResponse) => unknown;
type Response = NonNullable<AppMessageAnswer["response"]>;

/** The spec's permission names (`_meta.ui.permissions`) and the Permissions Policy features they map to. */
const FEATURES = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
} as const;

/** The features a resource's checked `_meta.ui.permissions` asks for. */
function permissionFeatures(permissions: UiPermissions | undefined): string[] {
  return Object.entries(FEATURES)
    .filter(([name]) => permissions?.[name as keyof UiPermissions] !== undefined)
    .map(([, feature]) => feature);
}

function failure(id: string | number, code: number, message: string): Response {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** A JSON-RPC error for what a call answered: the server's own code when it sent one. */
function errorResponse(id: string | number, error: { message: string; code?: string | number | undefined }): Response {
  return failure(id, typeof error.code === "number" ? error.code : -32603, error.message);
}

/** The routes `/api/app/open`, `/api/app/message` and `/api/app/close`; a view ends with its page (its `page` in `/api/app/open`). */
export function appRoutes(host: AppHost): Record<string, Route> {
  const { manager, hub } = host;
  const views = new Map<string, View>();

  /** Forgets a view and ends its origin. */
  const close = async (id: string): Promise<void> => {
    const view = views.get(id);
    views.delete(id);
    await view?.sandbox.close();
  };

  // A page that is gone (reloaded, closed) takes its apps' origins with it.
  hub.onPageGone((page) => {
    for (const [id, view] of views) if (view.page === page) void close(id);
  });

  const viewOf = (body: Record<string, unknown>): View => {
    const view = views.get(text(body, "view"));
    if (!view) throw new Refusal(404, "no such app view (it was closed, or the inspector restarted)");
    return view;
  };

  /** The app's `tools/call`: a tool of its own server that lets apps call it, run as the user's calls run. */
  const callFromApp = async (
    view: View,
    id: string | number,
    params: Record<string, unknown>,
    res: ServerResponse,
  ): Promise<Response> => {
    const name = params["name"];
    const args = params["arguments"] ?? {};
    if (typeof name !== "string") return failure(id, -32602, 'tools/call needs a "name"');
    if (!isObject(args)) return failure(id, -32602, '"arguments" must be a JSON object');
    const tool = manager.getTools().find((t) => t.serverName === view.server && t.toolName === name);
    if (!tool)
      return failure(
        id,
        -32602,
        `no tool "${name}" on server "${view.server}": an app calls only the tools of its own server`,
      );
    const visibility = toolUi(tool.definition ?? {})?.visibility ?? ["model", "app"];
    if (!visibility.includes("app"))
      return failure(
        id,
        -32000,
        `tool "${name}" is not callable by apps (its _meta.ui.visibility is ${JSON.stringify(visibility)})`,
      );
    const answer = await host.runCall(tool, args, `app-${randomBytes(8).toString("hex")}`, res);
    return answer.error ? errorResponse(id, answer.error) : { jsonrpc: "2.0", id, result: answer.result };
  };

  return {
    "/api/app/open": async (body): Promise<AppOpenAnswer> => {
      const name = text(body, "tool");
      const tool = manager.getTools().find((t) => t.name === name);
      if (!tool) throw new Refusal(404, `no tool named "${name}" (the server may have withdrawn it)`);
      const ui = toolUi(tool.definition ?? {});
      if (!ui) throw new Refusal(400, `tool "${name}" has no app (no ui:// resource in its _meta.ui)`);
      const { result: app } = await hub.traced(tool.serverName, "resources/read", { uri: ui.resourceUri }, () =>
        readUiResource(host.connection(tool.serverName), ui.resourceUri),
      );
      const view = randomBytes(16).toString("hex");
      const permissions = permissionFeatures(app.meta.permissions);
      const sandbox = await host.sandboxes.open(app.meta.csp ?? {}, permissions);
      views.set(view, {
        server: tool.serverName,
        tool: tool.toolName,
        sandbox,
        page: typeof body["page"] === "string" ? body["page"] : undefined,
      });
      if (views.size > MAX_VIEWS) await close(views.keys().next().value!);
      return {
        view,
        server: tool.serverName,
        uri: app.uri,
        html: app.html,
        csp: app.meta.csp ?? {},
        prefersBorder: app.meta.prefersBorder,
        ignored: app.ignored,
        permissions,
        sandbox: sandbox.url,
        frame: sandbox.frame,
        tool: tool.definition ?? { name: tool.toolName, inputSchema: tool.inputSchema },
        host: host.hostInfo,
      };
    },
    "/api/app/message": async (body, res): Promise<AppMessageAnswer> => {
      const view = viewOf(body);
      const message = body["part"] === undefined ? body["message"] : messagePart(view, body["part"]);
      if (body["part"] !== undefined && message === undefined) return {}; // more parts to come
      if (!isObject(message) || message["jsonrpc"] !== "2.0")
        throw new Refusal(400, '"message" must be a JSON-RPC 2.0 message');
      const method = typeof message["method"] === "string" ? message["method"] : undefined;
      const id = typeof message["id"] === "string" || typeof message["id"] === "number" ? message["id"] : undefined;
      // Every message the app sends is in the log, as it sent it.
      hub.record({
        server: view.server,
        kind: "app",
        method: method ?? "(answer)",
        params: method ? message["params"] : (message["result"] ?? message["error"]),
      });
      if (method === undefined || id === undefined) return {};
      const params = isObject(message["params"]) ? message["params"] : {};
      switch (method) {
        case "tools/call":
          return { response: await callFromApp(view, id, params, res) };
        case "resources/read": {
          const uri = params["uri"];
          if (typeof uri !== "string") return { response: failure(id, -32602, 'resources/read needs a "uri"') };
          const outcome = await hub.trace(view.server, "resources/read", { uri }, () =>
            readResource(host.connection(view.server), uri),
          );
          return {
            response:
              "error" in outcome
                ? errorResponse(id, errorOf(outcome.error))
                : { jsonrpc: "2.0", id, result: outcome.result },
          };
        }
        case "ping":
          return { response: { jsonrpc: "2.0", id, result: {} } };
        default:
          return {}; // ui/* requests: the page answers them
      }
    },
    "/api/app/close": async (body) => {
      await close(text(body, "view"));
      return { ok: true };
    },
  };
}
