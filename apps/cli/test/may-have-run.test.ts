// A call whose connection broke after the server read it: `mcp call` says it may have run and to
// check before calling it again, and does not send it twice. The server is the official SDK's
// (stateless Streamable HTTP) behind a node:http front that cuts the connection of one tool's call.
import { createServer, type Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

describe("a call that may have run", () => {
  let box: Sandbox;
  let server: Server;
  let sent = 0;
  beforeAll(async () => {
    box = sandbox();
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += String(chunk)));
      req.on("end", () => {
        if (req.method !== "POST") return void res.writeHead(405).end();
        const message = JSON.parse(body) as { method?: string; params?: { name?: string } };
        if (message.method === "tools/call" && message.params?.name === "send_email") {
          sent++; // the server read it (and, for all the client knows, sent the email)
          return void req.socket.destroy();
        }
        if (message.method === "tools/call" && message.params?.name === "notify_all") {
          sent++;
          // Its answer begins (an event with no id, so it cannot be resumed), then the connection breaks.
          res.writeHead(200, { "content-type": "text/event-stream" });
          return void res.write(
            'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"sending"}}\n\n',
            () => req.socket.destroy(),
          );
        }
        const mcpServer = new McpServer({ name: "mail", version: "1.0.0" });
        mcpServer.registerTool("send_email", { description: "Sends an email", inputSchema: {} }, () => ({
          content: [{ type: "text", text: "sent" }],
        }));
        mcpServer.registerTool("notify_all", { description: "Sends everyone a notice", inputSchema: {} }, () => ({
          content: [{ type: "text", text: "sent" }],
        }));
        const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
        res.on("close", () => void transport.close());
        void mcpServer.connect(transport).then(() => transport.handleRequest(req, res, JSON.parse(body)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    userConfig(box, {
      mail: { type: "http", url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp` },
    });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    box.remove();
  });

  it('says it may have run and to check before calling again, never "Cannot reach"; it is sent once', async () => {
    const run = await mcp(box, ["call", "mail.send_email"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'error: calling mail.send_email: The connection to MCP server "mail" at http://127.0.0.1:',
    );
    expect(run.stderr).toContain("broke after the request was sent");
    expect(run.stderr).toContain(
      "it may have run, so it was not sent again. Check whether it took effect before calling it again.",
    );
    expect(run.stderr).not.toContain("Cannot reach");
    expect(sent).toBe(1);
  });

  it("a call whose answer began and broke with no event id to resume by says it may have run too; it is sent once", async () => {
    const before = sent;
    const run = await mcp(box, ["call", "mail.notify_all"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: calling mail.notify_all: No response received for request ID");
    expect(run.stderr).toContain(
      "the server took the request, so it may have run. Check whether it took effect before calling it again.",
    );
    expect(sent - before).toBe(1);
  });
});
