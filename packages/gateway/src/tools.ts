// The gateway's tools: `tools/list` and `tools/call` on every endpoint — a server's own names on
// `<path>/<server>`, `<server>__<tool>` on `<path>`, a view's names on `<path>/view/<name>` — and
// `search_tools` where it is turned on, which finds among the tools this caller may use there.

import { callTool as callUpstream } from "@mcp/client";
import type { MCPTool, ToolCallOptions } from "@mcp/manager";
import { ProtocolError, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { Note } from "./audit.js";
import type { Gateway } from "./gateway.js";
import { UPSTREAM_TIMEOUT_MS, type Scope } from "./gateway-options.js";
import { allowed, SEPARATOR, splitName } from "./policy.js";
import { inSpan } from "./spans.js";
import { realName, viewName, viewShows } from "./views.js";

type Params = Record<string, unknown>;

/** The `_meta` key of a server's identity on a 2026-07-28 result. */
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** The name of `search_tools`, the tool that finds tools. */
export const SEARCH_TOOL = "search_tools";

/** One tool as this endpoint shows it to this caller. */
interface Shown {
  tool: MCPTool;
  name: string;
  description: string | undefined;
}

/** Every tool this scope shows its caller, under this endpoint's names. */
function shown(gateway: Gateway, scope: Scope): Shown[] {
  const served = new Set(gateway.servers(scope));
  const out: Shown[] = [];
  for (const tool of gateway.manager.getTools()) {
    if (!served.has(tool.serverName) || !allowed(scope.caller, tool.serverName, tool.toolName)) continue;
    if (scope.view) {
      if (!viewShows(scope.view, tool.serverName, tool.toolName)) continue;
      const name = viewName(scope.view, tool.serverName, tool.toolName);
      out.push({ tool, name, description: scope.view.describe[name] ?? tool.description });
    } else
      out.push({
        tool,
        name: scope.server === undefined ? `${tool.serverName}${SEPARATOR}${tool.toolName}` : tool.toolName,
        description: tool.description,
      });
  }
  return out;
}

/** Whether this endpoint offers `search_tools` (turned on, and no server tool of that name on its own endpoint). */
function offersSearch(gateway: Gateway, scope: Scope): boolean {
  return (
    gateway.toolSearch &&
    (scope.server === undefined ||
      !gateway.manager.getTools().some((t) => t.serverName === scope.server && t.toolName === SEARCH_TOOL))
  );
}

/** A tool's definition as this endpoint lists it. */
function definition({ tool, name, description }: Shown): Params {
  // As the server listed it (icons, _meta, …), under this endpoint's name. The gateway runs a tool
  // that needs a task to its end and answers with its result (the SDK v2 server has no task
  // results for tools/call), so `execution` is not passed on.
  const { execution: _runsAsTask, ...listed } = (tool.definition ?? { inputSchema: tool.inputSchema }) as Params;
  return { ...listed, name, ...(description === undefined ? {} : { description }) };
}

const searchDefinition = {
  name: SEARCH_TOOL,
  description:
    "Find tools for a task among the many this server offers. Describe what you want to do in a few words; the best matches come back with their definitions, to call by name.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What the tool should do, e.g. 'read a file'" },
      limit: { type: "integer", minimum: 1, maximum: 20, description: "How many tools (default 5)" },
    },
    required: ["query"],
  },
};

/** The tool a name on this endpoint stands for, for this caller; a refusal the audit log calls "denied" when the policy is why. */
function resolve(gateway: Gateway, scope: Scope, name: unknown, note: Note): Shown {
  if (typeof name !== "string") throw new ProtocolError(-32602, "tool name missing");
  const unknown = (): ProtocolError =>
    new ProtocolError(
      -32602,
      `Unknown tool: ${name}${scope.server === undefined && !scope.view ? ` (names here are <server>${SEPARATOR}<name>)` : ""}`,
    );
  const qualified = scope.view ? realName(scope.view, name) : name;
  const found =
    scope.server !== undefined ? { server: scope.server, name } : splitName(qualified, gateway.servers(scope));
  if (!found) throw unknown();
  note.server = found.server;
  note.tool = `${found.server}${SEPARATOR}${found.name}`;
  if (scope.view) note.viewTool = name;
  const tool = gateway.tool(found.server, found.name);
  const hidden = scope.view
    ? !(
        tool &&
        viewShows(scope.view, found.server, found.name) &&
        viewName(scope.view, found.server, found.name) === name
      )
    : !gateway.sees(scope, found.server);
  if (hidden) {
    note.decision = "denied";
    throw unknown();
  }
  if (!allowed(scope.caller, found.server, found.name)) {
    note.decision = "denied";
    throw new ProtocolError(-32602, `Tool ${name} is not allowed for caller "${scope.caller.name}"`);
  }
  if (!tool) throw unknown();
  return { tool, name, description: undefined };
}

/** `search_tools`: the manager's search, kept to what this caller may use on this endpoint. */
function search(gateway: Gateway, scope: Scope, args: Params): Params {
  const query = typeof args["query"] === "string" ? args["query"] : "";
  const limit = typeof args["limit"] === "number" && args["limit"] >= 1 ? Math.min(20, Math.floor(args["limit"])) : 5;
  const here = new Map(shown(gateway, scope).map((s) => [s.tool, s]));
  const found = gateway.manager
    .searchTools(query, { limit: 200 })
    .flatMap((tool) => here.get(tool) ?? [])
    .slice(0, limit);
  const text =
    found.length === 0
      ? `No tool matches "${query}". Try other words.`
      : `${found.length} tool${found.length === 1 ? "" : "s"} for "${query}":\n${found.map((s) => `- ${s.name}${s.description ? `: ${s.description.split("\n")[0]}` : ""}`).join("\n")}`;
  return { content: [{ type: "text", text }], structuredContent: { tools: found.map(definition) } };
}

/** Registers `tools/list` and `tools/call` of a gateway server instance. */
export function registerToolRoutes(gateway: Gateway, server: Server, scope: Scope): void {
  const searching = offersSearch(gateway, scope);

  server.setRequestHandler(
    "tools/list",
    gateway.audited(scope, "tools/list", () =>
      Promise.resolve({
        tools: [...(searching ? [searchDefinition] : []), ...shown(gateway, scope).map(definition)],
      } as never),
    ),
  );

  server.setRequestHandler(
    "tools/call",
    gateway.audited(
      scope,
      "tools/call",
      (note, request, ctx: ServerContext) =>
        callTool(gateway, scope, server, note, request.params as Params, ctx, (result, schema) =>
          server.projectCallToolResult(result as never, schema as never),
        ) as never,
    ),
  );
}

/** How a call's result is put on the wire (the SDK server's `projectCallToolResult`, or the fast path's copy of it). */
export type Project = (result: Params, outputSchema: unknown) => Params;

/**
 * One `tools/call` of a scope: `search_tools`, or a tool routed to its server (its caller's lists
 * and rates checked), its progress passed on in order. Shared by the SDK server's handler and the
 * fast path (fast.ts), so both answer alike.
 */
export async function callTool(
  gateway: Gateway,
  scope: Scope,
  server: Server | undefined,
  note: Note,
  params: Params,
  ctx: ServerContext,
  project: Project,
): Promise<Params> {
  const searching = offersSearch(gateway, scope);
  const args = (params["arguments"] ?? {}) as Params;
  note.args = args;
  if (searching && params["name"] === SEARCH_TOOL) return search(gateway, scope, args);
  const { tool } = resolve(gateway, scope, params["name"], note);
  await gateway.limits.check(scope.caller, { server: tool.serverName, name: tool.toolName });
  const call = (): Promise<unknown> =>
    gateway.forward(
      server,
      scope,
      ctx,
      tool.serverName,
      String(params["name"]),
      async (upstream) => {
        // Progress goes through the call's outbox, in order with its logs and questions, and all of it before the result.
        const { round, outbox } = upstream;
        const token = round().mcpReq._meta?.progressToken;
        const options: ToolCallOptions = {
          ...upstream.options,
          timeout: UPSTREAM_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          logLevel: upstream.logLevel,
          // With the gateway's own spans, @mcp/client sends its span's context instead (a child of the gateway's).
          ...(scope.trace && !gateway.tracing ? { headers: { ...scope.trace } } : {}),
          onProgress: (progress) => {
            const now = round();
            const progressToken = now.mcpReq._meta?.progressToken ?? token;
            if (progressToken === undefined) return;
            const notification = {
              method: "notifications/progress" as const,
              params: {
                progressToken,
                progress: progress.progress,
                ...(progress.total === undefined ? {} : { total: progress.total }),
                ...(progress.message === undefined ? {} : { message: progress.message }),
              },
            };
            outbox.send(() => now.mcpReq.notify(notification));
          },
        };
        const answer = await (upstream.lane
          ? callUpstream(upstream.lane, tool.toolName, args, options)
          : tool.call(args, options));
        await outbox.finish();
        return answer;
      },
      note,
    );
  // With tracing, the call goes upstream inside the gateway's span (the caller's trace continued).
  const result = await (gateway.tracing
    ? inSpan(gateway.tracing, scope.trace, String(params["name"]), { "mcp.server.name": tool.serverName }, call)
    : call());
  return project(ownMeta(result as Params), tool.outputSchema);
}

/**
 * An upstream result as the gateway's own: the upstream server's identity (`_meta`'s
 * `io.modelcontextprotocol/serverInfo`) is not passed on — the gateway answers with its own.
 */
export function ownMeta<T extends Params>(result: T): T {
  const meta = result["_meta"] as Params | undefined;
  if (typeof meta !== "object" || meta === null || !(SERVER_INFO in meta)) return result;
  const { [SERVER_INFO]: _upstream, ...rest } = meta;
  return { ...result, _meta: rest };
}
