// The inspector's routes over the manager's servers: reconnect, disable, approve held tools,
// resources (read, subscribe), prompts, completions, the servers' log level, and the answers to
// the servers' dialogs.
import type { ServerResponse } from "node:http";
import {
  complete,
  getPrompt,
  readResource,
  setLoggingLevel,
  subscribe,
  unsubscribe,
  type LoggingLevel,
  type MCPServerConnection,
} from "@mcp/client";
import { promptRows, type MCPManager } from "@mcp/manager";
import {
  LOG_LEVELS,
  type CompleteRequestBody,
  type HeldRow,
  type PromptAnswer,
  type ReadAnswer,
  type ResourceRow,
} from "./api.js";
import { errorOf, type InspectorHub } from "./hub.js";
import { isObject, Refusal, stringRecord, text } from "./http.js";

type Route = (body: Record<string, unknown>, res: ServerResponse) => unknown;

/** JSON-RPC "method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * The Resources view's rows. A server that does not implement `resources/templates/list` (many
 * declare `resources` without it) lists its resources alone; any other failure names its server.
 */
async function resourcesOf(manager: MCPManager, names: string[]): Promise<ResourceRow[]> {
  const all: ResourceRow[] = [];
  for (const name of names) {
    const list = async <T>(method: string, run: () => Promise<T[]>, lacking: T[] | undefined): Promise<T[]> => {
      try {
        return await run();
      } catch (error) {
        if (lacking && errorOf(error).code === METHOD_NOT_FOUND) return lacking;
        throw new Error(`${name}: ${method} failed: ${errorOf(error).message}`, { cause: error });
      }
    };
    const resources = await list("resources/list", () => manager.listResources(name), undefined);
    const templates = await list("resources/templates/list", () => manager.listResourceTemplates(name), []);
    for (const r of resources)
      all.push({
        server: name,
        uri: r.uri,
        name: r.name,
        mimeType: r.mimeType,
        description: r.description,
        template: false,
      });
    for (const t of templates)
      all.push({
        server: name,
        uri: t.uriTemplate,
        name: t.name,
        mimeType: t.mimeType,
        description: t.description,
        template: true,
      });
  }
  return all;
}

/** What the server routes need from the inspector. */
export interface RouteHost {
  manager: MCPManager;
  hub: InspectorHub;
  /** The held tools now (tool pinning). */
  held: () => HeldRow[];
  /** A connected server's connection (409 when it is not connected). */
  connection: (name: string) => MCPServerConnection;
  /** Servers removed from the page: the manager keeps them stopped, and no route starts them again. */
  removed?: (() => ReadonlySet<string>) | undefined;
}

export function serverRoutes({ manager, hub, held, connection, removed }: RouteHost): Record<string, Route> {
  /** The body's `server`, which the manager must know (and the page must not have removed). */
  const managed = (body: Record<string, unknown>): string => {
    const name = text(body, "server");
    if (!manager.getConnectionStatus(name) || removed?.().has(name))
      throw new Refusal(404, `no server named "${name}" is managed here`);
    return name;
  };

  /** Connected servers offering `capability` now (the page asks again when that set changes). */
  const offering = (capability: "resources" | "prompts" | "logging", only: unknown): string[] =>
    manager
      .getStatuses()
      .filter(
        (s) =>
          s.state === "connected" &&
          (typeof only !== "string" || s.name === only) &&
          manager.getConnection(s.name)?.capabilities[capability],
      )
      .map((s) => s.name);

  return {
    "/api/servers/reconnect": async (body) => {
      const name = managed(body);
      await manager.reconnectServer(name).catch((error: unknown) => {
        throw new Refusal(502, `reconnecting "${name}" failed: ${errorOf(error).message}`, errorOf(error).code);
      });
      return { ok: true };
    },
    // Approves a server's held tools (tool pinning; `mcp pins approve`): they join the tools at once.
    "/api/pins/approve": async (body) => {
      const name = managed(body);
      const tool = body["tool"] === undefined ? undefined : text(body, "tool");
      const approved = await manager.pins.approve(name, tool === undefined ? undefined : [tool]);
      if (approved.length === 0)
        throw new Refusal(404, `nothing held on "${name}"${tool === undefined ? "" : ` named "${tool}"`}`);
      hub.emit({ type: "held", held: held() });
      return { approved: approved.map((held) => held.tool) };
    },
    "/api/servers/disable": async (body) => {
      const name = managed(body);
      await manager.disconnectServer(name);
      return { ok: true };
    },
    "/api/resources": async (body) => {
      return resourcesOf(manager, offering("resources", body["server"]));
    },
    "/api/read": async (body) => {
      const server = text(body, "server");
      const uri = text(body, "uri");
      const { result, ms } = await hub.traced(server, "resources/read", { uri }, () =>
        readResource(connection(server), uri),
      );
      return { server, ms, contents: result.contents } satisfies ReadAnswer;
    },
    "/api/subscribe": async (body) => {
      const server = text(body, "server");
      const uri = text(body, "uri");
      const on = body["on"] !== false;
      await hub.traced(server, on ? "resources/subscribe" : "resources/unsubscribe", { uri }, () =>
        (on ? subscribe : unsubscribe)(connection(server), uri),
      );
      return { ok: true };
    },
    "/api/prompts": async (body) => {
      return promptRows(manager, offering("prompts", body["server"]));
    },
    "/api/prompt": async (body) => {
      const server = text(body, "server");
      const name = text(body, "name");
      const args = stringRecord(body["arguments"], "arguments");
      const { result, ms } = await hub.traced(server, "prompts/get", { name, arguments: args }, () =>
        getPrompt(connection(server), name, args),
      );
      return {
        ms,
        description: result.description,
        messages: result.messages as PromptAnswer["messages"],
      } satisfies PromptAnswer;
    },
    "/api/complete": async (body) => {
      const request = body as unknown as CompleteRequestBody;
      const server = text(body, "server");
      const ref = request.ref;
      const argument = request.argument;
      if (!ref || typeof ref !== "object" || (ref.type !== "ref/prompt" && ref.type !== "ref/resource"))
        throw new Refusal(400, `"ref" must be a ref/prompt or ref/resource`);
      if (!argument || typeof argument.name !== "string" || typeof argument.value !== "string")
        throw new Refusal(400, `"argument" must be { name, value }`);
      const context = request.context?.arguments
        ? { arguments: stringRecord(request.context.arguments, "context.arguments") }
        : undefined;
      const { result } = await hub.traced(server, "completion/complete", { ref, argument }, () =>
        complete(connection(server), { ref, argument, ...(context ? { context } : {}) }),
      );
      return { values: result.completion.values };
    },
    "/api/log-level": async (body) => {
      const level = body["level"];
      if (typeof level !== "string" || !(LOG_LEVELS as readonly string[]).includes(level))
        throw new Refusal(400, `"level" must be one of ${LOG_LEVELS.join(", ")}`);
      const names = offering("logging", body["server"]);
      await Promise.all(
        names.map((n) =>
          hub.traced(n, "logging/setLevel", { level }, () => setLoggingLevel(connection(n), level as LoggingLevel)),
        ),
      );
      return { servers: names };
    },
    "/api/dialog": (body) => {
      const action = body["action"];
      if (action !== "accept" && action !== "decline" && action !== "cancel")
        throw new Refusal(400, `"action" must be accept, decline or cancel`);
      const content = body["content"];
      if (content !== undefined && !isObject(content)) throw new Refusal(400, `"content" must be a JSON object`);
      const answered = hub.answer({
        id: text(body, "id"),
        action,
        content,
        text: typeof body["text"] === "string" ? body["text"] : undefined,
      });
      if (!answered)
        throw new Refusal(404, "that dialog is no longer open (the server withdrew it, or it was answered)");
      return { ok: true };
    },
  };
}
