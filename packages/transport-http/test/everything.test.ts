import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpTransport, type HttpTransport } from "../src/index.js";
import { startEverything } from "mcp-test-utils";

type Init = { protocolVersion: string; serverInfo: { name: string } };

for (const mode of ["streamableHttp", "sse"] as const) {
  describe(`against @modelcontextprotocol/server-everything (${mode})`, () => {
    let server: Awaited<ReturnType<typeof startEverything>>;
    beforeAll(async () => {
      server = await startEverything(mode);
    });
    afterAll(async () => {
      await server.stop();
    });

    async function handshake(): Promise<HttpTransport> {
      const transport = await createHttpTransport({ type: mode === "sse" ? "sse" : "http", url: server.url });
      const init = await transport.request<Init>("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "http-test", version: "0" },
      });
      transport.setProtocolVersion(init.protocolVersion);
      await transport.notify("notifications/initialized");
      return transport;
    }

    it("initialize, tools/list, tools/call echo", async () => {
      const transport = await handshake();
      try {
        expect(transport.mode).toBe(mode === "sse" ? "sse" : "http");
        if (mode === "streamableHttp") expect(transport.sessionId).toMatch(/.+/);
        const { tools } = await transport.request<{ tools: { name: string }[] }>("tools/list");
        expect(tools.map((t) => t.name)).toContain("echo");
        await expect(
          transport.request("tools/call", { name: "echo", arguments: { message: "over http" } }),
        ).resolves.toMatchObject({
          content: [{ type: "text", text: "Echo: over http" }],
        });
      } finally {
        await transport.close();
      }
    });

    it("delivers every progress notification of a long-running tool", async () => {
      const transport = await handshake();
      try {
        const progress: number[] = [];
        await transport.request(
          "tools/call",
          { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
          {
            onProgress: (p) => progress.push(p.progress),
          },
        );
        expect(progress).toEqual([1, 2, 3]);
      } finally {
        await transport.close();
      }
    });

    if (mode === "streamableHttp") {
      it("close() sends DELETE: the server forgets the session", async () => {
        const transport = await handshake();
        const session = transport.sessionId!;
        const probe = () =>
          fetch(server.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-session-id": session,
              "mcp-protocol-version": "2025-11-25",
            },
            body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" }),
          });
        const before = await probe();
        await before.text();
        expect(before.status).toBe(200);
        await transport.close();
        // server-everything answers an unknown session with 400 (the spec says 404); either way it is gone.
        const after = await probe();
        await after.text();
        expect([400, 404]).toContain(after.status);
      });

      it("works over an injected fetch as well", async () => {
        const transport = await createHttpTransport({
          type: "http",
          url: server.url,
          fetch: (input, init) => fetch(input, init as RequestInit),
        });
        try {
          await transport.request("initialize", {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "f", version: "0" },
          });
          await transport.notify("notifications/initialized");
          await expect(
            transport.request("tools/call", { name: "get-sum", arguments: { a: 2, b: 40 } }),
          ).resolves.toMatchObject({
            content: [{ text: expect.stringContaining("42") }],
          });
        } finally {
          await transport.close();
        }
      });
    }

    it("fires onClose once and refuses requests after close", async () => {
      const transport = await handshake();
      let closes = 0;
      transport.onClose = () => closes++;
      await transport.close();
      await transport.close();
      expect(closes).toBe(1);
      expect(transport.connected).toBe(false);
      await expect(transport.request("tools/list")).rejects.toThrow("Transport closed");
    });
  });
}
