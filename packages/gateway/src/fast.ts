// A path of our own for the plainest and commonest request a gateway serves: one 2026-07-28
// `tools/call` whose caller asked for no progress, no logs and no questions (it declared no
// sampling, elicitation or roots). The SDK v2 server's pipeline (classification, validation, an
// instance per request, web Request/Response objects) costs several times the call itself; this
// path runs the very same handler (tools.ts `callTool`: routing, lists, rates, audit, rounds) and
// writes the answer exactly as the SDK server would: its steps for a `tools/call` result (the
// non-object structured-content fallback, content for a contentless result, the result checked —
// and its keys ordered — by the SDK's own schema, `resultType`, `serverInfo` in `_meta`). Anything
// else takes the SDK's path. `gateway/test/fast.test.ts` compares both paths' answers byte for byte.

import type { IncomingHttpHeaders } from "node:http";
import { ProtocolError, specTypeSchemas, type ServerContext } from "@modelcontextprotocol/server";
import type { Gateway, Scope } from "./gateway.js";
import { callTool } from "./tools.js";

type Params = Record<string, unknown>;

const MODERN = "2026-07-28";
const ENVELOPE = "io.modelcontextprotocol/";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
/** Capabilities under which a server may ask the caller something: a call with them takes the SDK's path. */
const ASKING = ["sampling", "elicitation", "roots"];

/** A request the fast path can serve: its id, its params and its envelope. */
export interface PlainCall {
  id: string | number;
  params: Params;
  meta: Params;
}

const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The request, when it is one the fast path serves exactly as the SDK server would: a single
 * JSON-RPC `tools/call` of revision 2026-07-28 whose headers agree with its body, with a valid
 * envelope that declares nothing a server could ask, and no progress token, log level or
 * `input_required` answers. Otherwise undefined (the SDK's path serves it).
 */
export function plainCall(parsed: unknown, headers: IncomingHttpHeaders): PlainCall | undefined {
  if (!isObject(parsed) || parsed["jsonrpc"] !== "2.0" || parsed["method"] !== "tools/call") return undefined;
  const { id, params } = parsed;
  if ((typeof id !== "string" && (typeof id !== "number" || !Number.isSafeInteger(id))) || !isObject(params))
    return undefined;
  const name = params["name"];
  if (
    typeof name !== "string" ||
    !/^[\x21-\x7e]+$/.test(name) ||
    (params["arguments"] !== undefined && !isObject(params["arguments"]))
  )
    return undefined;
  if ("requestState" in params || "inputResponses" in params || "task" in params) return undefined;
  if (
    headers["mcp-protocol-version"] !== MODERN ||
    headers["mcp-method"] !== "tools/call" ||
    headers["mcp-name"] !== name
  )
    return undefined;
  if (!/^application\/json\s*(;|$)/i.test(headers["content-type"] ?? "")) return undefined;
  const accept = headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const meta = params["_meta"];
  if (!isObject(meta) || meta[VERSION_KEY] !== MODERN || "progressToken" in meta) return undefined;
  const capabilities = meta[CAPABILITIES_KEY];
  if (!isObject(capabilities) || ASKING.some((key) => key in capabilities)) return undefined;
  for (const key of Object.keys(meta))
    if (key.startsWith(ENVELOPE) && key !== VERSION_KEY && key !== CAPABILITIES_KEY && key !== CLIENT_INFO_KEY)
      return undefined;
  const info = meta[CLIENT_INFO_KEY];
  if (
    info !== undefined &&
    !(isObject(info) && typeof info["name"] === "string" && typeof info["version"] === "string")
  )
    return undefined;
  return { id, params, meta };
}

/** The SDK server's `projectCallToolResult` on 2026-07-28: non-object structured content also as text. */
function project(result: Params): Params {
  const structured = result["structuredContent"];
  if (structured === undefined || isObject(structured)) return result;
  const content = (result["content"] ?? []) as { type?: unknown }[];
  if (content.some((c) => c.type === "text")) return result;
  return { ...result, content: [...content, { type: "text", text: JSON.stringify(structured) }] };
}

/** Keys that make a result another family's (a task, an input_required): such a result gets no `content: []`. */
const FOREIGN = ["task", "inputRequests", "requestState"];

/** The SDK server's check of a handler's `tools/call` result: contentless ones get `content: []`; its schema decides (and orders the keys). */
function validate(result: Params): Params {
  const normalized =
    result["content"] !== undefined || FOREIGN.some((key) => key in result) ? result : { ...result, content: [] };
  // The SDK's schemas are zod underneath (typed as Standard Schema): the same parse, the same message.
  const parsed = (
    specTypeSchemas.CallToolResult as unknown as {
      safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
    }
  ).safeParse(normalized);
  if (!parsed.success) throw new ProtocolError(-32602, `Invalid tools/call result: ${String(parsed.error)}`);
  return parsed.data as Params;
}

/** The SDK server's encoding of a `tools/call` result on 2026-07-28: `resultType`, then `serverInfo` in `_meta`. */
function encode(result: Params, serverInfo: { name: string; version: string }): Params {
  const typed = result["resultType"] === undefined ? { ...result, resultType: "complete" } : result;
  const meta = typed["_meta"];
  if (meta === undefined) return { ...typed, _meta: { [SERVER_INFO_KEY]: serverInfo } };
  if (!isObject(meta) || meta[SERVER_INFO_KEY] !== undefined) return typed;
  return { ...typed, _meta: { ...meta, [SERVER_INFO_KEY]: serverInfo } };
}

/** What an SDK server's handler context offers, as far as a plain call's handler reads it. */
function contextOf(call: PlainCall, signal: AbortSignal): ServerContext {
  const mcpReq = {
    id: call.id,
    method: "tools/call",
    _meta: undefined,
    envelope: call.meta,
    signal,
    inputResponses: undefined,
    requestState: () => undefined,
    // The caller asked for no log level: the SDK server sends no log messages either.
    log: () => Promise.resolve(),
    notify: () => Promise.resolve(),
  };
  return { mcpReq } as unknown as ServerContext;
}

/** Serves a plain call: the JSON answer's body, as the SDK server would have written it (always HTTP 200). */
export async function serveFast(gateway: Gateway, scope: Scope, call: PlainCall, signal: AbortSignal): Promise<string> {
  const run = gateway.audited(scope, "tools/call", (note, _request: unknown, ctx: ServerContext) =>
    callTool(gateway, scope, undefined, note, call.params, ctx, project),
  );
  try {
    const result = validate(await run(undefined, contextOf(call, signal)));
    return JSON.stringify({ result: encode(result, gateway.info), jsonrpc: "2.0", id: call.id });
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    const wire =
      typeof code === "number"
        ? { code: code === -32002 ? -32602 : code, message: String(message), ...(data === undefined ? {} : { data }) }
        : { code: -32603, message: String(message ?? error) };
    return JSON.stringify({ jsonrpc: "2.0", id: call.id, error: wire });
  }
}
