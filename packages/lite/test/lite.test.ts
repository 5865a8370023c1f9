import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import fc from "fast-check";
import { startEverything, type EverythingServer } from "mcp-test-utils";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpError, MessageTooLargeError, NetworkError, NoResponseError, ParseError } from "@mcp/jsonrpc";
import { freePort } from "mcp-test-utils";
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
      mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: "text", text: String(a + b) }],
      }));
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
        const unknown = await callMCP(url, "no/such/method");
        expect(unknown).toMatchObject({ jsonrpc: "2.0", error: { code: -32601 } });
        expect("result" in unknown).toBe(false);
      });

      it("an unknown tool is the server's isError result (this SDK version answers so), returned as a result", async () => {
        const response = await callMCP<{ isError?: boolean; content: { text: string }[] }>(url, "tools/call", {
          name: "no-such-tool",
          arguments: {},
        });
        expect("error" in response).toBe(false);
        expect(response).toMatchObject({
          result: { isError: true, content: [{ text: expect.stringContaining("no-such-tool") as string }] },
        });
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

    it("an HTTP failure is typed and carries the server's reason: MCP request failed: <status> <statusText>: <reason>", async () => {
      const error = await callMCP(url, "tools/list").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LiteHttpError);
      expect(error).toBeInstanceOf(HttpError); // one error family with the rest of the stack
      expect((error as LiteHttpError).message).toBe("MCP request failed: 400 Bad Request: Server not initialized");
      expect(error).toMatchObject({ status: 400, code: "http_error", url });
      expect((error as LiteHttpError).body).toContain("Server not initialized");
    });

    it("returns the response to its own request, skipping the progress notifications sent before it", async () => {
      const init = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "lite", version: "0" } },
        }),
      });
      const session = init.headers.get("mcp-session-id")!;
      await init.text();
      const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
      await fetch(url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      });
      const response = await callMCP<{ content: { type: string; text: string }[] }>(
        url,
        "tools/call",
        {
          name: "trigger-long-running-operation",
          arguments: { duration: 0.3, steps: 3 },
          _meta: { progressToken: "p1" },
        },
        { headers },
      );
      expect(response).toMatchObject({
        jsonrpc: "2.0",
        id: expect.stringMatching(/^lite-/) as string,
        result: { content: [{ type: "text", text: expect.stringContaining("completed") as string }] },
      });
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
    const html = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>"),
    );
    const htmlUrl = await listen(html);
    try {
      const error = await callMCP(htmlUrl, "ping").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LiteParseError);
      expect(error).toBeInstanceOf(ParseError);
      expect(error).toMatchObject({
        message: "Failed to parse MCP response",
        status: 200,
        snippet: "<html>login</html>",
        code: "parse_error",
      });
    } finally {
      await close(html);
    }
  });
});

describe("callMCP: streams and limits (hand-made servers)", () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) await close(s);
  });
  async function serve(
    handler: (req: IncomingMessage & { json: { id: string } }, res: ServerResponse) => void,
  ): Promise<string> {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += String(c)));
      req.on("end", () => handler(Object.assign(req, { json: JSON.parse(body) as { id: string } }), res));
    });
    servers.push(server);
    return listen(server);
  }

  it("skips a server→client request and a log notification sent before the response", async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } })}\n\n`,
      );
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 99, method: "roots/list" })}\n\n`);
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: "someone-else", result: { wrong: true } })}\n\n`);
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: req.json.id, result: { right: true } })}\n\n`);
    });
    await expect(callMCP(url, "tools/call")).resolves.toMatchObject({ result: { right: true } });
  });

  it("a stream that ends without the response is a clear error", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: {} })}\n\n`);
    });
    const error = await callMCP(url, "tools/call").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoResponseError);
    expect((error as Error).message).toMatch(/^No response received for request ID lite-/);
  });

  it("an SSE event or a JSON body over maxMessageBytes is refused without reading on", async () => {
    let written = 0;
    const url = await serve((req, res) => {
      const sse = req.headers["x-mode"] === "sse";
      res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/json" });
      res.write(sse ? 'data: {"jsonrpc":"2.0","result":"' : '{"jsonrpc":"2.0","result":"');
      const chunk = "z".repeat(64 * 1024);
      const pump = (): void => {
        while (!res.destroyed && written < 200 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    for (const mode of ["sse", "json"]) {
      written = 0;
      const error = await callMCP(url, "x", {}, { maxMessageBytes: 1024 * 1024, headers: { "x-mode": mode } }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MessageTooLargeError);
      expect((error as Error).message).toContain(
        'exceeds the limit of 1048576 bytes; it was discarded (raise the limit with the "maxMessageBytes" option)',
      );
      expect(written).toBeLessThan(32 * 1024 * 1024);
    }
  });

  it("an SSE event over maxMessageBytes that arrives whole in one chunk is refused too, not skipped", async () => {
    const url = await serve((req, res) => {
      const big = JSON.stringify({ jsonrpc: "2.0", id: "other", result: "z".repeat(4096) });
      res.writeHead(200, { "content-type": "text/event-stream" });
      // One write: the oversize event, then (were it skipped) a body that ends without the response.
      res.end(`data: ${big}\n\n`);
    });
    const error = await callMCP(url, "x", {}, { maxMessageBytes: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageTooLargeError);
  });

  it.each([
    ["202 Accepted", 202, "", /202 Accepted with no body/],
    ["202 Accepted with a body that is not JSON", 202, "accepted", /ParseError/],
    ["204 No Content", 204, "", /204 No Content/],
  ])("%s to a request: NoResponseError, not a parse error", async (_name, status, body, cause) => {
    const url = await serve((_req, res) =>
      res.writeHead(status, body ? { "content-type": "text/plain" } : {}).end(body),
    );
    const error = await callMCP(url, "tools/call").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoResponseError);
    expect(String((error as Error).cause)).toMatch(cause);
  });

  it("nothing listening: a NetworkError naming the URL and the cause", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const error = await callMCP(url, "ping").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ errno: "ECONNREFUSED", url });
    expect((error as Error).message).toBe(
      `Cannot reach MCP server at ${url}: connection refused (ECONNREFUSED); is the server running and listening on that port?`,
    );
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

  it.each([["data: {not json}\n\n"], ["<html>"], [""], ["data: [DONE]\n\n"]])(
    "a malformed payload %j is a typed error, not a SyntaxError",
    (text) => {
      expect(() => parseSSE(text)).toThrow(LiteParseError);
      expect(() => parseSSE(text)).toThrow("Failed to parse MCP response");
    },
  );
});

describe("parseSSEStream, property-based", () => {
  const payload = fc.oneof(fc.object({ maxDepth: 2 }), fc.array(fc.integer(), { maxLength: 3 }), fc.string());
  const lineEnd = fc.constantFrom("\n", "\r\n", "\r");

  it("any valid event stream split at any byte boundaries parses the same", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            value: payload,
            id: fc.option(fc.stringMatching(/^[a-z0-9]{1,5}$/)),
            comment: fc.boolean(),
            multiline: fc.boolean(),
          }),
          { minLength: 1, maxLength: 6 },
        ),
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
          for await (const value of parseSSEStream(
            (async function* () {
              yield* pieces;
            })(),
          ))
            seen.push(value);
          expect(seen).toEqual(events.map((e) => JSON.parse(JSON.stringify(e.value))));
          expect(parseSSE(text)).toEqual(seen[0]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
