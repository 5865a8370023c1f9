// A manager with server-everything (stdio) for the adapters' tests: the real tools they hand to
// a model.
import { MCPManager, MemoryPinStore, type MCPTool } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function everythingManager(): Promise<{
  manager: MCPManager;
  tools: MCPTool[];
  tool(name: string): MCPTool;
}> {
  const manager = new MCPManager({
    pins: { store: new MemoryPinStore() },
    cache: false,
    reconnect: false,
    oauth: false,
    results: { dir: mkdtempSync(join(tmpdir(), "mcp-adapters-")) },
  });
  const { errors } = await manager.connectServers({
    everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
  });
  if (errors.size > 0) throw new Error([...errors.values()].join("; "));
  const tools = manager.getTools();
  return { manager, tools, tool: (name) => tools.find((t) => t.toolName === name)! };
}

/** The manager of {@link everythingManager} for a test file: connected before its tests, disconnected after them. */
export function useEverything(): Awaited<ReturnType<typeof everythingManager>> {
  const setup = {} as Awaited<ReturnType<typeof everythingManager>>;
  beforeAll(async () => {
    Object.assign(setup, await everythingManager());
  });
  afterAll(() => setup.manager?.disconnectAll());
  return setup;
}

export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
