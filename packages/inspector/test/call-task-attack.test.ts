// `POST /api/call` with `task: true` (issue 55) against a real stdio server on the official SDK with
// tasks (test/fixtures/task-server.mjs): a tool that does not take tasks is refused before anything
// is sent (it used to run on the server, its result then refused as "Invalid task creation result":
// the user told it failed after it ran), while one that may is still run as a task.
import { fileURLToPath } from "node:url";
import { MCPManager } from "@mcp/manager";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectorHooks, startInspector, type CallAnswer, type Inspector, type InspectorState } from "../src/index.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/task-server.mjs", import.meta.url));
const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;

async function api<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, {
    method: "POST",
    headers: { "x-inspector-token": inspector.token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function state(): Promise<InspectorState> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
    headers: { "x-inspector-token": inspector.token },
  });
  return (await response.json()) as InspectorState;
}

beforeAll(async () => {
  await manager.connectServers({ t: { command: process.execPath, args: [FIXTURE], timeout: 20_000 } });
  inspector = await startInspector(manager, { hooks });
});

afterAll(async () => {
  await inspector?.close();
  await manager.disconnectAll();
});

describe("a call as a task", () => {
  it("refuses task: true for a tool that does not take tasks, without calling it; runs one that may as a task", async () => {
    // brew runs as a task until pour is called.
    const brewing = api<CallAnswer>("/api/call", { id: "brew", tool: "mcp__t__brew", task: true });
    await expect
      .poll(async () => (await state()).tasks.find((t) => t.id === "brew")?.status, { timeout: 20_000 })
      .toBe("working");
    // pour sent as a task: refused here, so it never runs (brew goes on working).
    const refused = await api<{ message: string }>("/api/call", { id: "pour1", tool: "mcp__t__pour", task: true });
    expect([refused.status, refused.body.message]).toEqual([400, expect.stringContaining('"task"')]);
    const listed = await api<CallAnswer>("/api/call", { id: "list", tool: "mcp__t__tasks" });
    expect(JSON.stringify(listed.body.result)).toContain("working");
    expect((await state()).tasks.find((t) => t.id === "brew")?.status).toBe("working");
    // Called plainly, pour runs and brew completes as a task.
    expect((await api<CallAnswer>("/api/call", { id: "pour2", tool: "mcp__t__pour" })).body.error).toBeUndefined();
    const brewed = await brewing;
    expect(JSON.stringify(brewed.body.result)).toContain("brewed");
  }, 60_000);
});
