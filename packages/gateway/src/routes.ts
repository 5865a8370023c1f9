// The gateway's request handlers: each request is routed to the upstream server that owns what it
// names (a tool or prompt by its `<server>__` prefix, a resource by the URI map) and answered with
// that server's own result.

import { callTool, complete, getPrompt, readResource, type MCPServerConnection, type Prompt, type Resource, type ResourceTemplate } from "@mcp/client";
import type { MCPTool, ToolCallOptions } from "@mcp/manager";
import { ProtocolError, ResourceNotFoundError, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { UPSTREAM_TIMEOUT_MS, type Gateway, type Scope, type Upstream } from "./gateway.js";
import { allowed, SEPARATOR, splitName } from "./policy.js";

type Params = Record<string, unknown>;

function exposed(scope: Scope, server: string, name: string): string {
  return scope.server === undefined ? `${server}${SEPARATOR}${name}` : name;
}

/**
 * The upstream server and its own name for a tool or prompt named on this scope's endpoint. A
 * server the caller may not see is answered as an unknown name.
 */
function route(gateway: Gateway, scope: Scope, name: unknown, what: string): { server: string; name: string } {
  if (typeof name !== "string") throw new ProtocolError(-32602, `${what} name missing`);
  const found = scope.server !== undefined ? { server: scope.server, name } : splitName(name, gateway.servers(scope));
  // A server the caller may not see is answered as an unknown name: its existence is not told.
  if (!found || !gateway.sees(scope, found.server)) throw new ProtocolError(-32602, `Unknown ${what}: ${name}${scope.server === undefined ? ` (names here are <server>${SEPARATOR}<name>)` : ""}`);
  return found;
}

async function each<T>(gateway: Gateway, scope: Scope, list: (server: string) => Promise<T[]>): Promise<{ server: string; item: T }[]> {
  // A server still connecting is waited for; one that failed or is disabled, or that the caller may not see, is left out.
  const names = gateway.servers(scope).filter((name) => gateway.sees(scope, name) && !["failed", "disabled"].includes(gateway.manager.getConnectionStatus(name)?.state ?? "failed"));
  const lists = await Promise.all(names.map((server) => list(server).then((items) => items.map((item) => ({ server, item })), () => [])));
  return lists.flat();
}

/** Which server serves each resource URI (the first lister wins; a clash is reported once). */
async function resourceMap(gateway: Gateway, scope: Scope, reported: Set<string>): Promise<{ resources: Resource[]; owner: Map<string, string> }> {
  const owner = new Map<string, string>();
  const resources: Resource[] = [];
  for (const { server, item } of await each(gateway, scope, (s) => gateway.manager.listResources(s))) {
    const first = owner.get(item.uri);
    if (first !== undefined) {
      if (first !== server && !reported.has(item.uri)) {
        reported.add(item.uri);
        gateway.warn(`resource ${item.uri} is listed by "${first}" and "${server}": "${first}" serves it`);
      }
      continue;
    }
    owner.set(item.uri, server);
    resources.push(item);
  }
  return { resources, owner };
}

function templateMatches(template: string, uri: string): boolean {
  const pattern = template
    .split(/(\{[^}]*\})/)
    .map((part) => (part.startsWith("{") ? (/^\{[+#]/.test(part) ? ".*" : "[^/?#]*") : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`).test(uri);
}

async function resourceOwner(gateway: Gateway, scope: Scope, uri: string, reported: Set<string>): Promise<string> {
  if (scope.server !== undefined && gateway.sees(scope, scope.server)) return scope.server;
  const { owner } = await resourceMap(gateway, scope, reported);
  const listed = owner.get(uri);
  if (listed !== undefined) return listed;
  const templates = await each(gateway, scope, (s) => gateway.manager.listResourceTemplates(s));
  // The most specific template that matches (the most fixed characters): a catch-all like `{+uri}`
  // never takes a URI another server's own template names.
  let match: { server: string; fixed: number } | undefined;
  for (const { server, item } of templates) {
    if (!templateMatches(item.uriTemplate, uri)) continue;
    const fixed = item.uriTemplate.replace(/\{[^}]*\}/g, "").length;
    if (match === undefined || fixed > match.fixed) match = { server, fixed };
  }
  if (match) return match.server;
  // -32602 with data { uri }: resource-not-found on every revision (2026-07-28 requires it; SDK 1.x always sent it).
  throw new ResourceNotFoundError(uri, `Resource not found: ${uri} (no server lists it or a template it matches)`);
}

function findTool(gateway: Gateway, server: string, name: string): MCPTool | undefined {
  return gateway.manager.getTools().find((tool) => tool.serverName === server && tool.toolName === name);
}

/** Registers every handler of a gateway server instance. */
export function registerRoutes(gateway: Gateway, server: Server, scope: Scope): void {
  const reported = new Set<string>();
  const manager = gateway.manager;
  /** The connection a request to `name` goes over: the caller's own, or the manager's. */
  const connection = (name: string, upstream: Upstream): Promise<MCPServerConnection> => (upstream.lane ? Promise.resolve(upstream.lane) : manager.waitForConnection(name, upstream.signal));

  server.setRequestHandler("tools/list", () => {
    const served = new Set(gateway.servers(scope));
    const tools = manager
      .getTools()
      .filter((tool) => served.has(tool.serverName) && allowed(scope.caller, tool.serverName, tool.toolName))
      .map((tool) => {
        // As the server listed it (icons, _meta, …), under the name of this endpoint. The gateway
        // runs a tool that needs a task to its end and answers with its result (the SDK v2 server
        // has no task results for tools/call), so `execution` is not passed on.
        const { execution: _runsAsTask, ...listed } = (tool.definition ?? { inputSchema: tool.inputSchema }) as Params;
        return { ...listed, name: exposed(scope, tool.serverName, tool.toolName) };
      });
    return { tools } as never;
  });

  server.setRequestHandler("tools/call", async (request, ctx: ServerContext) => {
    const params = request.params as Params;
    const target = route(gateway, scope, params["name"], "tool");
    if (!allowed(scope.caller, target.server, target.name)) throw new ProtocolError(-32602, `Tool ${String(params["name"])} is not allowed for caller "${scope.caller.name}"`);
    const tool = findTool(gateway, target.server, target.name);
    if (!tool) throw new ProtocolError(-32602, `Unknown tool: ${String(params["name"])}`);
    // Progress is sent in order, and all of it before the result.
    let sent: Promise<void> = Promise.resolve();
    const result = await gateway.forward(server, scope, ctx, target.server, String(params["name"]), async (upstream) => {
      const { round } = upstream;
      const token = round().mcpReq._meta?.progressToken;
      const args = (params["arguments"] ?? {}) as Params;
      const options: ToolCallOptions = {
        ...upstream.options,
        timeout: UPSTREAM_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onProgress: (progress) => {
          const now = round();
          const progressToken = now.mcpReq._meta?.progressToken ?? token;
          if (progressToken === undefined) return;
          const notification = { method: "notifications/progress" as const, params: { progressToken, progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }), ...(progress.message === undefined ? {} : { message: progress.message }) } };
          sent = sent.then(() => now.mcpReq.notify(notification)).catch(() => {});
        },
      };
      const answer = await (upstream.lane ? callTool(upstream.lane, target.name, args, options) : tool.call(args, options));
      await sent;
      return answer;
    });
    return server.projectCallToolResult(result as never, tool.outputSchema);
  });

  server.setRequestHandler("prompts/list", async () => {
    const prompts = await each<Prompt>(gateway, scope, (s) => manager.listPrompts(s));
    return { prompts: prompts.map(({ server: s, item }) => ({ ...item, name: exposed(scope, s, item.name) })) };
  });

  server.setRequestHandler("prompts/get", async (request, ctx) => {
    const params = request.params as Params;
    const target = route(gateway, scope, params["name"], "prompt");
    return (await gateway.forward(server, scope, ctx, target.server, String(params["name"]), async (upstream) => getPrompt(await connection(target.server, upstream), target.name, params["arguments"] as Record<string, string> | undefined, upstream.options))) as never;
  });

  server.setRequestHandler("resources/list", async () => ({ resources: (await resourceMap(gateway, scope, reported)).resources }));

  server.setRequestHandler("resources/templates/list", async () => {
    const templates = await each<ResourceTemplate>(gateway, scope, (s) => manager.listResourceTemplates(s));
    return { resourceTemplates: templates.map(({ item }) => item) };
  });

  server.setRequestHandler("resources/read", async (request, ctx) => {
    const uri = String((request.params as Params)["uri"]);
    const owner = await resourceOwner(gateway, scope, uri, reported);
    return (await gateway.forward(server, scope, ctx, owner, uri, async (upstream) => readResource(await connection(owner, upstream), uri, upstream.options))) as never;
  });

  server.setRequestHandler("completion/complete", async (request, ctx) => {
    const params = request.params as Params;
    const ref = params["ref"] as Params;
    let owner: string;
    let forwarded: Params;
    if (ref["type"] === "ref/prompt") {
      const target = route(gateway, scope, ref["name"], "prompt");
      owner = target.server;
      forwarded = { ...params, ref: { ...ref, name: target.name } };
    } else {
      const uri = String(ref["uri"]);
      const templates = await each<ResourceTemplate>(gateway, scope, (s) => manager.listResourceTemplates(s));
      owner = templates.find(({ item }) => item.uriTemplate === uri)?.server ?? (await resourceOwner(gateway, scope, uri, reported));
      forwarded = params;
    }
    return (await gateway.forward(server, scope, ctx, owner, JSON.stringify(ref), async (upstream) => complete(await connection(owner, upstream), forwarded as never, upstream.options))) as never;
  });
}
