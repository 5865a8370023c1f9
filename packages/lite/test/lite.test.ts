import { createServer, type Server } from "node:http";
import fc from "fast-check";
import { startEverything, type EverythingServer } from "mcp-test-utils";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callMCP, LiteHttpError, LiteParseError, parseSSE, parseSSEStream } from "../src/index.js";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A stateless server on the official SDK: a fresh server and transport per request, as its docs show. */
function sdkStatelessServer(json: boolean): Server {
  return createServer((req, res) => {
    void (async () => {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      const mcp = new McpServer({ name: "lite-test", version: "1.0.0" });
      mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: json }); // no session id generator: stateless
      res.on("close", () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(body));
    })();
  });
}

describe("callMCP against real servers", () => {
  for (const json of [true, false]) {
    describe(`official SDK server, stateless, ${json ? "JSON" : "SSE"} answers`, () => {
      let server: Server;
      let url: string;
      beforeAll(async () => {
        server = sdkStatelessServer(json);
        url = await listen(server);
      });
      afterAll(() => close(server));

      it("returns the raw result envelope", async () => {
        const response = await callMCP(url, "tools/call", { name: "add", arguments: { a: 20, b: 22 } });
        expect(response).toMatchObject({ jsonrpc: "2.0", result: { content: [{ type: "text", text: "42" }] } });
      });

      it("returns (does not throw) a JSON-RPC error envelope", async () => {
        const response = await callMCP(url, "tools/call", { name: "no-such-tool", arguments: {} });
        expect(JSON.stringify(response)).toMatch(/no-such-tool/);
        const unknown = await callMCP(url, "no/such/method");
        expect(unknown).toMatchObject({ error: { code: -32601 } });
      });
    });
  }

  describe("@modelcontextprotocol/server-everything (streamableHttp)", () => {
    let server: EverythingServer;
    let url: string;
    beforeAll(async () => {
      server = await startEverything("streamableHttp");
      url = server.url;
    });
    afterAll(() => server.stop());

    it("initialize over an SSE answer", async () => {
      const response = await callMCP<{ serverInfo: { name: string } }>(url, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "lite", version: "0" },
      });
      expect("result" in response && response.result.serverInfo.name).toMatch(/everything/i);
    });

    it("an HTTP failure is typed: MCP request failed: <status> <statusText>", async () => {
      const error = await callMCP(url, "tools/list").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LiteHttpError);
      expect((error as LiteHttpError).message).toBe("MCP request failed: 400 Bad Request");
      expect((error as LiteHttpError).body.length).toBeGreaterThan(0);
    });
  });
});

describe("callMCP against a server that never answers", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer(() => undefined);
    url = await listen(server);
  });
  afterAll(() => close(server));

  it("times out", async () => {
    await expect(callMCP(url, "ping", {}, { timeout: 100 })).rejects.toThrow("Request timeout after 100ms");
  });

  it("rejects with the caller's abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 30);
    await expect(callMCP(url, "ping", {}, { signal: controller.signal, timeout: 5000 })).rejects.toBe(reason);
  });

  it("an unparseable body is a typed error with the status and the start of the body", async () => {
    const html = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>"));
    const htmlUrl = await listen(html);
    try {
      const error = await callMCP(htmlUrl, "ping").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LiteParseError);
      expect(error).toMatchObject({ message: "Failed to parse MCP response", status: 200, snippet: "<html>login</html>" });
    } finally {
      await close(html);
    }
  });
});

describe("parseSSE", () => {
  const msg = { jsonrpc: "2.0", id: 1, result: { ok: true } };
  const wire = JSON.stringify(msg);
  it.each([
    ["plain event", `event: message\ndata: ${wire}\n\n`],
    ["CRLF line ends", `event: message\r\ndata: ${wire}\r\n\r\n`],
    ["CR line ends", `data: ${wire}\r\r`],
    ["no trailing blank line", `data: ${wire}`],
    ["comment and id first", `: keep-alive\nid: 7\nretry: 100\ndata: ${wire}\n\n`],
    ["a BOM", `\uFEFFdata: ${wire}\n\n`],
    ["data split over lines", `data: {"jsonrpc":"2.0",\ndata: "id":1,\ndata: "result":{"ok":true}}\n\n`],
    ["[DONE] and an empty priming event first", `id: 0\ndata:\n\ndata: [DONE]\n\ndata: ${wire}\n\n`],
    ["no space after the colon", `data:${wire}\n\n`],
    ["plain JSON, no SSE at all", wire],
    ["plain JSON with a BOM", `\uFEFF${wire}`],
  ])("%s", (_name, text) => {
    expect(parseSSE(text)).toEqual(msg);
  });

  it("takes the first payload when there are several", () => {
    expect(parseSSE(`data: {"n":1}\n\ndata: {"n":2}\n\n`)).toEqual({ n: 1 });
  });

  it.each([["data: {not json}\n\n"], ["<html>"], [""], ["data: [DONE]\n\n"]])("a malformed payload %j is a typed error, not a SyntaxError", (text) => {
    expect(() => parseSSE(text)).toThrow(LiteParseError);
    expect(() => parseSSE(text)).toThrow("Failed to parse MCP response");
  });
});

describe("parseSSEStream, property-based", () => {
  const payload = fc.oneof(fc.object({ maxDepth: 2 }), fc.array(fc.integer(), { maxLength: 3 }), fc.string());
  const lineEnd = fc.constantFrom("\n", "\r\n", "\r");

  it("any valid event stream split at any byte boundaries parses the same", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ value: payload, id: fc.option(fc.stringMatching(/^[a-z0-9]{1,5}$/)), comment: fc.boolean(), multiline: fc.boolean() }), { minLength: 1, maxLength: 6 }),
        lineEnd,
        fc.array(fc.nat(), { maxLength: 8 }),
        async (events, eol, cuts) => {
          let text = "";
          for (const e of events) {
            if (e.comment) text += `: note${eol}`;
            if (e.id !== null) text += `id: ${e.id}${eol}`;
            const json = JSON.stringify(e.value, null, e.multiline ? 1 : undefined);
            for (const line of json.split("\n")) text += `data: ${line}${eol}`;
            text += eol;
          }
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const pieces: Uint8Array[] = [];
          let last = 0;
          for (const p of [...points, bytes.length]) {
            pieces.push(bytes.subarray(last, p));
            last = p;
          }
          const seen: unknown[] = [];
          for await (const value of parseSSEStream((async function* () { yield* pieces; })())) seen.push(value);
          expect(seen).toEqual(events.map((e) => JSON.parse(JSON.stringify(e.value))));
          expect(parseSSE(text)).toEqual(seen[0]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
