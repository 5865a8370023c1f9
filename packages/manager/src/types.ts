// The manager's public types: server states and statuses, tools, call and manager options, and its errors.
import {
  McpError,
  type CallToolOptions,
  type ClientErrorCode,
  type CallToolResult,
  type ConnectOptions,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitParams,
  type ElicitResult,
  type LogMessage,
  type NotificationContext,
  type RequestContext,
  type Root,
  type Tool,
} from "@mcp/client";
import type { OAuthErrorCode } from "@mcp/oauth";
import type { ManagerOAuthOptions } from "./oauth.js";
import type { ToolCache } from "./cache.js";
import type { DiscoveredServer, LoadOptions } from "./config/types.js";
import type { ReconnectPolicy } from "./limit.js";
import type { ApprovalPolicy, ApprovalRefusal } from "./approvals/policy.js";
import type { PinOptions } from "./pins/types.js";

/**
 * Where a server stands. `idle`: registered by `addServers` and not started yet (its cached tools,
 * if any, are offered; using it starts it). `not-approved`: a project server the approval policy
 * refused (see {@link MCPManagerOptions.approvals}); it never starts, and `refusal` says why.
 */
export type ServerState = "idle" | "connecting" | "connected" | "reconnecting" | "failed" | "disabled" | "not-approved";

/** Everything the manager knows about one server's health. */
export interface ServerStatus {
  name: string;
  state: ServerState;
  transport: "stdio" | "http" | "sse";
  /** The config file the server came from, when discovered. */
  source: string | undefined;
  scope: DiscoveredServer["source"]["scope"] | undefined;
  /** ms the last successful connect took (handshake and tool list). */
  connectMs: number | undefined;
  lastError: string | undefined;
  /** The `code` of the last error (`"spawn_failed"`, `"network_error"`, `"http_error"`, a JSON-RPC number, …). */
  lastErrorCode: string | number | undefined;
  /** The HTTP status of the last error, when it was an HTTP answer (401 means: needs authorization). */
  lastErrorStatus: number | undefined;
  /** The last lines a stdio server wrote to stderr, once it failed or died. */
  stderrTail: string | undefined;
  toolCount: number;
  /** True while the tools offered are the cached list, not the live one. */
  toolsFromCache: boolean;
  /** Failures counted in the current window (see {@link ReconnectPolicy}). */
  failures: number;
  /** ms since the epoch when the state last changed. */
  since: number;
  /** Set when the state is `not-approved`: why, and what approves it. */
  refusal?: ApprovalRefusal | undefined;
}

/** One tool of one server, named for a model. */
export interface MCPTool {
  /** `mcp__<server>__<tool>`, sanitised to `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  serverName: string;
  /** The server's own name for it. */
  toolName: string;
  title: string | undefined;
  description: string | undefined;
  /** Passed through untouched (`$schema`, `$defs`, `$ref` kept). */
  inputSchema: Tool["inputSchema"];
  outputSchema: Tool["outputSchema"];
  annotations: Tool["annotations"];
  /** The tool as its server listed it, every field kept (`icons`, `execution`, `_meta`, …); always set by the manager. */
  definition?: Tool | undefined;
  /** True when it comes from the cache and the server is not connected yet: a call waits for it. */
  deferred: boolean;
  /**
   * Calls the tool; waits for the server when it is (re)connecting; retries once when safe. A
   * tool that requires a task runs as one (`onTaskStatus` reports it; aborting cancels it).
   */
  call(args?: Record<string, unknown>, options?: ToolCallOptions): Promise<CallToolResult>;
}

/** `MCPTool.call`'s options: a call's, and its result budget. */
export interface ToolCallOptions extends CallToolOptions {
  /**
   * Most characters of text the result may carry (text blocks and embedded text resources, in
   * order). Beyond it the text is cut and a final text block names the file holding all of it.
   * Default: the manager's `maxResultChars` (off unless set).
   */
  maxResultChars?: number | undefined;
  /** Save cut results here instead of the manager's folder (it must exist). */
  resultDir?: string | undefined;
}

/** The manager's `results` option. */
export interface ResultFileOptions {
  /** Where the manager's folder of saved results is made (default: the system's temp folder). */
  dir?: string | undefined;
  /** Keep the saved results after `disconnectAll()` (default false: the folder is removed). */
  keep?: boolean | undefined;
  /** Images and audio larger than this (bytes, decoded) are saved to files under a budget (default 1 MB). */
  maxMediaBytes?: number | undefined;
}

/** Why a server in `state` cannot serve a call, in words (every state by name). */
function unavailable(state: ServerState | undefined): string {
  switch (state) {
    case undefined:
      return "is not configured";
    case "idle":
      return "is not started";
    case "connecting":
      return "is still connecting";
    case "reconnecting":
      return "is reconnecting";
    case "connected":
      return "is connected but cannot serve the call";
    case "failed":
      return "failed";
    case "disabled":
      return "is disabled or disconnected";
    case "not-approved":
      return "is not approved";
  }
}

/**
 * Every `code` of an error the manager gives: its own (a server or tool unavailable, a held tool,
 * the pin store) and those of the layers below it (the client's, which hold the transports' and
 * `@mcp/jsonrpc`'s, and `@mcp/oauth`'s).
 */
export type ManagerErrorCode =
  | "server_unavailable"
  | "tool_unavailable"
  | "tool_held"
  | "pin_store_error"
  | "unknown_server"
  | "unknown_prompt"
  | "unknown_tool"
  | "no_tool_named"
  | "ambiguous_tool"
  | "not_servable"
  | ClientErrorCode
  | OAuthErrorCode;

/** The server is not there to serve a call: failed, disabled, disconnected or unknown. */
export class ServerUnavailableError extends McpError<"server_unavailable"> {
  static override readonly brand: string = "ServerUnavailableError";
  declare readonly serverName: string;
  declare readonly state: ServerState | undefined;

  constructor(serverName: string, state: ServerState | undefined, reason?: string) {
    super("server_unavailable", `MCP server "${serverName}" ${unavailable(state)}${reason ? `: ${reason}` : ""}`);
    this.serverName = serverName;
    this.state = state;
  }
}

/**
 * A tool its server no longer offers: it was in a cached tool list, and the server's live list,
 * fetched when it connected, does not have it. Nothing was sent to the server.
 */
export class ToolUnavailableError extends McpError<"tool_unavailable"> {
  static override readonly brand: string = "ToolUnavailableError";
  declare readonly serverName: string;
  declare readonly toolName: string;

  constructor(serverName: string, toolName: string) {
    super(
      "tool_unavailable",
      `MCP server "${serverName}" no longer offers tool "${toolName}" (it was in the cached tool list; the live list does not have it)`,
    );
    this.serverName = serverName;
    this.toolName = toolName;
  }
}

/** Options of {@link MCPManager}. */
export interface MCPManagerOptions {
  /** Project directory for discovery. Default `process.cwd()`. */
  cwd?: string | undefined;
  /** Folder of the default file cache. Default: the user's cache folder. */
  cacheDir?: string | undefined;
  /**
   * A result budget for every tool call (see {@link ToolCallOptions.maxResultChars}): off by
   * default here; the adapters of `@mcp/adapters` ask for 100,000 characters.
   */
  maxResultChars?: number | undefined;
  /** Where cut results are saved, and whether they outlive the manager. */
  results?: ResultFileOptions | undefined;
  /** A cache of your own (e.g. a shared store), or `false` for none. */
  cache?: ToolCache | false | undefined;
  /** How long a cached tool list is used, in ms. Default 7 days. */
  cacheTtlMs?: number | undefined;
  /** How long `connectServers` waits before offering cached tools for slower servers, in ms. Default 250. */
  startupTimeoutMs?: number | undefined;
  /** Connects at once, per kind. Defaults: 16 stdio servers (processes are heavier), 32 remote. */
  concurrency?: { stdio?: number | undefined; remote?: number | undefined } | undefined;
  /** How dead servers come back; `false` never reconnects by itself. */
  reconnect?: Partial<ReconnectPolicy> | false | undefined;
  /** Ping every connected server this often (ms); a failed ping reconnects it. Off by default. */
  healthCheckIntervalMs?: number | undefined;
  /** Handlers and client identity for every connection (sampling, elicitation, roots, clientInfo, …). */
  connect?:
    Omit<ConnectOptions, "signal" | "onClose" | "onNotification" | "onLog" | "onError" | "transport"> | undefined;
  /** Answers `elicitation/create` from any server, told which one asks (and advertises `elicitation`). Takes the place of `connect.onElicitation`. */
  onElicitation?:
    ((server: string, params: ElicitParams, context: RequestContext) => Promise<ElicitResult>) | undefined;
  /** Answers `sampling/createMessage` from any server, told which one asks (and advertises `sampling`). Takes the place of `connect.onSampling`. */
  onSampling?:
    | ((server: string, params: CreateMessageParams, context: RequestContext) => Promise<CreateMessageResult>)
    | undefined;
  /**
   * Answers `roots/list` from any server, told which one asks (and advertises `roots`). Takes the
   * place of `connect.roots`: a host that serves several users (a gateway) gives each server only
   * the roots of whoever is using it.
   */
  onRoots?: ((server: string, context: RequestContext) => Root[] | Promise<Root[]>) | undefined;
  /** Every server notification. */
  onNotification?: ((server: string, method: string, params: unknown) => void) | undefined;
  /**
   * `notifications/message` from any server. `context.relatedTo` is the `relatedTo` of the call it
   * arrived under, when the transport ties it to one (Streamable HTTP); otherwise no context.
   */
  onLog?: ((server: string, message: LogMessage, context?: NotificationContext) => void) | undefined;
  /** Non-fatal problems: a refresh that failed, a cache that could not be written, a malformed message. */
  onError?: ((server: string, error: Error) => void) | undefined;
  /**
   * Which servers from project files may run (every family's file in the project directory: it
   * came with the repository). Default: only those an approval covers as they are now — in the
   * approvals file (`approvals.json` in the user's config folder, where `mcp config approve`
   * writes), or by the host file's own approval (Claude Code's `enabledMcpjsonServers`). The rest
   * are `not-approved`: not spawned, not fetched, their headersHelper not run. `approve` may ask.
   * Applies to servers discovered from files; a config the program passes in code starts as given.
   */
  approvals?: ApprovalPolicy | undefined;
  /** Discovery options for {@link MCPManager.discoverAndConnect}. */
  load?: LoadOptions | undefined;
  /**
   * OAuth for HTTP servers (`@mcp/oauth`): on by default, with tokens in the user's config folder
   * and no user step (a server without a usable token fails with "needs authorization"; see
   * `authorizeServer`). `false` turns it off; a server's own `oauth: false` does too.
   */
  oauth?: ManagerOAuthOptions | false | undefined;
  /**
   * Tool pinning ("what a model is told"): on by default, pins in `pins.json` of the user's config
   * folder, every change held until a person approves it (`manager.pins`). `false` turns it off.
   */
  pins?: PinOptions | false | undefined;
}

/** What {@link MCPManager.connectServers} returns. */
export interface ConnectResult {
  tools: MCPTool[];
  /** Per server (or per file, for config errors): what went wrong. */
  errors: Map<string, string>;
  connectedServers: string[];
}
