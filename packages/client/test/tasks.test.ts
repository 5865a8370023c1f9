// Tool calls as tasks (MCP 2025-11-25) against server-everything over stdio (and Streamable HTTP at
// the end): its `simulate-research-query` declares `execution.taskSupport: "required"` and takes
// four 1 s stages.
import { everythingEntry, startEverything } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  callTool,
  connectToServer,
  disconnectServer,
  listTools,
  TaskCancelledError,
  type ConnectOptions,
  type MCPServerConnection,
  type TaskStatus,
} from "../src/index.js";

const open: MCPServerConnection[] = [];
afterEach(async () => {
  for (const conn of open.splice(0)) await disconnectServer(conn);
});
async function everything(options: ConnectOptions = {}): Promise<MCPServerConnection> {
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
/** The server's own view of the task (`tasks/get`) turns `cancelled`: the client sent `tasks/cancel`. */
async function expectCancelledOnServer(conn: MCPServerConnection, taskId: string | undefined): Promise<void> {
  await expect
    .poll(async () => (await conn.request<TaskStatus>("tasks/get", { taskId })).status, { timeout: 5000 })
    .toBe("cancelled");
}

/**
 * Aborts a research task at its first status (it comes with the created task: the work is under
 * way, 4 s of it): the call rejects with the caller's reason, and the server sees the task cancelled.
 */
async function abortAtFirstStatus(conn: MCPServerConnection, topic: string): Promise<void> {
  const abort = new AbortController();
  let taskId: string | undefined;
  const call = callTool(
    conn,
    "simulate-research-query",
    { topic },
    {
      signal: abort.signal,
      onTaskStatus: (task) => {
        taskId = task.taskId;
        abort.abort(new Error("user gave up"));
      },
    },
  );
  await expect(call).rejects.toThrow("user gave up");
  await expectCancelledOnServer(conn, taskId);
}

describe("tool calls as tasks (2025-11-25)", () => {
  it("a tool that requires a task runs as one: created, polled at the server's pace with its status messages, then its result", async () => {
    const conn = await everything();
    const tool = (await listTools(conn)).find((t) => t.name === "simulate-research-query");
    expect(tool?.["execution"]).toMatchObject({ taskSupport: "required" });
    const seen: TaskStatus[] = [];
    const result = await callTool(
      conn,
      "simulate-research-query",
      { topic: "tides" },
      { onTaskStatus: (task) => seen.push(task) },
    );
    expect(text(result)).toContain("# Research Report: tides");
    expect(new Set(seen.map((t) => t.taskId)).size).toBe(1);
    expect(seen[0]!.status).toBe("working");
    expect(seen.at(-1)!.status).toBe("completed");
    // Which stages a poll lands on depends on timing; at least one is seen with its message.
    expect(seen.filter((t) => t.status === "working").map((t) => t.statusMessage)).toContainEqual(
      expect.stringMatching(/^(Gathering sources|Analyzing content|Synthesizing findings|Generating report)\.\.\.$/),
    );
  }, 30_000);

  it("a tool never listed on this connection: the tools are listed once, and it runs as the task it requires", async () => {
    const conn = await everything();
    const result = await callTool(conn, "simulate-research-query", { topic: "reefs" });
    expect(text(result)).toContain("# Research Report: reefs");
  }, 30_000);

  it("input_required: the server's question goes through the elicitation handler, and the answer shapes the result", async () => {
    const asked: string[] = [];
    const conn = await everything({
      onElicitation: async (params) => {
        asked.push(params.message);
        return { action: "accept", content: { interpretation: "marine biology" } };
      },
    });
    await listTools(conn);
    const statuses: string[] = [];
    const result = await callTool(
      conn,
      "simulate-research-query",
      { topic: "coral", ambiguous: true },
      { onTaskStatus: (task) => statuses.push(task.status) },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"coral" could have multiple interpretations');
    expect(statuses).toContain("input_required");
    expect(text(result)).toContain("# Research Report: coral (marine biology)");
  }, 30_000);

  it("aborting cancels the task on the server (tasks/cancel) and rejects with the caller's reason", async () => {
    const conn = await everything();
    await listTools(conn);
    await abortAtFirstStatus(conn, "storms");
  }, 30_000);

  it("a listener that throws ends the call with its error, and the task is cancelled, not left running", async () => {
    const conn = await everything();
    await listTools(conn);
    let taskId: string | undefined;
    const call = callTool(
      conn,
      "simulate-research-query",
      { topic: "winds" },
      {
        onTaskStatus: (task) => {
          taskId = task.taskId;
          throw new Error("listener broke");
        },
      },
    );
    await expect(call).rejects.toThrow("listener broke");
    await expectCancelledOnServer(conn, taskId);
  }, 30_000);

  it("task: false sends the call plainly, and the server's refusal comes back as it is", async () => {
    const conn = await everything();
    await listTools(conn);
    // The official SDK answers -32601 inside an isError result rather than as a JSON-RPC error.
    const refused = await callTool(conn, "simulate-research-query", { topic: "x" }, { task: false });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/-32601.*requires task augmentation/);
    // A task the server cancels is a TaskCancelledError (the class is exported for callers to test).
    expect(TaskCancelledError.brand).toBe("TaskCancelledError");
  }, 30_000);
});

describe("tool calls as tasks over Streamable HTTP (server-everything)", () => {
  it("runs as a task with its statuses, and an abort cancels it on the server", async () => {
    const server = await startEverything("streamableHttp");
    try {
      const conn = await connectToServer("everything-http", { type: "http", url: server.url, timeout: 20_000 });
      open.push(conn);
      const seen: string[] = [];
      const result = await callTool(
        conn,
        "simulate-research-query",
        { topic: "currents" },
        { onTaskStatus: (task) => seen.push(task.status) },
      );
      expect(text(result)).toContain("# Research Report: currents");
      expect(seen.at(-1)).toBe("completed");

      await abortAtFirstStatus(conn, "swell");
    } finally {
      for (const conn of open.splice(0)) await disconnectServer(conn);
      await server.stop();
    }
  }, 30_000);
});
