import type { UnsupportedVersionError } from "@mcp/jsonrpc";
import { McpError, RpcError } from "@mcp/jsonrpc";
import { STATELESS_ERROR_CODES, withMeta } from "@mcp/jsonrpc/internal";
import { isHttpToken } from "@mcp/transport-http";
import type { ClientCapabilities, Implementation, LoggingLevel, Tool } from "./types.js";

/**
 * MCP revision 2026-07-28 — the stateless era: no `initialize`, version, capabilities and client
 * identity on every request's `_meta`; server→client input through multi round-trip requests.
 */

/** The stateless revisions this client speaks, newest first. */
export const STATELESS_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** Methods the stateless revision removed. */
export const REMOVED_IN_STATELESS: ReadonlySet<string> = new Set([
  "ping",
  "logging/setLevel",
  "notifications/roots/list_changed",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** Methods whose answer may be `input_required` (multi round-trip requests). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** How many input rounds one call may take before the client gives up. */
export const MAX_INPUT_ROUNDS = 8;

/** The method does not exist in the protocol revision this connection speaks. */
export class NotInProtocolRevisionError extends McpError<"not_in_protocol_revision"> {
  static override readonly brand: string = "NotInProtocolRevisionError";
  declare readonly method: string;
  declare readonly protocolVersion: string;

  constructor(serverName: string, method: string, protocolVersion: string, hint?: string) {
    super(
      "not_in_protocol_revision",
      `${method} is not part of MCP ${protocolVersion}, which MCP server "${serverName}" speaks${hint ? `; ${hint}` : ""}`,
    );
    this.method = method;
    this.protocolVersion = protocolVersion;
  }
}

/** A result the client cannot use: an unknown `resultType`, or input asked for where it is not allowed. */
export class InvalidResultError extends McpError<"invalid_message"> {
  static override readonly brand: string = "InvalidResultError";
  constructor(message: string) {
    super("invalid_message", message);
  }
}

/** `params` with the stateless revision's `_meta` added (the caller's `_meta` keys kept). */
export function withStatelessMeta(
  params: object | undefined,
  context: {
    version: string;
    capabilities: ClientCapabilities;
    clientInfo: Implementation;
    logLevel: LoggingLevel | undefined;
  },
): Record<string, unknown> {
  return withMeta(params, {
    [META.protocolVersion]: context.version,
    [META.clientCapabilities]: context.capabilities,
    [META.clientInfo]: context.clientInfo,
    ...(context.logLevel === undefined ? {} : { [META.logLevel]: context.logLevel }),
  });
}

/**
 * The version to retry with after an `UnsupportedVersionError` (once: a server may also refuse the
 * version it names, and we do not loop), or what to do instead.
 */
export function choiceAfterRejection(
  error: UnsupportedVersionError,
  retried: boolean,
  initializeVersions: readonly string[],
): { retry: string } | { initialize: true } | { none: true } {
  const retry = STATELESS_PROTOCOL_VERSIONS.find((version) => error.supported.includes(version));
  if (retry && !retried) return { retry };
  if (error.supported.some((version) => initializeVersions.includes(version))) return { initialize: true };
  return { none: true };
}

/** True for an error that only a stateless-revision server sends (so: no fallback to `initialize`). */
export function isStatelessError(error: unknown): boolean {
  return RpcError.isInstance(error) && STATELESS_ERROR_CODES.includes(error.code);
}

// ─── x-mcp-header (Mcp-Param-*) ────────────────────────────────────────────────

/** Where a tool's argument is mirrored into an `Mcp-Param-*` header. */
export interface HeaderParam {
  path: string[];
  header: string;
}

function countAnnotations(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countAnnotations(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  let count = "x-mcp-header" in value ? 1 : 0;
  for (const [key, item] of Object.entries(value)) if (key !== "x-mcp-header") count += countAnnotations(item);
  return count;
}

/**
 * The `x-mcp-header` parameters of a tool, or why the tool must be refused: each value a token,
 * unique (case-insensitively), on an integer, string or boolean property reachable from the root
 * through `properties` only.
 */
export function headerParamsOf(tool: Tool): { params: HeaderParam[] } | { invalid: string } {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  let reachable = 0;
  const walk = (schema: unknown, path: string[]): string | undefined => {
    const properties = (schema as { properties?: unknown } | undefined)?.properties;
    if (typeof properties !== "object" || properties === null) return undefined;
    for (const [key, property] of Object.entries(properties)) {
      if (typeof property !== "object" || property === null) continue;
      const annotation = (property as Record<string, unknown>)["x-mcp-header"];
      if (annotation !== undefined) {
        reachable++;
        if (typeof annotation !== "string" || !isHttpToken(annotation))
          return `x-mcp-header ${JSON.stringify(annotation)} on "${[...path, key].join(".")}" is not a valid header name`;
        if (seen.has(annotation.toLowerCase())) return `x-mcp-header "${annotation}" is used twice`;
        seen.add(annotation.toLowerCase());
        const type = (property as { type?: unknown }).type;
        if (type !== "string" && type !== "integer" && type !== "boolean")
          return `x-mcp-header "${annotation}" is on a property of type ${JSON.stringify(type)}; only string, integer and boolean are allowed`;
        params.push({ path: [...path, key], header: `Mcp-Param-${annotation}` });
      }
      const inner = walk(property, [...path, key]);
      if (inner) return inner;
    }
    return undefined;
  };
  const problem = walk(tool.inputSchema, []);
  if (problem) return { invalid: problem };
  if (countAnnotations(tool.inputSchema) !== reachable)
    return {
      invalid:
        "an x-mcp-header annotation is not reachable through properties alone (inside items, a composition keyword or $ref)",
    };
  return { params };
}

/** The `Mcp-Param-*` headers of one call (raw values; the transport encodes them). */
export function headersFor(params: HeaderParam[], args: Record<string, unknown>): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const { path, header } of params) {
    let value: unknown = args;
    for (const key of path)
      value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value === "boolean") headers[header] = value ? "true" : "false";
    else if (typeof value === "number" && Number.isSafeInteger(value)) headers[header] = String(value);
    else if (typeof value === "string") headers[header] = value;
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}
