// What a tool call run as a task looks like to its caller, in both eras: the task's status, the
// options of callTool that concern tasks, and the error of a cancelled task.
import { McpError, type RequestOptions } from "@mcp/jsonrpc";
import { abortHandleOf, delay } from "@mcp/jsonrpc/internal";
import { InvalidResultError } from "./stateless.js";
import type { LoggingLevel } from "./types.js";

/** A task's state, as `tasks/get` reports it. */
export interface TaskStatus {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string | undefined;
  createdAt?: string | undefined;
  lastUpdatedAt?: string | undefined;
  /** How long the server keeps the task, in ms (`null`: no limit). */
  ttl?: number | null | undefined;
  /** How often the server asks to be polled, in ms. */
  pollInterval?: number | undefined;
  [key: string]: unknown;
}

/** Options of `callTool`: a request's options, and how to run the call as a task. */
export interface CallToolOptions extends RequestOptions {
  /**
   * Run the call as a task. 2025 era (the server must offer `tasks.requests.tools.call`): by
   * default a tool whose listed `execution.taskSupport` is `"required"` runs as one; `true` forces
   * it for an `"optional"` tool; `{ ttl }` also asks how long the server keeps it. 2026-07-28 (the
   * tasks extension): the server decides whether a call becomes a task. In both, `false` never.
   */
  task?: boolean | { ttl?: number | undefined } | undefined;
  /** Each status the task reports (`working` with its `statusMessage`, `input_required`, …). */
  onTaskStatus?: ((task: TaskStatus) => void) | undefined;
  /**
   * 2026-07-28: the lowest log level the server should send about this call, carried in its
   * `_meta` (`io.modelcontextprotocol/logLevel`) in place of the connection's (`setLoggingLevel`);
   * a program calling for several callers passes each caller's own. A 2025-era session has one
   * level for all its requests (`logging/setLevel`): there it is not read.
   */
  logLevel?: LoggingLevel | undefined;
}

/** The task a tool call ran as was cancelled (by the server, or with `tasks/cancel` elsewhere). */
export class TaskCancelledError extends McpError<"task_cancelled"> {
  static override readonly brand: string = "TaskCancelledError";
  declare readonly taskId: string;
  constructor(serverName: string, tool: string, task: TaskStatus) {
    super(
      "task_cancelled",
      `The task of tool "${tool}" on MCP server "${serverName}" was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ""}`,
    );
    this.taskId = task.taskId;
  }
}

/** The statuses a task ends in. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/**
 * The task in a result (it must have a `taskId` and a `status`), with the 2025 era's field names
 * added to a 2026-07-28 task (`pollInterval`, `ttl`) so one listener reads both.
 */
export function taskOf(server: string, value: unknown): TaskStatus {
  const fields = value as Record<string, unknown> | undefined;
  if (
    typeof fields !== "object" ||
    fields === null ||
    typeof fields["taskId"] !== "string" ||
    typeof fields["status"] !== "string"
  ) {
    throw new InvalidResultError(
      `MCP server "${server}" sent a task without taskId and status: ${JSON.stringify(value)?.slice(0, 200)}`,
    );
  }
  const task = { ...fields } as TaskStatus;
  if (typeof fields["pollIntervalMs"] === "number") task.pollInterval ??= fields["pollIntervalMs"];
  if (fields["ttlMs"] === null || typeof fields["ttlMs"] === "number") task.ttl ??= fields["ttlMs"];
  return task;
}

/** Waits before the next poll: the server's pace, within reason (never a busy loop, never minutes between looks). */
export function waitToPoll(task: TaskStatus, signal: AbortSignal | undefined): Promise<void> {
  return delay(Math.min(Math.max(task.pollInterval ?? 1000, 50), 30_000), signal && abortHandleOf(signal));
}
