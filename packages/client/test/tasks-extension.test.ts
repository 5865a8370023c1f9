// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) against a server built from the
// extension's text (tools/test-utils/src/tasks-server.ts): no public server implements it yet.
import { startTasksServer, type TasksServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  callTool,
  connectToServer,
  disconnectServer,
  TASKS_EXTENSION,
  type ConnectOptions,
  type MCPServerConnection,
  type TaskStatus,
} from "../src/index.js";

const open: MCPServerConnection[] = [];
const servers: TasksServer[] = [];
afterEach(async () => {
  for (const conn of open.splice(0)) await disconnectServer(conn);
  for (const server of servers.splice(0)) await server.stop();
});
async function setup(options: ConnectOptions = {}): Promise<{ server: TasksServer; conn: MCPServerConnection }> {
  const server = await startTasksServer();
  servers.push(server);
  const conn = await connectToServer("tasks", { type: "http", url: server.url, timeout: 10_000 }, options);
  open.push(conn);
  return { server, conn };
}
const text = (result: { content: { type: string; text?: string }[] }): string =>
  result.content.map((c) => c.text ?? "").join("");
const declared = (params: Record<string, unknown>): boolean =>
  Object.hasOwn(
    (
      (params["_meta"] as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"] as {
        extensions?: object;
      }
    ).extensions ?? {},
    TASKS_EXTENSION,
  );

describe("tool calls that become tasks (2026-07-28 tasks extension)", () => {
  it("a plain callTool follows the task: polled at the server's pace, statuses reported, the result returned; task requests name the task in Mcp-Name", async () => {
    const { server, conn } = await setup();
    expect(conn.era).toBe("2026-07-28");
    const seen: TaskStatus[] = [];
    const result = await callTool(conn, "report", { topic: "tides" }, { onTaskStatus: (task) => seen.push(task) });
    expect(text(result)).toBe("Report: tides");
    expect(seen.map((t) => [t.status, t.statusMessage])).toEqual([
      ["working", "The operation is now in progress."],
      ["working", "stage 1/2"],
      ["working", "stage 2/2"],
      ["completed", "done"],
    ]);
    // Both eras' field names, so one listener reads either.
    expect(seen[0]).toMatchObject({ pollIntervalMs: 50, pollInterval: 50, ttlMs: 60_000, ttl: 60_000 });
    const call = server.requests.find((r) => r.method === "tools/call")!;
    expect(declared(call.params)).toBe(true);
    const gets = server.requests.filter((r) => r.method === "tasks/get");
    expect(gets).toHaveLength(3);
    for (const get of gets)
      expect(get.headers).toMatchObject({ "mcp-method": "tasks/get", "mcp-name": seen[0]!.taskId });
  });

  it("input_required: the task's input request goes through the elicitation handler, answered once with tasks/update", async () => {
    const asked: string[] = [];
    const { server, conn } = await setup({
      onElicitation: (request) => {
        asked.push(String((request as { message?: string }).message));
        return Promise.resolve({ action: "accept", content: { name: "Luca" } });
      },
    });
    const result = await callTool(conn, "greet", {});
    expect(text(result)).toBe("Hello, Luca!");
    expect(asked).toEqual(["Your name?"]);
    const updates = server.requests.filter((r) => r.method === "tasks/update");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.params["inputResponses"]).toEqual({ "name-1": { action: "accept", content: { name: "Luca" } } });
    expect(updates[0]!.headers["mcp-name"]).toBe(updates[0]!.params["taskId"]);
  });

  it("a failed task rejects with its JSON-RPC error, typed", async () => {
    const { conn } = await setup();
    await expect(callTool(conn, "broken", {})).rejects.toMatchObject({
      name: "InternalRpcError",
      code: -32603,
      rpcMessage: "backend down",
    });
  });

  it("aborting cancels the task on the server (tasks/cancel) and rejects with the caller's reason", async () => {
    const { server, conn } = await setup();
    const controller = new AbortController();
    const statuses: string[] = [];
    const call = callTool(
      conn,
      "forever",
      {},
      { signal: controller.signal, onTaskStatus: (task) => void statuses.push(task.status) },
    );
    await expect.poll(() => server.requests.filter((r) => r.method === "tasks/get").length).toBeGreaterThan(1);
    controller.abort(new Error("user stopped it"));
    await expect(call).rejects.toThrow("user stopped it");
    await expect.poll(() => [...server.tasks.values()].map((t) => t.status)).toEqual(["cancelled"]);
    const cancel = server.requests.find((r) => r.method === "tasks/cancel")!;
    expect(cancel.headers["mcp-name"]).toBe(cancel.params["taskId"]);
    expect(new Set(statuses)).toEqual(new Set(["working"])); // at least one status came, and each was working
  });

  it("task: false leaves the extension off the call: such a server refuses with -32003, no task is made; a plain answer is still a plain answer", async () => {
    const { server, conn } = await setup();
    await expect(callTool(conn, "report", {}, { task: false })).rejects.toMatchObject({ code: -32003 });
    expect(server.tasks.size).toBe(0);
    expect(declared(server.requests.find((r) => r.method === "tools/call")!.params)).toBe(false);
    expect(text(await callTool(conn, "quick", {}))).toBe("quick answer");
  });
});
