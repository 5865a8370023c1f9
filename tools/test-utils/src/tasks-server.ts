// A 2026-07-28 server with the tasks extension (`io.modelcontextprotocol/tasks`), built from the
// extension's text (modelcontextprotocol/experimental-ext-tasks, docs/specification/draft/tasks.mdx)
// because no public server implements it yet. Plain node:http and JSON, one POST per request.
// Task states advance per poll, so tests do not depend on timing.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { listenOnLoopback } from "./loopback.js";

const EXTENSION = "io.modelcontextprotocol/tasks";

export interface TasksServerRequest {
  method: string;
  params: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface TasksServer {
  url: string;
  /** Every JSON-RPC request received, in order. */
  requests: TasksServerRequest[];
  /** Each task's tool and status, by task id. */
  tasks: Map<string, { tool: string; status: string }>;
  stop(): Promise<void>;
}

interface Task {
  taskId: string;
  tool: string;
  args: Record<string, unknown>;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  polls: number;
  createdAt: string;
  lastUpdatedAt: string;
  inputRequests?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

const TOOLS = [
  {
    name: "report",
    description: "Writes a report (a task: two polls of work)",
    inputSchema: { type: "object", properties: { topic: { type: "string" } } },
  },
  {
    name: "greet",
    description: "Asks for a name during the task (input_required), then greets",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "broken",
    description: "A task that fails with a JSON-RPC error",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "forever",
    description: "A task that works until cancelled",
    inputSchema: { type: "object", properties: {} },
  },
  { name: "quick", description: "Answers at once, never a task", inputSchema: { type: "object", properties: {} } },
];

/** Starts the server on a free loopback port. `pollIntervalMs` is what tasks ask for (default 50). */
export async function startTasksServer(options: { pollIntervalMs?: number } = {}): Promise<TasksServer> {
  const pollIntervalMs = options.pollIntervalMs ?? 50;
  const requests: TasksServerRequest[] = [];
  const tasks = new Map<string, Task>();
  const now = (): string => new Date().toISOString();
  const view = (task: Task): Record<string, unknown> => {
    const { tool: _tool, args: _args, polls: _polls, ...wire } = task;
    return { ...wire, ttlMs: 60_000, pollIntervalMs };
  };
  const set = (task: Task, status: Task["status"], message?: string): void => {
    task.status = status;
    task.lastUpdatedAt = now();
    if (message !== undefined) task.statusMessage = message;
    else delete task.statusMessage;
  };
  /** One poll's worth of work. */
  const advance = (task: Task): void => {
    if (task.status !== "working") return;
    task.polls++;
    if (task.tool === "report") {
      if (task.polls < 3) set(task, "working", `stage ${task.polls}/2`);
      else {
        set(task, "completed", "done");
        task.result = {
          content: [
            { type: "text", text: `Report: ${typeof task.args["topic"] === "string" ? task.args["topic"] : ""}` },
          ],
          isError: false,
        };
      }
    } else if (task.tool === "greet" && task.polls === 1 && task.inputRequests === undefined) {
      set(task, "input_required", "waiting for a name");
      task.inputRequests = {
        "name-1": {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
        },
      };
    } else if (task.tool === "broken") {
      set(task, "failed", "Tool execution failed: backend down");
      task.error = { code: -32603, message: "backend down" };
    }
  };

  const handle = (
    method: string,
    params: Record<string, unknown>,
  ): { result?: Record<string, unknown>; error?: Record<string, unknown> } => {
    const clientCaps = ((params["_meta"] as Record<string, unknown> | undefined)?.[
      "io.modelcontextprotocol/clientCapabilities"
    ] ?? {}) as { extensions?: Record<string, unknown> };
    const declared = clientCaps.extensions !== undefined && Object.hasOwn(clientCaps.extensions, EXTENSION);
    switch (method) {
      case "server/discover":
        return {
          result: {
            resultType: "complete",
            supportedVersions: ["2026-07-28"],
            capabilities: { tools: {}, extensions: { [EXTENSION]: {} } },
            serverInfo: { name: "spec-tasks-server", version: "0.1.0" },
          },
        };
      case "tools/list":
        return { result: { resultType: "complete", tools: TOOLS } };
      case "tools/call": {
        const name = String(params["name"]);
        if (!TOOLS.some((t) => t.name === name)) return { error: { code: -32602, message: `Unknown tool: ${name}` } };
        if (name === "quick")
          return { result: { resultType: "complete", content: [{ type: "text", text: "quick answer" }] } };
        // Without the extension on the request a task cannot be returned: -32003 names it.
        if (!declared)
          return {
            error: {
              code: -32003,
              message: "Missing required client capability",
              data: { requiredCapabilities: { extensions: { [EXTENSION]: {} } } },
            },
          };
        const task: Task = {
          taskId: randomUUID(),
          tool: name,
          args: (params["arguments"] ?? {}) as Record<string, unknown>,
          status: "working",
          statusMessage: "The operation is now in progress.",
          polls: 0,
          createdAt: now(),
          lastUpdatedAt: now(),
        };
        tasks.set(task.taskId, task);
        return { result: { resultType: "task", ...view(task) } };
      }
      case "tasks/get": {
        const task = tasks.get(String(params["taskId"]));
        if (!task) return { error: { code: -32602, message: "Failed to retrieve task: Task not found" } };
        advance(task);
        return { result: { resultType: "complete", ...view(task) } };
      }
      case "tasks/update": {
        const task = tasks.get(String(params["taskId"]));
        if (!task) return { error: { code: -32602, message: "Task not found" } };
        const answer = (
          (params["inputResponses"] ?? {}) as Record<string, { action?: string; content?: { name?: string } }>
        )["name-1"];
        if (task.status === "input_required" && answer) {
          delete task.inputRequests;
          set(task, "completed", "greeted");
          task.result = {
            content: [
              {
                type: "text",
                text: answer.action === "accept" ? `Hello, ${answer.content?.name ?? "?"}!` : "No name given",
              },
            ],
            isError: false,
          };
        }
        return { result: { resultType: "complete" } };
      }
      case "tasks/cancel": {
        const task = tasks.get(String(params["taskId"]));
        if (!task) return { error: { code: -32602, message: "Task not found" } };
        if (task.status === "working" || task.status === "input_required")
          set(task, "cancelled", "cancelled by the client");
        return { result: { resultType: "complete" } };
      }
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
  };

  const http = createServer((req, res) => {
    void (async () => {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      if (req.method !== "POST") return void res.writeHead(405).end();
      const message = JSON.parse(body) as { id?: string | number; method: string; params?: Record<string, unknown> };
      requests.push({ method: message.method, params: message.params ?? {}, headers: req.headers });
      if (message.id === undefined) return void res.writeHead(202).end();
      const answer = handle(message.method, message.params ?? {});
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer }));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const { origin, stop } = await listenOnLoopback(http);
  return {
    url: `${origin}/mcp`,
    requests,
    tasks: tasks as unknown as Map<string, { tool: string; status: string }>,
    stop,
  };
}
