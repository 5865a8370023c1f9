// The gateway's prompts, resources and completions: each request is routed to the upstream server
// that owns what it names (a prompt by its `<server>__` prefix, a resource by the URI map) and
// answered with that server's own result. Tools are in tools.ts.

import {
  complete,
  getPrompt,
  readResource,
  type MCPServerConnection,
  type Prompt,
  type Resource,
  type ResourceTemplate,
} from "@mcp/client";
import { ProtocolError, ResourceNotFoundError, type Server } from "@modelcontextprotocol/server";
import type { Note } from "./audit.js";
import type { Gateway } from "./gateway.js";
import type { Scope, Upstream } from "./gateway-options.js";
import { allowed, resourcesAllowed, SEPARATOR, splitName } from "./policy.js";
import { ownMeta, registerToolRoutes } from "./tools.js";

type Params = Record<string, unknown>;

/**
 * The upstream server and its own name for a tool or prompt named on this scope's endpoint. A
 * server the caller may not see is answered as an unknown name.
 */
function route(
  gateway: Gateway,
  scope: Scope,
  name: unknown,
  what: string,
  note: Note,
): { server: string; name: string } {
  if (typeof name !== "string") throw new ProtocolError(-32602, `${what} name missing`);
  const found = scope.server !== undefined ? { server: scope.server, name } : splitName(name, gateway.servers(scope));
  if (found) note.server = found.server;
  // A server the caller may not see, or a prompt its patterns do not allow, is answered as an unknown name: its existence is not told.
  if (found && (!gateway.sees(scope, found.server) || !allowed(scope.caller, found.server, found.name)))
    note.decision = "denied";
  if (!found || note.decision)
    throw new ProtocolError(
      -32602,
      `Unknown ${what}: ${name}${scope.server === undefined ? ` (names here are <server>${SEPARATOR}<name>)` : ""}`,
    );
  return found;
}

async function each<T>(
  gateway: Gateway,
  scope: Scope,
  list: (server: string) => Promise<T[]>,
  resources = false,
): Promise<{ server: string; item: T }[]> {
  // A server still connecting is waited for; one that failed, is disabled or not approved, or that the caller may not see (or, for resources, read), is left out.
  const names = gateway
    .servers(scope)
    .filter(
      (name) =>
        gateway.sees(scope, name) &&
        (!resources || resourcesAllowed(scope.caller, name)) &&
        !["failed", "disabled", "not-approved"].includes(gateway.manager.getConnectionStatus(name)?.state ?? "failed"),
    );
  const lists = await Promise.all(
    names.map((server) =>
      list(server).then(
        (items) => items.map((item) => ({ server, item })),
        () => [],
      ),
    ),
  );
  return lists.flat();
}

/** Which server serves each resource URI (the first lister wins; a clash is reported once). */
async function resourceMap(
  gateway: Gateway,
  scope: Scope,
  reported: Set<string>,
): Promise<{ resources: Resource[]; owner: Map<string, string> }> {
  const owner = new Map<string, string>();
  const resources: Resource[] = [];
  for (const { server, item } of await each(gateway, scope, (s) => gateway.manager.listResources(s), true)) {
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
    .map((part) =>
      part.startsWith("{") ? (/^\{[+#]/.test(part) ? ".*" : "[^/?#]*") : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${pattern}$`).test(uri);
}

async function resourceOwner(gateway: Gateway, scope: Scope, uri: string, reported: Set<string>): Promise<string> {
  if (scope.server !== undefined && gateway.sees(scope, scope.server) && resourcesAllowed(scope.caller, scope.server))
    return scope.server;
  const { owner } = await resourceMap(gateway, scope, reported);
  const listed = owner.get(uri);
  if (listed !== undefined) return listed;
  const templates = await each(gateway, scope, (s) => gateway.manager.listResourceTemplates(s), true);
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

/** Registers every handler of a gateway server instance. */
export function registerRoutes(gateway: Gateway, server: Server, scope: Scope): void {
  const reported = new Set<string>();
  const manager = gateway.manager;
  /** The connection a request to `name` goes over: the caller's own, or the manager's. */
  const connection = (name: string, upstream: Upstream): Promise<MCPServerConnection> =>
    upstream.lane ? Promise.resolve(upstream.lane) : manager.waitForConnection(name, upstream.signal);

  registerToolRoutes(gateway, server, scope);

  server.setRequestHandler(
    "prompts/list",
    gateway.audited(scope, "prompts/list", async () => {
      const prompts = (await each<Prompt>(gateway, scope, (s) => manager.listPrompts(s))).filter(
        ({ server: s, item }) => allowed(scope.caller, s, item.name),
      );
      return {
        prompts: prompts.map(({ server: s, item }) => ({
          ...item,
          name: scope.server === undefined ? `${s}${SEPARATOR}${item.name}` : item.name,
        })),
      };
    }),
  );

  server.setRequestHandler(
    "prompts/get",
    gateway.audited(scope, "prompts/get", async (note, request, ctx) => {
      const params = request.params as Params;
      note.args = params["arguments"] ?? {};
      const target = route(gateway, scope, params["name"], "prompt", note);
      note.prompt = `${target.server}${SEPARATOR}${target.name}`;
      await gateway.limits.check(scope.caller, target);
      return ownMeta(
        (await gateway.forward(
          server,
          scope,
          ctx,
          target.server,
          String(params["name"]),
          async (upstream) =>
            getPrompt(
              await connection(target.server, upstream),
              target.name,
              params["arguments"] as Record<string, string> | undefined,
              upstream.options,
            ),
          note,
        )) as Params,
      ) as never;
    }),
  );

  server.setRequestHandler(
    "resources/list",
    gateway.audited(scope, "resources/list", async () => ({
      resources: (await resourceMap(gateway, scope, reported)).resources,
    })),
  );

  server.setRequestHandler(
    "resources/templates/list",
    gateway.audited(scope, "resources/templates/list", async () => {
      const templates = await each<ResourceTemplate>(gateway, scope, (s) => manager.listResourceTemplates(s), true);
      return { resourceTemplates: templates.map(({ item }) => item) };
    }),
  );

  server.setRequestHandler(
    "resources/read",
    gateway.audited(scope, "resources/read", async (note, request, ctx) => {
      const uri = String((request.params as Params)["uri"]);
      note.resource = uri;
      const owner = await resourceOwner(gateway, scope, uri, reported);
      note.server = owner;
      // Rates apply to a server's resources as to a tool named `*` of it (`<server>__*`, `<server>`, `*`).
      await gateway.limits.check(scope.caller, { server: owner, name: "*" });
      return ownMeta(
        (await gateway.forward(server, scope, ctx, owner, uri, async (upstream) =>
          readResource(await connection(owner, upstream), uri, upstream.options),
        )) as Params,
      ) as never;
    }),
  );

  server.setRequestHandler(
    "completion/complete",
    gateway.audited(scope, "completion/complete", async (note, request, ctx) => {
      const params = request.params as Params;
      const ref = params["ref"] as Params;
      note.args = params["argument"] ?? {};
      let owner: string;
      let forwarded: Params;
      let subject: { server: string; name: string };
      if (ref["type"] === "ref/prompt") {
        const target = route(gateway, scope, ref["name"], "prompt", note);
        note.prompt = `${target.server}${SEPARATOR}${target.name}`;
        owner = target.server;
        subject = target;
        forwarded = { ...params, ref: { ...ref, name: target.name } };
      } else {
        const uri = String(ref["uri"]);
        note.resource = uri;
        const templates = await each<ResourceTemplate>(gateway, scope, (s) => manager.listResourceTemplates(s), true);
        owner =
          templates.find(({ item }) => item.uriTemplate === uri)?.server ??
          (await resourceOwner(gateway, scope, uri, reported));
        note.server = owner;
        subject = { server: owner, name: "*" };
        forwarded = params;
      }
      await gateway.limits.check(scope.caller, subject);
      return ownMeta(
        (await gateway.forward(
          server,
          scope,
          ctx,
          owner,
          JSON.stringify(ref),
          async (upstream) => complete(await connection(owner, upstream), forwarded as never, upstream.options),
          note,
        )) as Params,
      ) as never;
    }),
  );
}
