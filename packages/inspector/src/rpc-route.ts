// The inspector's raw side: a ping (a liveness round trip, timed) and a JSON-RPC request the page
// builds itself (method and params), sent to one server, with its answer given back as it came.
// Both are the page user's own action, behind the same token, Host and Origin gate as every route.
import type { ServerResponse } from "node:http";
import { notifyRootsListChanged, roundTrip, RpcError, type MCPServerConnection, type Root } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import type { PingAnswer, RootsAnswer, RpcAnswer } from "./api.js";
import type { InspectorHub } from "./hub.js";
import { errorOf } from "./hub.js";
import { isObject, Refusal, text } from "./http.js";

type Route = (body: Record<string, unknown>, res: ServerResponse) => unknown;

/** A method name as JSON-RPC allows one here: no whitespace, at most 200 characters. */
const METHOD = /^\S{1,200}$/;

/** The body's `roots`: each `{ uri, name? }` with a `file://` URI (as roots are), at most 100. */
function rootsOf(value: unknown): Root[] {
  if (!Array.isArray(value) || value.length > 100)
    throw new Refusal(400, `"roots" must be an array of at most 100 { uri, name? }`);
  return value.map((root: unknown, i) => {
    if (!isObject(root) || typeof root["uri"] !== "string" || !root["uri"].startsWith("file://"))
      throw new Refusal(400, `roots[${i}]: "uri" must be a file:// URI`);
    if (root["name"] !== undefined && typeof root["name"] !== "string")
      throw new Refusal(400, `roots[${i}]: "name" must be a string`);
    return {
      uri: root["uri"],
      ...(typeof root["name"] === "string" && root["name"] !== "" ? { name: root["name"] } : {}),
    };
  });
}

/** An abort signal that fires when the page's request goes away (closed tab, reload). */
function goneSignal(res: ServerResponse): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!res.writableEnded) controller.abort(new Error("the inspector page closed the request"));
  };
  res.on("close", onClose);
  return { signal: controller.signal, done: () => res.off("close", onClose) };
}

/** The answer's error: the JSON-RPC error object as the server sent it, or what went wrong on the way. */
function rpcError(error: unknown): RpcAnswer["error"] {
  if (RpcError.isInstance(error))
    return { code: error.code, message: error.rpcMessage, ...(error.data === undefined ? {} : { data: error.data }) };
  return errorOf(error);
}

/**
 * `POST /api/ping` `{ server }` and `POST /api/rpc` `{ server, method, params? }`. A server that
 * answers with a JSON-RPC error is not a failure of the route: the answer carries the error as the
 * server sent it. Bad input (no method, params not an object) is refused with 400.
 */
export function rpcRoutes(
  hub: InspectorHub,
  connection: (name: string) => MCPServerConnection,
  manager: MCPManager,
): Record<string, Route> {
  return {
    // The roots the page declares: every server's roots/list answers them from now on, and each
    // connected server that can be told (a 2025-era session) gets notifications/roots/list_changed.
    "/api/roots": async (body) => {
      const roots = rootsOf(body["roots"]);
      hub.roots = roots;
      const notified: string[] = [];
      for (const status of manager.getStatuses()) {
        const peer = status.state === "connected" ? manager.getConnection(status.name) : undefined;
        if (!peer || peer.era === "2026-07-28") continue;
        try {
          await notifyRootsListChanged(peer);
          hub.record({ server: status.name, kind: "request", method: "notifications/roots/list_changed" });
          notified.push(status.name);
        } catch (error) {
          hub.record({
            server: status.name,
            kind: "error",
            method: "notifications/roots/list_changed",
            error: errorOf(error).message,
          });
        }
      }
      return { roots, notified } satisfies RootsAnswer;
    },
    "/api/ping": async (body, res) => {
      const server = text(body, "server");
      const peer = connection(server);
      const method = peer.era === "2026-07-28" ? "server/discover" : "ping";
      const { signal, done } = goneSignal(res);
      try {
        const outcome = await hub.trace(server, method, {}, () => roundTrip(peer, { signal }));
        return (
          "error" in outcome ? { method, ms: outcome.ms, error: rpcError(outcome.error) } : { method, ms: outcome.ms }
        ) satisfies PingAnswer;
      } finally {
        done();
      }
    },
    "/api/rpc": async (body, res) => {
      const server = text(body, "server");
      const method = text(body, "method");
      if (!METHOD.test(method))
        throw new Refusal(
          400,
          `"method" must be a JSON-RPC method name (no spaces, at most 200 characters), not ${JSON.stringify(method.slice(0, 60))}`,
        );
      const params = body["params"];
      if (params !== undefined && !isObject(params))
        throw new Refusal(400, `"params" must be a JSON object when given (MCP params are by name)`);
      const peer = connection(server);
      const { signal, done } = goneSignal(res);
      try {
        const outcome = await hub.trace(server, method, params, () => peer.request(method, params, { signal }));
        return (
          "error" in outcome
            ? { ms: outcome.ms, error: rpcError(outcome.error) }
            : { ms: outcome.ms, result: outcome.result }
        ) satisfies RpcAnswer;
      } finally {
        done();
      }
    },
  };
}
