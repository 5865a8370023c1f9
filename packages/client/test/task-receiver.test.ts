// The server's sampling and elicitation requests run as tasks on the client (MCP 2025-11-25 tasks,
// receiver side), against server-everything's trigger-*-request-async tools: it sends the request
// with `task`, polls the client's tasks/get every second, then takes tasks/result.
import { everythingEntry } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { TaskReceiver } from "../src/task-receiver.js";
import {
  callTool,
  connectToServer,
  disconnectServer,
  listTools,
  type ConnectOptions,
  type MCPServerConnection,
} from "../src/index.js";

const open: MCPServerConnection[] = [];
afterEach(async () => {
  for (const conn of open.splice(0)) await disconnectServer(conn);
});
async function everything(options: ConnectOptions): Promise<MCPServerConnection> {
  const conn = await connectToServer(
    "everything",
    { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
    options,
  );
  open.push(conn);
  return conn;
}
const text = (result: { content: { type: string; text?: string }[] }): string =>
  result.content.map((c) => c.text ?? "").join("");

describe("server requests as tasks (server-everything)", () => {
  it("sampling: answered at once with a task, run by onSampling in the background, its result fetched by the server", async () => {
    const prompts: string[] = [];
    const conn = await everything({
      serverRequestTasks: { pollIntervalMs: 200 },
      onSampling: async (params) => {
        prompts.push(JSON.stringify(params.messages));
        await new Promise((resolve) => setTimeout(resolve, 1500)); // still working at the server's first poll
        return { role: "assistant", content: { type: "text", text: "a sampled answer" }, model: "test-model" };
      },
    });
    expect((await listTools(conn)).map((t) => t.name)).toContain("trigger-sampling-request-async");
    const result = await callTool(conn, "trigger-sampling-request-async", { prompt: "tides" }, { timeout: 30_000 });
    const out = text(result);
    expect(out).toContain("[COMPLETED] Async sampling completed!");
    expect(out).toMatch(/Poll 1: working/);
    expect(out).toMatch(/Poll \d+: completed/);
    expect(out).toContain("a sampled answer");
    // tasks/result tags the result with its task.
    expect(out).toContain("io.modelcontextprotocol/related-task");
    expect(prompts[0]).toContain("tides");
  }, 40_000);

  it("elicitation: the user's answer, given in the background, reaches the server through tasks/result; the handler is told its task", async () => {
    const taskIds: (string | undefined)[] = [];
    const conn = await everything({
      serverRequestTasks: true,
      onElicitation: (_params, context) => {
        taskIds.push(context.taskId);
        return Promise.resolve({ action: "accept", content: { name: "Luca", favoriteColor: "Blue" } });
      },
    });
    const result = await callTool(conn, "trigger-elicitation-request-async", {}, { timeout: 30_000 });
    expect(text(result)).toContain("[COMPLETED] User provided the requested information!");
    expect(text(result)).toContain("Luca");
    // The task the server polled is the one the handler was told of.
    expect(taskIds).toHaveLength(1);
    expect(text(result)).toContain(`Task created: ${taskIds[0]!}`);
  }, 40_000);

  it("off by default: the capability is not advertised, so the server offers no async tools", async () => {
    const conn = await everything({
      onSampling: () => Promise.resolve({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }),
    });
    expect((await listTools(conn)).map((t) => t.name)).not.toContain("trigger-sampling-request-async");
  });
});

describe("the task receiver", () => {
  const context = { requestId: 1, signal: new AbortController().signal };

  it("tasks/cancel ends a task at once (its handler is aborted); tasks/result then says it was cancelled; unknown ids are -32602", async () => {
    let aborted = false;
    const receiver = new TaskReceiver(
      {},
      new Set(["sampling/createMessage"]),
      (_method, _params, ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener("abort", () => ((aborted = true), reject(new Error("stopped")))),
        ),
    );
    const created = (await receiver.handle(
      "sampling/createMessage",
      { task: { ttl: 1000 }, messages: [] },
      context,
    )) as { task: { taskId: string; status: string; ttl: number } };
    expect(created.task).toMatchObject({ status: "working", ttl: 1000 });
    const { taskId } = created.task;
    expect(await receiver.handle("tasks/list", {}, context)).toMatchObject({ tasks: [{ taskId, status: "working" }] });
    expect(await receiver.handle("tasks/cancel", { taskId }, context)).toMatchObject({ taskId, status: "cancelled" });
    expect(aborted).toBe(true);
    await expect(receiver.handle("tasks/result", { taskId }, context)).rejects.toMatchObject({
      code: -32602,
      rpcMessage: `Task ${taskId} was cancelled`,
    });
    await expect(receiver.handle("tasks/get", { taskId: "nope" }, context)).rejects.toMatchObject({ code: -32602 });
    // A request without `task`, or for a method it has no handler for, is not its business.
    expect(receiver.handle("sampling/createMessage", { messages: [] }, context)).toBeUndefined();
    expect(receiver.handle("elicitation/create", { task: {} }, context)).toBeUndefined();
    receiver.close();
  });

  it("a failed handler makes a failed task whose result is the handler's error", async () => {
    const receiver = new TaskReceiver({}, new Set(["elicitation/create"]), () =>
      Promise.reject(new Error("no user here")),
    );
    const { task } = (await receiver.handle("elicitation/create", { task: {} }, context)) as {
      task: { taskId: string };
    };
    await expect(receiver.handle("tasks/result", { taskId: task.taskId }, context)).rejects.toMatchObject({
      code: -32603,
      rpcMessage: "no user here",
    });
    expect(await receiver.handle("tasks/get", { taskId: task.taskId }, context)).toMatchObject({
      status: "failed",
      statusMessage: "no user here",
    });
    receiver.close();
  });
});
