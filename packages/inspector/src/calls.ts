// Tool calls for the page and its apps: each logged with its time, its progress and task status on
// the event stream, cancellable by the page, cancelled when the page's request goes away or the
// inspector stops.
import type { ServerResponse } from "node:http";
import type { MCPManager, MCPTool } from "@mcp/manager";
import type { CallAnswer, CallRequest } from "./api.js";
import { errorOf, type InspectorHub } from "./hub.js";
import { isObject, Refusal, text } from "./http.js";

type Route = (body: Record<string, unknown>, res: ServerResponse) => unknown;

/** Runs one tool call as `POST /api/call` does. */
export type RunCall = (
  tool: MCPTool,
  args: Record<string, unknown>,
  id: string,
  res: ServerResponse,
  asTask?: boolean,
) => Promise<CallAnswer>;

/** The inspector's tool calls: {@link RunCall}, the call and cancel routes, and a way to end them all. */
export interface ToolCalls {
  runCall: RunCall;
  routes: Record<string, Route>;
  /** Aborts every running call (the servers are sent `notifications/cancelled`). */
  abortAll(reason: string): void;
}

export function toolCalls(manager: MCPManager, hub: InspectorHub): ToolCalls {
  const calls = new Map<string, AbortController>();

  /** Runs one tool call for the page (or an app): logged with its time, progress and task status on the event stream, cancelled when the page goes away. */
  const runCall = async (
    tool: MCPTool,
    args: Record<string, unknown>,
    id: string,
    res: ServerResponse,
    asTask = false,
  ): Promise<CallAnswer> => {
    if (calls.has(id)) throw new Refusal(409, `a call with id "${id}" is running`);
    const controller = new AbortController();
    calls.set(id, controller);
    // The page went away (closed, reloaded): the call is cancelled, not left running.
    const onGone = (): void => {
      if (!res.writableEnded) controller.abort(new Error("the inspector page closed the request"));
    };
    res.on("close", onGone);
    try {
      const outcome = await hub.trace(tool.serverName, "tools/call", { name: tool.toolName, arguments: args }, () =>
        tool.call(args, {
          signal: controller.signal,
          resetTimeoutOnProgress: true,
          // Asked for by the page: an optional-task tool runs as one (the default runs it plainly).
          ...(asTask ? { task: true } : {}),
          onProgress: (p) =>
            hub.emit({ type: "progress", id, progress: p.progress, total: p.total, message: p.message }),
          // A call that runs as a task: its statuses feed the Tasks view.
          onTaskStatus: (task) =>
            hub.task(id, {
              server: tool.serverName,
              tool: tool.toolName,
              taskId: task.taskId,
              status: task.status,
              statusMessage: task.statusMessage,
            }),
        }),
      );
      hub.endTask(id, controller.signal.aborted);
      if (!("error" in outcome)) return { id, ms: outcome.ms, result: outcome.result } satisfies CallAnswer;
      return {
        id,
        ms: outcome.ms,
        error: controller.signal.aborted
          ? { message: "Cancelled (the server was sent notifications/cancelled)", code: "cancelled" }
          : errorOf(outcome.error),
      } satisfies CallAnswer;
    } finally {
      calls.delete(id);
      res.off("close", onGone);
    }
  };

  const routes: Record<string, Route> = {
    "/api/call": async (body, res) => {
      const request = body as unknown as CallRequest;
      const id = text(body, "id");
      const name = text(body, "tool");
      const args = request.arguments ?? {};
      if (!isObject(args)) throw new Refusal(400, `"arguments" must be a JSON object`);
      if (request.task !== undefined && typeof request.task !== "boolean")
        throw new Refusal(400, `"task" must be true or false`);
      const tool = manager.getTools().find((t) => t.name === name);
      if (!tool) throw new Refusal(404, `no tool named "${name}" (the server may have withdrawn it)`);
      // Only a tool that takes tasks: sent as a task, another ran on the server and answered an error.
      const support = (tool.definition?.["execution"] as { taskSupport?: unknown } | undefined)?.taskSupport;
      if (request.task === true && support !== "optional" && support !== "required")
        throw new Refusal(
          400,
          `"task": tool "${name}" does not run as a task (its execution.taskSupport is ${JSON.stringify(support ?? "forbidden")}); nothing was called`,
        );
      return runCall(tool, args, id, res, request.task === true);
    },
    "/api/cancel": (body) => {
      const controller = calls.get(text(body, "id"));
      controller?.abort(new Error("cancelled in the inspector"));
      return { ok: true, found: controller !== undefined };
    },
  };
  return {
    runCall,
    routes,
    abortAll: (reason) => {
      for (const controller of calls.values()) controller.abort(new Error(reason));
    },
  };
}
