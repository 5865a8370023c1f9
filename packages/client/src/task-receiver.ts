import { RpcError, type RequestContext } from "@mcp/jsonrpc";

// Server requests run as tasks (MCP 2025-11-25 tasks, the receiver side): a server that sees the
// client's `tasks.requests.sampling.createMessage` / `elicitation.create` capability may send
// those requests with `task`. The client then answers at once with a task, runs the request with
// its usual handler in the background, and answers the server's `tasks/get`, `tasks/result`,
// `tasks/list` and `tasks/cancel` about it. Finished tasks are kept for their TTL.

/** Options of `serverRequestTasks`. */
export interface ServerRequestTaskOptions {
  /** The poll interval asked of the server, in ms (default 500). */
  pollIntervalMs?: number | undefined;
  /** Most tasks kept at once (default 100): the oldest finished one goes first. */
  maxTasks?: number | undefined;
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const TASK_METHODS: ReadonlySet<string> = new Set(["sampling/createMessage", "elicitation/create"]);
const TASKS_REQUESTS: ReadonlySet<string> = new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);
/** The longest a finished task is kept, whatever the server asks. */
const MAX_TTL_MS = 60 * 60_000;
const DEFAULT_TTL_MS = 5 * 60_000;

interface ReceivedTask {
  taskId: string;
  status: "working" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
  controller: AbortController;
  /** Settles when the task ends: its work finished, or it was cancelled (work that ignores the abort is not waited for). */
  ended: Promise<void>;
  end: () => void;
  result?: unknown;
  error?: unknown;
  expiry?: ReturnType<typeof setTimeout>;
}

type Run = (method: string, params: unknown, context: RequestContext) => Promise<unknown>;

export class TaskReceiver {
  readonly #tasks = new Map<string, ReceivedTask>();
  readonly #pollInterval: number;
  readonly #maxTasks: number;

  constructor(
    options: ServerRequestTaskOptions,
    /** The requests that may run as tasks: those the connection has a handler for. */
    readonly methods: ReadonlySet<string>,
    readonly run: Run,
  ) {
    this.#pollInterval = options.pollIntervalMs ?? 500;
    this.#maxTasks = options.maxTasks ?? 100;
  }

  /** The client capability that says which requests may come as tasks. */
  static capability(methods: { sampling: boolean; elicitation: boolean }): Record<string, unknown> {
    return {
      list: {},
      cancel: {},
      requests: {
        ...(methods.sampling ? { sampling: { createMessage: {} } } : {}),
        ...(methods.elicitation ? { elicitation: { create: {} } } : {}),
      },
    };
  }

  /** The answer to a server request this receiver takes (a task-augmented request or a `tasks/*` one), else undefined. */
  handle(method: string, params: unknown, context: RequestContext): Promise<unknown> | undefined {
    const p = (params ?? {}) as Record<string, unknown>;
    if (TASK_METHODS.has(method) && this.methods.has(method) && typeof p["task"] === "object" && p["task"] !== null)
      return Promise.resolve(this.#start(method, p, context));
    if (!TASKS_REQUESTS.has(method)) return undefined;
    // A refusal (an unknown task) is a rejected promise, never a throw.
    return (async () => {
      if (method === "tasks/list") return { tasks: [...this.#tasks.values()].map((task) => this.#view(task)) };
      const task = this.#find(p["taskId"]);
      if (method === "tasks/get") return this.#view(task);
      if (method === "tasks/result") return this.#result(task);
      return this.#cancel(task);
    })();
  }

  /** Ends every task's work and forgets them (the connection closed). */
  close(): void {
    for (const task of this.#tasks.values()) {
      task.controller.abort(new Error("the connection closed"));
      clearTimeout(task.expiry);
      task.end();
    }
    this.#tasks.clear();
  }

  #start(method: string, params: Record<string, unknown>, context: RequestContext): { task: Record<string, unknown> } {
    this.#makeRoom();
    const { task: asked, ...request } = params;
    const ttl = Math.min(
      typeof (asked as { ttl?: unknown }).ttl === "number" ? (asked as { ttl: number }).ttl : DEFAULT_TTL_MS,
      MAX_TTL_MS,
    );
    const now = new Date().toISOString();
    const task = {
      taskId: globalThis.crypto.randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: this.#pollInterval,
      controller: new AbortController(),
    } as ReceivedTask;
    task.ended = new Promise<void>((resolve) => (task.end = resolve));
    const finish = (status: ReceivedTask["status"], message: string | undefined): void => {
      if (task.status !== "working") return;
      this.#end(task, status, message);
    };
    void this.run(method, request, {
      requestId: context.requestId,
      signal: task.controller.signal,
      taskId: task.taskId,
    }).then(
      (result) => {
        task.result = result;
        finish("completed", undefined);
      },
      (error: unknown) => {
        task.error = error;
        finish(
          task.controller.signal.aborted ? "cancelled" : "failed",
          error instanceof Error ? error.message : String(error),
        );
      },
    );
    this.#tasks.set(task.taskId, task);
    return { task: this.#view(task) };
  }

  #find(taskId: unknown): ReceivedTask {
    const task = typeof taskId === "string" ? this.#tasks.get(taskId) : undefined;
    if (!task) throw new RpcError(-32602, `Task not found: ${String(taskId)}`);
    return task;
  }

  #view(task: ReceivedTask): Record<string, unknown> {
    const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval } = task;
    return {
      taskId,
      status,
      ...(statusMessage === undefined ? {} : { statusMessage }),
      createdAt,
      lastUpdatedAt,
      ttl,
      pollInterval,
    };
  }

  /** A task's end: its status, and kept for its TTL from creation, then forgotten. */
  #end(task: ReceivedTask, status: ReceivedTask["status"], message: string | undefined): void {
    task.status = status;
    task.lastUpdatedAt = new Date().toISOString();
    if (message !== undefined) task.statusMessage = message;
    task.expiry = setTimeout(
      () => this.#tasks.delete(task.taskId),
      Math.max(Date.parse(task.createdAt) + task.ttl - Date.now(), 0),
    );
    (task.expiry as { unref?: () => void }).unref?.();
    task.end();
  }

  /** `tasks/result`: waits for the end; the request's result (or its error), tagged with the task. */
  async #result(task: ReceivedTask): Promise<unknown> {
    await task.ended;
    if (task.status === "completed") {
      const result = (task.result ?? {}) as Record<string, unknown>;
      const meta = (result["_meta"] ?? {}) as Record<string, unknown>;
      return { ...result, _meta: { ...meta, [RELATED_TASK]: { taskId: task.taskId } } };
    }
    if (task.status === "cancelled") throw new RpcError(-32602, `Task ${task.taskId} was cancelled`);
    throw RpcError.isInstance(task.error)
      ? task.error
      : new RpcError(-32603, task.statusMessage ?? "the request failed");
  }

  #cancel(task: ReceivedTask): Record<string, unknown> {
    if (task.status !== "working") throw new RpcError(-32602, `Task ${task.taskId} already ended (${task.status})`);
    this.#end(task, "cancelled", "cancelled by the server");
    task.controller.abort(new Error("cancelled by the server (tasks/cancel)"));
    return this.#view(task);
  }

  /** At the limit, the oldest finished task is forgotten; with none finished, the oldest is cancelled. */
  #makeRoom(): void {
    if (this.#tasks.size < this.#maxTasks) return;
    const oldest =
      [...this.#tasks.values()].find((task) => task.status !== "working") ?? this.#tasks.values().next().value;
    if (!oldest) return;
    oldest.controller.abort(new Error("too many tasks"));
    clearTimeout(oldest.expiry);
    oldest.end();
    this.#tasks.delete(oldest.taskId);
  }
}
