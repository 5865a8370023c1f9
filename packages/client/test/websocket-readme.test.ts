// The README's WebSocket transport, built from the README itself (its ```ts block with `class
// WebSocketTransport`, written out and imported), calls a tool of an official SDK v2 server over a
// real WebSocket on 127.0.0.1. The SDK ships no WebSocket server transport, so the test bridges a
// `ws` server socket to the SDK's generic Transport interface (start/send/close, onmessage/onclose).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonRpcMessage, MCPTransport } from "@mcp/jsonrpc";
import { McpServer, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { afterAll, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";
import { callTool, connectToServer, disconnectServer, listTools } from "../src/index.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const generated = mkdtempSync(join(here, ".readme-ws-"));
afterAll(() => rmSync(generated, { recursive: true, force: true }));

/** The README's example, as a module of this package's test folder (so it resolves @mcp/jsonrpc and ws as the package does). */
async function readmeTransport(): Promise<new (url: string) => MCPTransport> {
  const readme = readFileSync(join(here, "..", "README.md"), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? "")
    .find((code) => code.includes("class WebSocketTransport"));
  expect(block, "the README has the WebSocket example").toBeDefined();
  expect(block!.trim().split("\n").length).toBeLessThan(60);
  const file = join(generated, "websocket-transport.ts");
  writeFileSync(file, block!);
  const module = (await import(file)) as { WebSocketTransport: new (url: string) => MCPTransport };
  return module.WebSocketTransport;
}

/** One server-side socket as the SDK's Transport. */
class ServerSocketTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  constructor(private readonly socket: WebSocket) {}
  async start(): Promise<void> {
    // ws hands a Buffer for a text frame with its default binaryType ("nodebuffer").
    this.socket.on("message", (data) =>
      this.onmessage?.(JSON.parse((data as Buffer).toString("utf8")) as JSONRPCMessage),
    );
    this.socket.on("close", () => this.onclose?.());
    this.socket.on("error", (error) => this.onerror?.(error));
  }
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve())),
    );
  }
  async close(): Promise<void> {
    this.socket.close();
  }
}

describe("the README's WebSocket transport", () => {
  it("calls a tool of an official SDK v2 server over a real WebSocket, and ends cleanly", async () => {
    const WebSocketTransport = await readmeTransport();
    const wss = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      handleProtocols: (protocols) => (protocols.has("mcp") ? "mcp" : false),
    });
    await new Promise<void>((resolve) => wss.once("listening", resolve));
    const serverClosed = new Promise<void>((resolve) => {
      wss.on("connection", (socket) => {
        const server = new McpServer({ name: "ws-sdk", version: "1.0.0" });
        server.registerTool(
          "add",
          { description: "a + b", inputSchema: z.object({ a: z.number(), b: z.number() }) },
          ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
        );
        socket.on("close", () => resolve());
        void server.connect(new ServerSocketTransport(socket));
      });
    });
    const { port } = wss.address() as { port: number };
    const sent: unknown[] = [];
    const transport = new WebSocketTransport(`ws://127.0.0.1:${port}`);
    transport.onMessage = (message, direction) =>
      direction === "out" && sent.push((message as JsonRpcMessage & { method?: string }).method);
    expect(transport.connected).toBe(false);
    const conn = await connectToServer("ws", { command: "unused" }, { transport, listen: false });
    try {
      expect(transport.connected).toBe(true);
      expect((await listTools(conn)).map((tool) => tool.name)).toEqual(["add"]);
      const result = await callTool(conn, "add", { a: 2, b: 40 });
      expect(result.content).toEqual([{ type: "text", text: "42" }]);
      expect(sent).toContain("tools/call");
    } finally {
      await disconnectServer(conn);
    }
    await serverClosed; // the server saw the socket close
    expect(transport.connected).toBe(false);
    await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
  });
});
