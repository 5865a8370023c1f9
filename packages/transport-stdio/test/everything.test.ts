import { afterEach, describe, expect, it } from "vitest";
import { createStdioTransport, type StdioTransport } from "../src/index.js";
import { everythingEntry } from "mcp-test-utils";

let transport: StdioTransport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
});

describe("against @modelcontextprotocol/server-everything over stdio", () => {
  it("initialize → initialized → tools/list → tools/call echo, by raw request() calls", async () => {
    transport = await createStdioTransport({ command: process.execPath, args: [everythingEntry, "stdio"] });
    expect(transport.connected).toBe(true);
    expect(transport.pid).toBeTypeOf("number");
    const init = await transport.request<{
      protocolVersion: string;
      serverInfo: { name: string };
      capabilities: object;
    }>("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "stdio-test", version: "0.0.0" },
    });
    expect(init.protocolVersion).toBe("2025-11-25");
    expect(init.capabilities).toHaveProperty("tools");
    await transport.notify("notifications/initialized");
    const { tools } = await transport.request<{ tools: { name: string }[] }>("tools/list");
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
    );
    const result = await transport.request("tools/call", { name: "echo", arguments: { message: "hi there" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "Echo: hi there" }] });
    // Its banner goes to stderr, which we keep.
    expect(transport.stderrTail.length).toBeGreaterThan(0);
  });

  it("answers the server's roots/list request through onRequest", async () => {
    transport = await createStdioTransport({ command: process.execPath, args: [everythingEntry, "stdio"] });
    const asked: string[] = [];
    transport.onRequest = async (method) => {
      asked.push(method);
      if (method === "roots/list") return { roots: [{ uri: "file:///tmp/project", name: "project" }] };
      throw new Error(`unexpected ${method}`);
    };
    await transport.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { roots: { listChanged: true } },
      clientInfo: { name: "stdio-test", version: "0.0.0" },
    });
    await transport.notify("notifications/initialized");
    const result = await transport.request<{ content: { text: string }[] }>("tools/call", {
      name: "get-roots-list",
      arguments: {},
    });
    expect(asked).toContain("roots/list");
    expect(JSON.stringify(result)).toContain("file:///tmp/project");
  });

  it("delivers every progress notification of a long-running tool", async () => {
    transport = await createStdioTransport({ command: process.execPath, args: [everythingEntry, "stdio"] });
    await transport.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    });
    await transport.notify("notifications/initialized");
    const progress: number[] = [];
    await transport.request(
      "tools/call",
      { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
      {
        onProgress: (p) => progress.push(p.progress),
      },
    );
    expect(progress).toEqual([1, 2, 3]);
  });
});
