// What a tool call run as a task looks like to its caller, in both eras: the task's status, the
// options of callTool that concern tasks, and the error of a cancelled task.
import { McpError, type RequestOptions } from "@mcp/jsonrpc";

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
}

/** The task a tool call ran as was cancelled (by the server, or with `tasks/cancel` elsewhere). */
export class TaskCancelledError extends McpError {
  static override readonly brand: string = "TaskCancelledError";
  declare readonly taskId: string;
  constructor(serverName: string, tool: string, task: TaskStatus) {
    super("task_cancelled", `The task of tool "${tool}" on MCP server "${serverName}" was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
    this.taskId = task.taskId;
  }
}
