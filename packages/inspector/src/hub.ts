import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, Root } from "@mcp/client";
import type {
  ApiError,
  Dialog,
  DialogAnswer,
  InspectorEvent,
  InspectorNews,
  JsonSchema,
  LogEntry,
  TaskRow,
} from "./api.js";
import { trimLog } from "./log-ring.js";

// The inspector's live side: the page's event streams, the request log, and the dialogs
// (elicitation, sampling) a server waits on.

/** Calls kept for a page that opens later, and as many log lines, notifications and app messages apart. */
const LOG_SIZE = 1000;
const TASKS_KEPT = 100;
/** How long a page whose event stream ended has to open another (a reconnect) before it counts as gone. */
const PAGE_GRACE_MS = 5000;
/** A log entry's result or params bigger than this (as JSON) is kept as a preview only. */
const MAX_LOGGED = 32 * 1024;

function clip(value: unknown): unknown {
  if (value === undefined) return undefined;
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return "(not JSON)";
  }
  return json.length > MAX_LOGGED ? { truncated: true, bytes: json.length, preview: json.slice(0, 2048) } : value;
}

/** A traced request's outcome and the time it took. */
export type Traced<T> = { result: T; ms: number } | { error: unknown; ms: number };

/** ms since `started`, to a tenth. */
function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

export function errorOf(error: unknown): ApiError {
  const e = error as { message?: unknown; code?: unknown };
  const code = typeof e.code === "string" || typeof e.code === "number" ? e.code : undefined;
  return {
    message: typeof e.message === "string" ? e.message : String(error),
    ...(code === undefined ? {} : { code }),
  };
}

/**
 * What the page sees live: the event stream's subscribers, the log, and the dialogs a server waits
 * on. Made before the manager, whose elicitation and sampling handlers it answers.
 */
export class InspectorHub {
  readonly #streams = new Set<ServerResponse>();
  readonly #dialogs = new Map<string, { dialog: Dialog; settle: (answer: DialogAnswer) => void }>();
  #log: LogEntry[] = [];
  #seq = 0;
  /** The number of the last event sent. */
  #at = 0;
  readonly #tasks = new Map<string, TaskRow>();
  /** Open event streams per page (the id each page names itself by), and the pages about to count as gone. */
  readonly #pages = new Map<string, number>();
  readonly #leaving = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #onPageGone = new Set<(page: string) => void>();
  /** The roots the page declared, which every server's `roots/list` gets. */
  #roots: Root[] = [];

  get roots(): Root[] {
    return [...this.#roots];
  }

  set roots(roots: Root[]) {
    this.#roots = [...roots];
  }

  /** Roots handler for the manager's connections: the page's list, logged with the server that asked. */
  readonly onRoots = (server: string): Root[] => {
    const roots = this.roots;
    this.record({ server, kind: "server-request", method: "roots/list" });
    this.record({ server, kind: "response", method: "roots/list", result: { roots } });
    return roots;
  };

  /** Sends `news` to every page, numbered. */
  emit(news: InspectorNews): void {
    const event: InspectorEvent = { ...news, at: ++this.#at };
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const stream of this.#streams) stream.write(frame);
  }

  record(entry: Omit<LogEntry, "seq" | "time">): void {
    const full: LogEntry = {
      seq: ++this.#seq,
      time: new Date().toISOString(),
      ...entry,
      params: clip(entry.params),
      result: clip(entry.result),
    };
    if (full.params === undefined) delete full.params;
    if (full.result === undefined) delete full.result;
    this.#log.push(full);
    this.#log = trimLog(this.#log, LOG_SIZE);
    this.emit({ type: "log", entry: full });
  }

  /** The number of the last event sent: a state taken now has seen every event up to it. */
  get at(): number {
    return this.#at;
  }

  get log(): LogEntry[] {
    return [...this.#log];
  }

  /** Tool calls that ran as tasks, the last 100. */
  get tasks(): TaskRow[] {
    return [...this.#tasks.values()];
  }

  /** A task call's new status (or its end): kept, and sent to every page. */
  task(id: string, change: Partial<TaskRow> & Pick<TaskRow, "server" | "tool">): void {
    const now = Date.now();
    const before = this.#tasks.get(id);
    if (!before && change.taskId === undefined) return; // a call that never became a task
    const row: TaskRow = {
      id,
      taskId: "",
      status: "working",
      startedAt: now,
      ended: false,
      ...before,
      ...change,
      updatedAt: now,
    };
    this.#tasks.delete(id);
    this.#tasks.set(id, row);
    if (this.#tasks.size > TASKS_KEPT) this.#tasks.delete(this.#tasks.keys().next().value!);
    this.emit({ type: "task", task: row });
  }

  /** The call of a task returned: marked ended, and cancelled if it was aborted before the task ended. */
  endTask(id: string, aborted: boolean): void {
    const row = this.#tasks.get(id);
    if (!row) return;
    const open = row.status === "working" || row.status === "input_required";
    this.task(id, {
      server: row.server,
      tool: row.tool,
      ended: true,
      ...(aborted && open
        ? { status: "cancelled", statusMessage: "cancelled in the inspector (tasks/cancel sent)" }
        : {}),
    });
  }

  get dialogs(): Dialog[] {
    return [...this.#dialogs.values()].map((d) => d.dialog);
  }

  /**
   * Runs one request to a server, logging it and its answer with the time it took; that same time
   * is given back, so the page's answer and the log agree. Never rejects.
   */
  async trace<T>(server: string, method: string, params: unknown, run: () => Promise<T>): Promise<Traced<T>> {
    this.record({ server, kind: "request", method, params });
    const started = performance.now();
    try {
      const result = await run();
      const ms = elapsed(started);
      this.record({ server, kind: "response", method, result, ms });
      return { result, ms };
    } catch (error) {
      const ms = elapsed(started);
      this.record({ server, kind: "error", method, error: errorOf(error).message, ms });
      return { error, ms };
    }
  }

  /** {@link trace}, rejecting with the request's error when it failed. */
  async traced<T>(
    server: string,
    method: string,
    params: unknown,
    run: () => Promise<T>,
  ): Promise<{ result: T; ms: number }> {
    const outcome = await this.trace(server, method, params, run);
    if ("error" in outcome) throw outcome.error;
    return outcome;
  }

  /** Shows a dialog on every open page and waits for the user; logs it when the server gives up. */
  async ask(dialog: Dialog, method: string, signal: AbortSignal): Promise<DialogAnswer> {
    // A request the server sent as a task: the inspector runs it (the server polls), a row in Tasks.
    const taskId = dialog.task;
    const task = taskId === undefined ? undefined : { server: dialog.server, tool: method, runner: "client" as const };
    if (task && taskId !== undefined)
      this.task(dialog.id, { ...task, taskId, statusMessage: "waiting for the user's answer" });
    try {
      const answer = await this.#ask(dialog, signal);
      if (task)
        this.task(dialog.id, { ...task, status: "completed", statusMessage: `answered ${answer.action}`, ended: true });
      return answer;
    } catch (error) {
      if (task)
        this.task(dialog.id, {
          ...task,
          status: "cancelled",
          statusMessage: `withdrawn: ${errorOf(error).message}`,
          ended: true,
        });
      this.record({
        server: dialog.server,
        kind: "error",
        method,
        error: `withdrawn before an answer: ${errorOf(error).message}`,
      });
      throw error;
    }
  }

  #ask(dialog: Dialog, signal: AbortSignal): Promise<DialogAnswer> {
    return new Promise((resolve, reject) => {
      const close = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.#dialogs.delete(dialog.id);
        this.emit({ type: "dialog-closed", id: dialog.id });
      };
      const onAbort = (): void => {
        close();
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#dialogs.set(dialog.id, {
        dialog,
        settle: (answer) => {
          close();
          resolve(answer);
        },
      });
      this.emit({ type: "dialog", dialog });
    });
  }

  /** The user's answer to a dialog; false when no dialog has that id (answered, or withdrawn). */
  answer(answer: DialogAnswer): boolean {
    const open = this.#dialogs.get(answer.id);
    if (!open) return false;
    open.settle(answer);
    return true;
  }

  /** Elicitation handler for the manager's connections. */
  readonly onElicitation = async (
    server: string,
    params: ElicitParams,
    context: { signal: AbortSignal; taskId?: string | undefined },
  ): Promise<ElicitResult> => {
    const url = typeof params["url"] === "string" ? params["url"] : undefined;
    const dialog: Dialog = {
      id: randomBytes(8).toString("hex"),
      server,
      kind: "elicitation",
      message: params.message,
      requestedSchema: params.requestedSchema as JsonSchema | undefined,
      ...(url === undefined ? {} : { url }),
      ...(context.taskId === undefined ? {} : { task: context.taskId }),
    };
    this.record({ server, kind: "server-request", method: "elicitation/create", params });
    const answer = await this.ask(dialog, "elicitation/create", context.signal);
    const result: ElicitResult =
      answer.action === "accept" && url === undefined
        ? { action: "accept", content: answer.content ?? {} }
        : { action: answer.action };
    this.record({ server, kind: "response", method: "elicitation/create", result });
    return result;
  };

  /** Notification listener for the manager: every notification and log line in the log; a subscribed resource's update sent to the page. */
  readonly onNotification = (server: string, method: string, params: unknown): void => {
    this.record({ server, kind: method === "notifications/message" ? "log" : "notification", method, params });
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    if (method === "notifications/resources/updated" && typeof uri === "string")
      this.emit({ type: "resource-updated", server, uri });
  };

  /** Sampling handler: the user writes the model's reply. */
  readonly onSampling = async (
    server: string,
    params: CreateMessageParams,
    context: { signal: AbortSignal; taskId?: string | undefined },
  ): Promise<CreateMessageResult> => {
    const messages = params.messages.flatMap((m) =>
      (Array.isArray(m.content) ? m.content : [m.content]).map((content) => ({ role: m.role, content })),
    );
    const dialog: Dialog = {
      id: randomBytes(8).toString("hex"),
      server,
      kind: "sampling",
      messages,
      systemPrompt: params.systemPrompt,
      maxTokens: params.maxTokens,
      ...(context.taskId === undefined ? {} : { task: context.taskId }),
    };
    this.record({ server, kind: "server-request", method: "sampling/createMessage", params });
    const answer = await this.ask(dialog, "sampling/createMessage", context.signal);
    if (answer.action !== "accept") {
      this.record({ server, kind: "error", method: "sampling/createMessage", error: "declined by the user" });
      throw Object.assign(new Error("The user declined the sampling request"), { code: -1 });
    }
    const result: CreateMessageResult = {
      role: "assistant",
      content: { type: "text", text: answer.text ?? "" },
      model: "mcp-inspect (human)",
      stopReason: "endTurn",
    };
    this.record({ server, kind: "response", method: "sampling/createMessage", result });
    return result;
  };

  /**
   * Adds an event-stream subscriber (the page's EventSource), of the page that names itself `page`:
   * once its streams are all gone and none comes back within {@link PAGE_GRACE_MS} (a reload, a
   * closed tab), the page is gone and {@link onPageGone}'s callbacks run.
   */
  attach(stream: ServerResponse, page?: string): void {
    this.#streams.add(stream);
    if (page) {
      clearTimeout(this.#leaving.get(page));
      this.#leaving.delete(page);
      this.#pages.set(page, (this.#pages.get(page) ?? 0) + 1);
    }
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.#streams.delete(stream);
      if (page) this.#detach(page);
    };
    stream.on("close", end);
    // A page that went away mid-write is not this process's problem.
    stream.on("error", end);
  }

  #detach(page: string): void {
    const left = (this.#pages.get(page) ?? 1) - 1;
    if (left > 0) return void this.#pages.set(page, left);
    this.#pages.delete(page);
    const timer = setTimeout(() => {
      this.#leaving.delete(page);
      for (const callback of this.#onPageGone) callback(page);
    }, PAGE_GRACE_MS);
    timer.unref();
    this.#leaving.set(page, timer);
  }

  /** Runs `callback` with each page that is gone (see {@link attach}). */
  onPageGone(callback: (page: string) => void): void {
    this.#onPageGone.add(callback);
  }

  keepalive(): void {
    for (const stream of this.#streams) stream.write(": keepalive\n\n");
  }

  /** Ends every stream and withdraws every dialog (the servers get `cancel`). */
  close(): void {
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
    for (const timer of this.#leaving.values()) clearTimeout(timer);
    this.#leaving.clear();
    for (const { dialog, settle } of [...this.#dialogs.values()]) settle({ id: dialog.id, action: "cancel" });
  }
}
