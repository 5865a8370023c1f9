// The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`): a server that declares
// it may answer a `tools/call` that declared it with a task (`resultType: "task"`) instead of the
// result. The client polls `tasks/get` at the server's `pollIntervalMs`, answers the task's
// `inputRequests` through the connection's handlers with `tasks/update`, and returns the result
// the task ends with, as a plain call would have. Aborting sends `tasks/cancel`. The server alone
// decides whether a call becomes a task; `task: false` leaves the extension off that call, so it
// never does.
import { RpcError, type RequestOptions } from "@mcp/jsonrpc";
import { InvalidResultError } from "./stateless.js";
import { TaskCancelledError, taskOf, TERMINAL_STATUSES, waitToPoll, type CallToolOptions } from "./task-status.js";
import type { CallToolResult, ClientCapabilities, ServerCapabilities } from "./types.js";

/** The extension's identifier, in both sides' `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

type Inputs = Record<string, { method?: string; params?: unknown }>;

/** What following a task needs from the session. */
export interface TaskContext {
  name: string;
  /** A request on the session (the 2026-07-28 `_meta` added). */
  request(method: string, params: object, options?: RequestOptions): Promise<Record<string, unknown>>;
  /** Answers input requests through the connection's handlers, for the request these options made (its signal, its `relatedTo`). */
  answerInputs(requests: Inputs, options: RequestOptions | undefined): Promise<Record<string, unknown>>;
}

/** True when the server declares the tasks extension. */
export function serverOffersTasks(capabilities: ServerCapabilities): boolean {
  const extensions = capabilities["extensions"];
  return typeof extensions === "object" && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** The client capabilities of one `tools/call`: the extension declared, unless the caller said `task: false`. */
export function callCapabilities(
  capabilities: ClientCapabilities,
  options: RequestOptions | undefined,
): ClientCapabilities {
  if ((options as CallToolOptions | undefined)?.task === false) return capabilities;
  const extensions = (capabilities["extensions"] ?? {}) as Record<string, unknown>;
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** Follows the task a `tools/call` became to its end and returns the call's result. */
export async function followTask(
  context: TaskContext,
  created: Record<string, unknown>,
  tool: string,
  options: RequestOptions | undefined,
): Promise<CallToolResult> {
  const { task: _task, onTaskStatus, ...request } = (options ?? {}) as CallToolOptions;
  let task = taskOf(context.name, created);
  // Each input request key is answered once (the server repeats outstanding ones on every poll).
  const answered = new Set<string>();
  try {
    for (;;) {
      onTaskStatus?.(task);
      if (task.status === "completed") {
        const result = task["result"];
        if (typeof result !== "object" || result === null)
          throw new InvalidResultError(
            `MCP server "${context.name}": the task of tool "${tool}" completed without a result`,
          );
        return result as CallToolResult;
      }
      if (task.status === "failed") {
        const error = task["error"] as { code?: unknown; message?: unknown; data?: unknown } | undefined;
        throw RpcError.fromError({
          code: typeof error?.code === "number" ? error.code : -32603,
          message: typeof error?.message === "string" ? error.message : (task.statusMessage ?? "the task failed"),
          data: error?.data,
        });
      }
      if (task.status === "cancelled") throw new TaskCancelledError(context.name, tool, task);
      if (task.status === "input_required") {
        const requests = (task["inputRequests"] ?? {}) as Inputs;
        const pending = Object.fromEntries(Object.entries(requests).filter(([key]) => !answered.has(key)));
        if (Object.keys(pending).length > 0) {
          const inputResponses = await context.answerInputs(pending, request);
          for (const key of Object.keys(pending)) answered.add(key);
          await context.request("tasks/update", { taskId: task.taskId, inputResponses }, request);
        }
      }
      await waitToPoll(task, request.signal);
      task = taskOf(context.name, await context.request("tasks/get", { taskId: task.taskId }, request));
    }
  } catch (error) {
    if (!TERMINAL_STATUSES.has(task.status)) {
      // Given up (an abort, a failed poll, a handler or listener that threw): the server stops
      // the work too (best effort; the caller hears why the call ended).
      context.request("tasks/cancel", { taskId: task.taskId }, { timeout: 5000 }).catch(() => undefined);
    }
    throw error;
  }
}
