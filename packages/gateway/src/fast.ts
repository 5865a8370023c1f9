// A path of our own for the commonest request a gateway serves: a 2026-07-28 `tools/call`, with
// or without a progress token or a log level (`_meta`), first round or retry (`requestState` and
// `inputResponses` of an `input_required` answer: the retry reaches the same pending call in the
// gateway's rounds). The SDK v2 server's pipeline (classification, validation, an instance per
// request, web Request/Response objects) costs several times the call itself; this path runs the
// very same handler (tools.ts `callTool`: routing, lists, rates, audit, rounds) and writes the
// exchange exactly as the SDK server would: a JSON answer while nothing came before the result,
// else an event stream from the first progress or log notification on (each one an
// `event: message`, at the request's log level, the result last, keep-alive comments while it
// waits); the SDK's steps for a `tools/call` result (the non-object structured-content fallback,
// content for a contentless result, the result checked — and its keys ordered — by the SDK's own
// schema; an `input_required` one checked against the capabilities the request declared;
// `resultType`, `serverInfo` in `_meta`). Anything else takes the SDK's path.
// `gateway/test/fast.test.ts`, `fast-asking.test.ts` and `fast-notify.test.ts` compare both paths
// byte for byte.

import type { IncomingHttpHeaders } from "node:http";
import {
  isInputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  specTypeSchemas,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { LoggingLevel } from "@mcp/client";
import { LEVELS } from "./asking.js";
import type { Gateway, Scope } from "./gateway.js";
import { callTool } from "./tools.js";

type Params = Record<string, unknown>;

const MODERN = "2026-07-28";
const ENVELOPE = "io.modelcontextprotocol/";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
/** The envelope keys a request on this path may carry. */
const ENVELOPE_KEYS = new Set([VERSION_KEY, CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY]);
/** What a retry may answer with: the embedded results the 2026-07-28 revision defines. */
const RESPONSES = ["CreateMessageResult", "ListRootsResult", "ElicitResult"] as const;

/** A request the fast path can serve: its id, its params, its envelope, and its `_meta` without the envelope. */
export interface PlainCall {
  id: string | number;
  params: Params;
  meta: Params;
  /** `_meta` as the handler sees it (a progress token, extension keys), or undefined. */
  own: Params | undefined;
  /** A retry's answers, by key, or undefined (a first round). */
  responses: Params | undefined;
}

/** Whether `value` parses with the SDK's schema `name`. */
function parses(name: string, value: unknown): boolean {
  const schema = (specTypeSchemas as unknown as Record<string, { safeParse(v: unknown): { success: boolean } }>)[name];
  return schema !== undefined && schema.safeParse(value).success;
}

/** A retry's `requestState` and `inputResponses` when the SDK would take them as they are: each answer a bare embedded result. */
function retryOf(params: Params): { responses: Params | undefined } | undefined {
  const state = params["requestState"];
  const responses = params["inputResponses"];
  if (state !== undefined && typeof state !== "string") return undefined;
  if (responses === undefined) return { responses: undefined };
  if (!isObject(responses)) return undefined;
  for (const entry of Object.values(responses))
    if (!isObject(entry) || "method" in entry || "result" in entry || !RESPONSES.some((name) => parses(name, entry)))
      return undefined;
  return { responses };
}

const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The request, when it is one the fast path serves exactly as the SDK server would: a single
 * JSON-RPC `tools/call` of revision 2026-07-28 whose headers agree with its body, with a valid
 * envelope (a log level allowed), a valid progress token if any, and a retry's answers each a bare
 * embedded result. Otherwise undefined (the SDK's path serves it).
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
  if ("task" in params) return undefined;
  const retry = retryOf(params);
  if (!retry) return undefined;
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
  if (!isObject(meta) || meta[VERSION_KEY] !== MODERN) return undefined;
  if ("progressToken" in meta && !parses("ProgressToken", meta["progressToken"])) return undefined;
  const level = meta[LOG_LEVEL_KEY];
  if (level !== undefined && !LEVELS.some((known) => known === level)) return undefined;
  const capabilities = meta[CAPABILITIES_KEY];
  if (!isObject(capabilities)) return undefined;
  let own: Params | undefined;
  for (const key of Object.keys(meta)) {
    if (!key.startsWith(ENVELOPE)) (own ??= {})[key] = meta[key];
    else if (!ENVELOPE_KEYS.has(key)) return undefined;
  }
  const info = meta[CLIENT_INFO_KEY];
  if (
    info !== undefined &&
    !(isObject(info) && typeof info["name"] === "string" && typeof info["version"] === "string")
  )
    return undefined;
  return { id, params, meta, own, responses: retry.responses };
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

/** What an embedded question needs the caller to have declared (the SDK's reading: modes and tools are sub-capabilities). */
function required(question: { method?: unknown; params?: unknown }): Params | undefined {
  const params = isObject(question.params) ? question.params : {};
  switch (question.method) {
    case "elicitation/create":
      return { elicitation: params["mode"] === "url" ? { url: {} } : { form: {} } };
    case "sampling/createMessage":
      return { sampling: params["tools"] !== undefined || params["toolChoice"] !== undefined ? { tools: {} } : {} };
    case "roots/list":
      return { roots: {} };
    default:
      return undefined;
  }
}

/** What of `needed` the caller did not declare (a bare `elicitation: {}` declares forms), or undefined. */
function missing(needed: Params, declared: Params): Params | undefined {
  const out: Params = {};
  for (const [capability, members] of Object.entries(needed)) {
    const has = declared[capability];
    if (has === undefined) out[capability] = members;
    else if (isObject(members) && isObject(has)) {
      const bare = capability === "elicitation" && has["form"] === undefined && has["url"] === undefined;
      const lacking = Object.keys(members).filter((m) => has[m] === undefined && !(bare && m === "form"));
      if (lacking.length > 0) out[capability] = Object.fromEntries(lacking.map((m) => [m, members[m]]));
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The SDK server's check of an `input_required` answer: each question one the caller declared it can be asked. */
function checkAsked(result: Params, meta: Params): Params {
  const questions = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
  const declared = meta[CAPABILITIES_KEY] as Params;
  for (const [key, question] of Object.entries(questions)) {
    const entry = question as { method?: unknown };
    if (!isObject(entry) || typeof entry.method !== "string")
      throw new ProtocolError(
        -32603,
        `Handler for tools/call returned an invalid input request '${key}': each inputRequests entry must be an embedded elicitation/create, sampling/createMessage, or roots/list request`,
      );
    const needed = required(entry);
    if (needed === undefined)
      throw new ProtocolError(
        -32603,
        `Handler for tools/call returned an input request '${key}' of kind '${entry.method}', which is not an embedded request the 2026-07-28 revision defines`,
      );
    const lacking = missing(needed, declared);
    if (lacking !== undefined)
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: lacking },
        `Cannot request input '${key}' (${String(entry.method)}): the request's client capabilities do not declare the required capability`,
      );
  }
  return result;
}

/** The SDK server's encoding of a `tools/call` result on 2026-07-28: `resultType`, then `serverInfo` in `_meta`. */
function encode(result: Params, serverInfo: { name: string; version: string }): Params {
  const typed = result["resultType"] === undefined ? { ...result, resultType: "complete" } : result;
  const meta = typed["_meta"];
  if (meta === undefined) return { ...typed, _meta: { [SERVER_INFO_KEY]: serverInfo } };
  if (!isObject(meta) || meta[SERVER_INFO_KEY] !== undefined) return typed;
  return { ...typed, _meta: { ...meta, [SERVER_INFO_KEY]: serverInfo } };
}

/** A JSON-RPC notification about the call, for its caller (the answer becomes an event stream at the first one). */
export type Notify = (message: { jsonrpc: "2.0"; method: string; params?: unknown }) => void;

/** What an SDK server's handler context offers, as far as a `tools/call` handler reads it. */
function contextOf(call: PlainCall, signal: AbortSignal, out: Notify): ServerContext {
  const notify = (notification: { method: string; params?: unknown }): Promise<void> => {
    if (!signal.aborted) out({ jsonrpc: "2.0", ...notification });
    return Promise.resolve();
  };
  const threshold = call.meta[LOG_LEVEL_KEY] as LoggingLevel | undefined;
  const state = call.params["requestState"];
  const mcpReq = {
    id: call.id,
    method: "tools/call",
    _meta: call.own,
    envelope: call.meta,
    signal,
    inputResponses: call.responses,
    requestState: () => state,
    // As the SDK server's: only at or above the level the request asked for; none when it asked for none.
    log: (level: string, data: unknown, logger?: string) =>
      threshold === undefined || LEVELS.indexOf(level as LoggingLevel) < LEVELS.indexOf(threshold)
        ? Promise.resolve()
        : notify({ method: "notifications/message", params: { level, data, logger } }),
    notify,
  };
  return { mcpReq } as unknown as ServerContext;
}

/** A JSON-RPC error the SDK server answers with HTTP 400 even from a handler: a question the caller did not declare it can be asked. */
const MISSING_CAPABILITY = -32021;

/**
 * Serves a call: the JSON answer's body and HTTP status, as the SDK server would have written them
 * (200, or 400 for a missing client capability). What the call sends its caller before (progress,
 * logs at the request's level) goes to `notify`, in order: then the answer is the stream's last
 * event (its status that of the stream, 200).
 */
export async function serveFast(
  gateway: Gateway,
  scope: Scope,
  call: PlainCall,
  signal: AbortSignal,
  notify: Notify,
): Promise<{ status: number; body: string }> {
  const run = gateway.audited(scope, "tools/call", (note, _request: unknown, ctx: ServerContext) =>
    callTool(gateway, scope, undefined, note, call.params, ctx, project),
  );
  try {
    const answer = await run(undefined, contextOf(call, signal, notify));
    // Questions for the caller (the gateway's rounds): checked as the SDK checks them, not as a result.
    const result = isInputRequiredResult(answer) ? checkAsked(answer, call.meta) : validate(answer);
    return { status: 200, body: JSON.stringify({ result: encode(result, gateway.info), jsonrpc: "2.0", id: call.id }) };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    const wire =
      typeof code === "number"
        ? { code: code === -32002 ? -32602 : code, message: String(message), ...(data === undefined ? {} : { data }) }
        : { code: -32603, message: String(message ?? error) };
    return {
      status: wire.code === MISSING_CAPABILITY ? 400 : 200,
      body: JSON.stringify({ jsonrpc: "2.0", id: call.id, error: wire }),
    };
  }
}
