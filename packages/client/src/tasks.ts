// Tool calls as tasks (MCP 2025-11-25, experimental): a tool that declares
// `execution.taskSupport: "required"` cannot be called plainly. The call is sent with `task`, the
// server answers at once with a task, its status is polled with `tasks/get` at the server's
// `pollInterval`, and the result comes from `tasks/result` (which also carries the server's input
// requests, answered by the connection's handlers, while the task waits for input). Aborting
// cancels the task with `tasks/cancel`.
import type { MCPTransport } from "@mcp/jsonrpc";
import type { MCPServerConnection } from "./connect.js";
import { CapabilityNotSupportedError } from "./errors.js";
import { TaskCancelledError, taskOf, TERMINAL_STATUSES, waitToPoll, type CallToolOptions } from "./task-status.js";
import type { CallToolResult, Tool } from "./types.js";

type Connection = MCPServerConnection<MCPTransport>;

/** Per connection: each listed tool's `execution.taskSupport` (`""` when it says nothing). */
const taskSupport = new WeakMap<Connection, Map<string, string>>();

/** Remembers what each listed tool says about tasks, for `callTool`. */
export function rememberTaskSupport(connection: Connection, tools: readonly Tool[]): void {
  const known = new Map<string, string>();
  for (const tool of tools) {
    const support = (tool["execution"] as { taskSupport?: unknown } | undefined)?.taskSupport;
    known.set(tool.name, typeof support === "string" ? support : "");
  }
  taskSupport.set(connection, known);
}

function serverRunsToolTasks(connection: Connection): boolean {
  const tasks = connection.capabilities["tasks"] as { requests?: { tools?: { call?: unknown } } } | undefined;
  return connection.era === "2025" && tasks?.requests?.tools?.call !== undefined;
}

/** Whether this call goes as a task: asked for, or required by the listed tool (and offered by the server). */
export function runsAsTask(connection: Connection, name: string, task: CallToolOptions["task"]): boolean {
  // In 2026-07-28 the server decides (the tasks extension, followed by the session): nothing to force.
  if (task === false || connection.era === "2026-07-28") return false;
  if (task !== undefined) {
    if (!serverRunsToolTasks(connection))
      throw new CapabilityNotSupportedError(connection.name, "tasks.requests.tools.call", "tools/call as a task");
    return true;
  }
  return serverRunsToolTasks(connection) && taskSupport.get(connection)?.get(name) === "required";
}

/**
 * Whether the tools must be listed before a call can be sent: the server runs tool tasks and this
 * connection has not listed its tools, so whether the tool requires a task is not known yet.
 */
export function mustListFirst(connection: Connection): boolean {
  return serverRunsToolTasks(connection) && !taskSupport.has(connection);
}

/** After a listing that failed: calls go plainly (the server's answer says the rest). */
export function forgetTaskSupport(connection: Connection): void {
  if (!taskSupport.has(connection)) taskSupport.set(connection, new Map());
}

/** Runs `tools/call` as a task and returns its result, as a plain call would. */
export async function callToolAsTask(
  connection: Connection,
  name: string,
  args: Record<string, unknown>,
  options: CallToolOptions = {},
): Promise<CallToolResult> {
  const { task: asked, onTaskStatus, ...request } = options;
  const ttl = typeof asked === "object" ? asked.ttl : undefined;
  const created =
    (await connection.request<{ task?: unknown }>(
      "tools/call",
      { name, arguments: args, task: ttl === undefined ? {} : { ttl } },
      request,
    )) ?? {};
  let task = taskOf(connection.name, created.task);
  try {
    for (;;) {
      onTaskStatus?.(task);
      if (TERMINAL_STATUSES.has(task.status) || task.status === "input_required") break;
      await waitToPoll(task, request.signal);
      task = taskOf(connection.name, await connection.request("tasks/get", { taskId: task.taskId }, request));
    }
    if (task.status === "cancelled") throw new TaskCancelledError(connection.name, name, task);
    // `tasks/result` waits for the end (and carries the server's questions while input is required).
    return await connection.request<CallToolResult>(
      "tasks/result",
      { taskId: task.taskId },
      { ...request, timeout: request.timeout ?? Infinity },
    );
  } catch (error) {
    if (
      !TERMINAL_STATUSES.has(task.status) &&
      (connection.capabilities["tasks"] as { cancel?: unknown } | undefined)?.cancel !== undefined
    ) {
      // Given up (an abort, a failed poll, a listener that threw): the server stops the work too
      // (best effort; the caller hears why the call ended).
      connection.request("tasks/cancel", { taskId: task.taskId }, { timeout: 5000 }).catch(() => undefined);
    }
    throw error;
  }
}
