// serveUntilStopped: a gateway served until its process is asked to stop, against server-everything
// through a real manager: over stdio (driven line by line, ended by the end of stdin), a stop while
// the servers still start, and an HTTP port already taken. Each time what the caller owns is closed
// and no listener of ours is left on the process.
import { createServer } from "node:net";
import { PassThrough } from "node:stream";
import { MCPManager } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  gatewayFromOptions,
  gatewayHandlers,
  GatewayListenError,
  serveCallers,
  serveUntilStopped,
  type McpGateway,
} from "../src/index.js";

const configs = {
  everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
  missing: { command: "no-such-command-for-serve-process-test", timeout: 20_000 },
};
const listeners = () => ({ SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") });
const before = listeners();
const managers: MCPManager[] = [];
afterEach(async () => {
  expect(listeners()).toEqual(before);
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
});

async function made(
  http: boolean,
): Promise<{ manager: MCPManager; gateway: McpGateway; self: Awaited<ReturnType<typeof serveCallers>>["self"] }> {
  const handlers = gatewayHandlers();
  const manager = new MCPManager({ ...handlers, cache: false, pins: false, reconnect: false });
  managers.push(manager);
  const callers = await serveCallers({ http, env: { MCP_SERVE_TOKEN: "token-0123456789abcdef" } });
  const { gateway } = await gatewayFromOptions(manager, configs, {
    http,
    callers,
    handlers,
    name: "test-gateway",
    version: "1.0.0",
    files: [],
    warn: () => undefined,
    env: {},
  });
  return { manager, gateway, self: callers.self };
}

describe("serveUntilStopped", () => {
  it("over stdio: starts the servers (telling those that failed), serves, and stops at the end of stdin", async () => {
    const { manager, gateway, self } = await made(false);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let answers = "";
    stdout.on("data", (chunk: Buffer) => (answers += chunk.toString()));
    const seen: string[] = [];
    const served = serveUntilStopped(gateway, {
      stdio: { caller: self, stdin, stdout },
      connect: () => manager.connectServers(configs),
      close: async () => void seen.push("closed"),
      again: () => undefined,
      onStopping: (why) => seen.push(`stopping: ${why}`),
      onStarted: (failed) => seen.push(`failed: ${[...failed.keys()].join(",")}`),
      onServing: (http) => seen.push(`serving ${http === undefined ? "stdio" : "http"}`),
    });
    await expect.poll(() => seen, { timeout: 30_000 }).toContain("serving stdio");
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    stdin.write(`${JSON.stringify(initialize)}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    await expect.poll(() => answers, { timeout: 30_000 }).toContain("everything__echo");
    stdin.end();
    expect(await served).toEqual({ why: "end of stdin", closed: "closed" });
    expect(seen).toEqual(["failed: missing", "serving stdio", "stopping: end of stdin", "closed"]);
  });

  it("a stop while the servers still start ends the wait: nothing is served, everything closes", async () => {
    const { gateway, self } = await made(false);
    const seen: string[] = [];
    const served = serveUntilStopped(gateway, {
      stdio: { caller: self, stdin: new PassThrough(), stdout: new PassThrough() },
      connect: () => new Promise(() => undefined),
      close: async () => void seen.push("closed"),
      again: () => undefined,
      onServing: () => seen.push("serving"),
    });
    process.emit("SIGTERM", "SIGTERM");
    expect(await served).toEqual({ why: "SIGTERM", closed: "closed" });
    expect(seen).toEqual(["closed"]);
  });

  it("an HTTP port already taken: a GatewayListenError naming it, after everything closed", async () => {
    const { manager, gateway } = await made(true);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const seen: string[] = [];
    try {
      const error = await serveUntilStopped(gateway, {
        port,
        connect: () => manager.connectServers(configs),
        close: async () => void seen.push("closed"),
        again: () => undefined,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayListenError);
      expect((error as Error).message).toMatch(
        new RegExp(`^could not listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
      );
      expect(seen).toEqual(["closed"]);
    } finally {
      taken.close();
    }
  });
});
