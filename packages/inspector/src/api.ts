/**
 * The inspector's HTTP API: what the page and its server (`startInspector`) say to each other. The
 * `mcp` CLI prints the same row shapes for `mcp <command> --json`, so a script and the page see the
 * same thing.
 *
 * Every request carries the session token (header `X-Inspector-Token`, or `?token=` for the page
 * and the event stream); `Host` must be the inspector's own loopback address and `Origin`, when
 * sent, its own origin. Bodies are JSON (`Content-Type: application/json`), at most 1 MB.
 *
 * | method and path | body | answer |
 * |---|---|---|
 * | `GET /?token=…` | | the page |
 * | `GET /api/state` | | {@link InspectorState} |
 * | `GET /api/events?token=…&page=…` | | server-sent events, each `data:` one {@link InspectorEvent}; `page` names the page (its apps end when its streams are gone) |
 * | `POST /api/servers/reconnect` | `{ server }` | `{ ok: true }` |
 * | `POST /api/servers/disable` | `{ server }` | `{ ok: true }` |
 * | `POST /api/call` | {@link CallRequest} | {@link CallAnswer} (when the call ends) |
 * | `POST /api/cancel` | `{ id }` | `{ ok: true }`: aborts call `id` (`notifications/cancelled`) |
 * | `POST /api/resources` | `{ server? }` | {@link ResourceRow}[] |
 * | `POST /api/read` | `{ server, uri }` | {@link ReadAnswer} |
 * | `POST /api/subscribe` | `{ server, uri, on }` | `{ ok: true }` |
 * | `POST /api/prompts` | `{ server? }` | {@link PromptRow}[] |
 * | `POST /api/prompt` | `{ server, name, arguments }` | {@link PromptAnswer} |
 * | `POST /api/complete` | {@link CompleteRequestBody} | `{ values: string[] }` |
 * | `POST /api/dialog` | {@link DialogAnswer} | `{ ok: true }` |
 * | `POST /api/log-level` | `{ level, server? }` | `{ servers: string[] }`: `logging/setLevel` on every connected server with `logging` (or one) |
 * | `POST /api/app/open` | {@link AppOpenRequest} | {@link AppOpenAnswer}: a tool's MCP App, read and checked, to render |
 * | `POST /api/app/message` | {@link AppMessageRequest} | {@link AppMessageAnswer}: one message the app sent (whole, or one part of a big one), logged; `tools/call`, `resources/read` and `ping` are answered here |
 * | `POST /api/app/close` | `{ view }` | `{ ok: true }` |
 * | `POST /api/ping` | `{ server }` | {@link PingAnswer}: one liveness round trip (`ping`; `server/discover` on 2026-07-28), timed |
 * | `POST /api/roots` | `{ roots: { uri, name? }[] }` | {@link RootsAnswer}: the roots every server's `roots/list` gets from now on; connected servers are sent `notifications/roots/list_changed` |
 * | `POST /api/rpc` | {@link RpcRequest} | {@link RpcAnswer}: one JSON-RPC request the page built, the server's answer as it came |
 * | `POST /api/auth/doctor` | `{ server, register? }` | {@link AuthDoctorAnswer}: `mcp auth doctor <server>` for a configured HTTP server (no sign-in; `register: true` tries dynamic client registration, which registers a client) |
 * | `POST /api/auth/sign-in` | `{ server }` | {@link SignInStarted}: `mcp auth <server>`'s sign-in started; the page shows its authorization URL |
 * | `POST /api/auth/sign-in/wait` | `{ server }` | {@link SignInAnswer}: once the sign-in ends (tokens saved, the server reconnected) |
 * | `POST /api/config/servers` | | {@link ConfigServersAnswer}: the servers of the user's config file, as written (secrets hidden) |
 * | `POST /api/config/save` | `{ name, config, replace? }` | {@link ConfigSaveAnswer}: the entry written to the user's config file, and run when it is the one that loads |
 * | `POST /api/config/remove` | `{ name }` | `{ ok: true }`: the entry removed from the user's config file, its server stopped |
 *
 * A failure answers `4xx`/`5xx` with {@link ApiError}.
 */

import type { HeldFacts } from "@mcp/manager";

/** One row of `mcp servers --json -v`. */
export interface ServerRow {
  name: string;
  transport: string;
  /** The config file, `(embedded default)` or `(command line)`. */
  source: string;
  /** `connecting`, `connected`, `reconnecting`, `failed`, `disabled`, `needs authentication`, `not approved` or `invalid`. */
  status: string;
  tools: number | undefined;
  connectMs: number | undefined;
  lastError: string | undefined;
  stderrTail?: string | undefined;
}

/** A server as the page sees it: its `mcp servers` row and what it can do. */
export interface InspectedServer extends ServerRow {
  /** The server's capability names (`tools`, `resources`, `prompts`, `completions`, `logging`, …), once connected. */
  capabilities: string[];
  /** Whether `resources/subscribe` is offered. */
  subscribe: boolean;
}

/**
 * A tool held by tool pinning, as `mcp pins --json` gives it (@mcp/manager's `heldFacts`: server,
 * tool, `change` — `changed` since it was approved, or `added` —, hashes, the fields that differ,
 * the old and new definitions), with its diff as text.
 */
export interface HeldRow extends HeldFacts {
  /** The diff for a person: the description with `[-old-]` `{+new+}`, then `+`/`-`/`~` schema paths. */
  diff: string;
  /** The command that approves it, in the embedding tool's words (its `approveCommand` option); absent without one. */
  approve?: string | undefined;
}

/** `POST /api/pins/approve`: approves a server's held tools (one, when `tool` is given). */
export interface PinsApproveRequest {
  server: string;
  tool?: string | undefined;
}

/** One element of `mcp tools --json`. */
export interface ToolRow {
  /** The model-safe name, `mcp__<server>__<tool>`: what {@link CallRequest.tool} takes. */
  name: string;
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  title: string | undefined;
  description: string | undefined;
  inputSchema: JsonSchema | undefined;
  outputSchema: JsonSchema | undefined;
  annotations: Record<string, unknown> | undefined;
  /** The tool's MCP App (`_meta.ui`): its `ui://` resource and who may call the tool (the inspector's list only). */
  ui?: { resourceUri: string; visibility: ("model" | "app")[] } | undefined;
  /** The tool's `execution.taskSupport` when it takes tasks (MCP 2025-11-25): `required`, or `optional` (the page offers to run it as a task). */
  taskSupport?: "required" | "optional" | undefined;
}

// One element of `mcp resources --json` / `mcp prompts --json`: the manager's rows.
export type { PromptRow, ResourceRow } from "@mcp/manager";

/** A JSON Schema, as a tool or an elicitation gives it (read loosely). */
export interface JsonSchema {
  type?: string | string[] | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  items?: JsonSchema | undefined;
  enum?: unknown[] | undefined;
  oneOf?: { const?: unknown; title?: string }[] | undefined;
  default?: unknown;
  description?: string | undefined;
  title?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  format?: string | undefined;
  [key: string]: unknown;
}

/** `GET /api/state`: everything the page shows at first. */
export interface InspectorState {
  servers: InspectedServer[];
  tools: ToolRow[];
  /** Tools held by tool pinning (changed since approved, or new): not in `tools`, not callable. */
  held: HeldRow[];
  /** The log so far (the last 1,000 entries). */
  log: LogEntry[];
  /** Dialogs a server is waiting on. */
  dialogs: Dialog[];
  /** Tool calls that ran as tasks, newest last (the last 100). */
  tasks: TaskRow[];
  /** The roots declared in the page (`POST /api/roots`), which servers' `roots/list` gets. */
  roots?: { uri: string; name?: string | undefined }[];
  /** The embedding tool's version (`version` of `startInspector`'s options), shown in the header; empty when not given. */
  version: string;
  /** The page's heading (`heading` of `startInspector`'s options). */
  heading?: string | undefined;
  /** The user's config file the page may add servers to (`config` of `startInspector`'s options); absent: no editing. */
  configFile?: string | undefined;
  /** The number of the last event sent before this state was taken (0: none yet). */
  at: number;
}

/** A tool call that runs as a task (either protocol era), or a server's request the inspector runs as one, as its last status said. */
export interface TaskRow {
  /** The call's id (`POST /api/call`), which `POST /api/cancel` takes while it runs; for a task the inspector runs, its dialog's id. */
  id: string;
  server: string;
  /** The tool; for a task the inspector runs, the server's request (`elicitation/create`, `sampling/createMessage`). */
  tool: string;
  /** `client`: the server sent its request as a task, and the inspector runs it (the dialog's answer is its result; `cancel` answers the dialog `cancel`); absent: the server runs it. */
  runner?: "client" | undefined;
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string | undefined;
  /** When the call started and when the status last changed (ms since the epoch). */
  startedAt: number;
  updatedAt: number;
  /** True once the call has returned (whatever the task's last status). */
  ended: boolean;
}

/** `POST /api/call`. */
export interface CallRequest {
  /** Chosen by the page, so that it can cancel before the answer. */
  id: string;
  /** A {@link ToolRow.name}. */
  tool: string;
  arguments: Record<string, unknown>;
  /** Run the call as a task (a tool whose `execution.taskSupport` is `"optional"`; one that requires a task runs as one anyway; any other tool: a `400`, nothing called). */
  task?: boolean | undefined;
}

/** The answer to `POST /api/call`: the tool's result, or what went wrong. */
export interface CallAnswer {
  id: string;
  ms: number;
  result?:
    | {
        content?: ContentBlock[] | undefined;
        structuredContent?: unknown;
        isError?: boolean | undefined;
        [key: string]: unknown;
      }
    | undefined;
  error?: ApiError | undefined;
}

/** A content block of a tool result or prompt message (read loosely). */
export interface ContentBlock {
  type: string;
  text?: string | undefined;
  data?: string | undefined;
  mimeType?: string | undefined;
  uri?: string | undefined;
  name?: string | undefined;
  resource?: ResourceContents | undefined;
  [key: string]: unknown;
}

/** One item of a resource's contents: text or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string | undefined;
  text?: string | undefined;
  blob?: string | undefined;
}

/** The answer to `POST /api/read`. */
export interface ReadAnswer {
  server: string;
  ms: number;
  contents: ResourceContents[];
}

/** The answer to `POST /api/prompt`. */
export interface PromptAnswer {
  ms: number;
  description?: string | undefined;
  messages: { role: string; content: ContentBlock }[];
}

/** `POST /api/complete`: suggestions for a prompt's or resource template's argument. */
export interface CompleteRequestBody {
  server: string;
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> } | undefined;
}

/** One line of the log: a request the inspector made and its answer, or a message from a server. */
export interface LogEntry {
  /** Increases by one per entry. */
  seq: number;
  /** ISO time. */
  time: string;
  server: string;
  /** `app`: a message an MCP App sent (its `params` are the message's). */
  kind: "request" | "response" | "error" | "notification" | "log" | "server-request" | "status" | "app";
  method: string;
  params?: unknown;
  result?: unknown;
  error?: string | undefined;
  /** How long the request took, on its answer. */
  ms?: number | undefined;
}

/** A server asks the user something: `elicitation/create` or `sampling/createMessage`. */
export type Dialog =
  | {
      id: string;
      server: string;
      kind: "elicitation";
      message: string;
      requestedSchema?: JsonSchema | undefined;
      url?: string | undefined;
      /** The task the inspector runs the request as, when the server sent it as one (it polls for the answer). */
      task?: string | undefined;
    }
  | {
      id: string;
      server: string;
      kind: "sampling";
      messages: { role: string; content: ContentBlock }[];
      systemPrompt?: string | undefined;
      maxTokens?: number | undefined;
      /** As for an elicitation: the task the inspector runs it as, if any. */
      task?: string | undefined;
    };

/** `POST /api/dialog`: the user's answer. */
export interface DialogAnswer {
  id: string;
  action: "accept" | "decline" | "cancel";
  /** Elicitation: the form's values. */
  content?: Record<string, unknown> | undefined;
  /** Sampling: the reply text. */
  text?: string | undefined;
}

export type { ConfigSaveAnswer, ConfigServersAnswer, SignInAnswer, SignInStarted } from "./api-requests.js";
export type { AppCsp, AppMessageAnswer, AppMessageRequest, AppOpenAnswer, AppOpenRequest } from "./api-apps.js";
export type {
  AuthDoctorAnswer,
  AuthDoctorStep,
  PingAnswer,
  RootsAnswer,
  RpcAnswer,
  RpcRequest,
} from "./api-requests.js";

/** What a failed request answers. */
export interface ApiError {
  message: string;
  /** The error's `code` (`"request_timeout"`, `"server_unavailable"`, a JSON-RPC number, …). */
  code?: string | number | undefined;
}

/** What one server-sent event of `GET /api/events` says (see {@link InspectorEvent}). */
export type InspectorNews =
  | { type: "servers"; servers: InspectedServer[] }
  | { type: "tools"; tools: ToolRow[] }
  | { type: "held"; held: HeldRow[] }
  | { type: "progress"; id: string; progress: number; total?: number | undefined; message?: string | undefined }
  | { type: "log"; entry: LogEntry }
  | { type: "dialog"; dialog: Dialog }
  | { type: "dialog-closed"; id: string }
  | { type: "resource-updated"; server: string; uri: string }
  | { type: "task"; task: TaskRow };

/**
 * One server-sent event of `GET /api/events`: its news and its number `at` (1, 2, … in the order
 * sent). A page that fetches `GET /api/state` after its stream opens applies, after the state, the
 * events it received numbered above the state's `at`: an event may reach the page before a state
 * taken earlier.
 */
export type InspectorEvent = InspectorNews & { at: number };

/** The levels of `logging/setLevel`, lowest first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** Header that carries the token on API requests. */
export const TOKEN_HEADER = "x-inspector-token";
