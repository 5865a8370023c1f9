import { describe, expect, it } from "vitest";
import {
  EndpointTransport,
  HttpError,
  InvalidConfigError,
  NoResponseError,
  ParseError,
  RequestTimeoutError,
  RpcError,
  SessionExpiredError,
  TransportClosedError,
} from "@mcp/jsonrpc";
import { HttpTransport, SseEndpointError, createHttpTransport, type HttpTransportConfig } from "../src/index.js";
import { sendJson, sse } from "./fixture-server.js";
import { fixture, onCleanup, transport } from "./harness.js";
import { startSdkServer, type SdkServer } from "mcp-test-utils";

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } };

describe("HttpTransport", () => {
  it("is built on the jsonrpc EndpointTransport, the skeleton a third-party transport extends; refused before connect()", async () => {
    const unused = new HttpTransport({ type: "http", url: "http://127.0.0.1:9/mcp" });
    expect(unused).toBeInstanceOf(EndpointTransport);
    await expect(unused.notify("notifications/initialized")).rejects.toBeInstanceOf(TransportClosedError);
    await unused.close();
  });
});

describe("Streamable HTTP against a server built on the official SDK", () => {
  let server: SdkServer;
  async function sdk(json = false) {
    server = await startSdkServer({ json });
    onCleanup(() => server.stop());
    return server;
  }

  for (const json of [false, true]) {
    it(`sends MCP-Protocol-Version and the session id on every request after initialize (${json ? "JSON" : "SSE"} responses)`, async () => {
      const s = await sdk(json);
      const t = await transport({ url: s.url });
      const init = await t.request<{ protocolVersion: string }>("initialize", INIT);
      t.setProtocolVersion(init.protocolVersion);
      await t.notify("notifications/initialized");
      await t.request("tools/list");
      await expect(t.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } })).resolves.toMatchObject({
        content: [{ text: "5" }],
      });
      const afterInit = s.requests.slice(1);
      expect(afterInit.length).toBeGreaterThanOrEqual(3);
      for (const r of afterInit) {
        expect(r.headers["mcp-protocol-version"]).toBe("2025-11-25");
        expect(r.headers["mcp-session-id"]).toBe(t.sessionId);
        expect(r.headers["accept"]).toBe("application/json, text/event-stream");
      }
      await t.close();
      expect(s.requests.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": t.sessionId } });
    });
  }

  it("a restarted server: the next request raises the typed session-expired error", async () => {
    const s = await sdk();
    const t = await transport({ url: s.url });
    await t.request("initialize", INIT);
    await t.notify("notifications/initialized");
    const session = t.sessionId!;
    await s.restart();
    const error = await t.request("tools/list").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: "session_expired", status: 404, sessionId: session });
    // Notifications learn it too.
    await expect(t.notify("notifications/roots/list_changed")).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it("large JSON answers in turn and at once each arrive whole (the body buffer kept for reuse is never shared)", async () => {
    const s = await sdk(true);
    const t = await transport({ url: s.url });
    await t.request("initialize", INIT);
    const call = async (text: string, times: number) => {
      const result = await t.request<{ content: { text: string }[] }>("tools/call", {
        name: "repeat",
        arguments: { text, times },
      });
      return result.content[0]!.text === text.repeat(times);
    };
    // Larger, smaller, then larger again on one connection; then three at once on three.
    expect(await call("a", 300_000)).toBe(true);
    expect(await call("bé", 100_000)).toBe(true);
    expect(await call("c", 500_000)).toBe(true);
    expect(await Promise.all([call("x", 400_000), call("yz", 150_000), call("w", 450_000)])).toEqual([
      true,
      true,
      true,
    ]);
  });

  it("a JSON-RPC error keeps its code", async () => {
    const s = await sdk(true);
    const t = await transport({ url: s.url });
    await t.request("initialize", INIT);
    await expect(t.request("no/such/method")).rejects.toMatchObject({ code: -32601 });
    await expect(t.request("no/such/method")).rejects.toBeInstanceOf(RpcError);
  });
});

describe("Streamable HTTP edge cases (hand-made servers)", () => {
  it("a user Accept header adds to, never replaces, what MCP needs", async () => {
    const f = await fixture((req, res) => sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: {} }));
    const t = await transport({ url: f.url, headers: { Accept: "application/x-custom", "X-Trace": "1" } });
    await t.request("ping");
    expect(f.seen[0]!.headers).toMatchObject({
      accept: "application/json, text/event-stream, application/x-custom",
      "x-trace": "1",
      "content-type": "application/json",
    });
  });

  it("headers then a stalled body: the timeout covers the whole exchange", async () => {
    const f = await fixture((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"jsonrpc":"2.0",');
    });
    const t = await transport({ url: f.url });
    await expect(t.request("tools/list", {}, { timeout: 300 })).rejects.toThrow(new RequestTimeoutError(300).message);
  });

  it("an SSE body that stalls times out with the SSE message", async () => {
    const f = await fixture((req, res) => {
      if (req.json?.method === "notifications/cancelled") return void res.writeHead(202).end();
      sse(res)(": still thinking\n\n");
    });
    const t = await transport({ url: f.url });
    await expect(t.request("tools/list", {}, { timeout: 300 })).rejects.toThrow("SSE response timeout after 300ms");
    // And the server was told.
    await expect.poll(() => f.seen.map((s) => JSON.parse(s.body).method)).toContain("notifications/cancelled");
  });

  it("a torn SSE stream with event ids is resumed with GET + Last-Event-ID after retry:", async () => {
    let getAt = 0;
    let postEndedAt = 0;
    let lastEventId: unknown;
    const f = await fixture((req, res) => {
      if (req.method === "POST") {
        const write = sse(res);
        write(
          `id: ev-1\nretry: 150\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "part 1" } })}\n\n`,
        );
        setTimeout(() => {
          postEndedAt = Date.now();
          res.socket?.destroy(); // torn, not ended
        }, 20);
        return;
      }
      getAt = Date.now();
      lastEventId = req.headers["last-event-id"];
      const write = sse(res);
      write(`id: ev-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { resumed: true } })}\n\n`);
      res.end();
    });
    const t = await transport({ url: f.url });
    const notes: unknown[] = [];
    t.onNotification = (_m, p) => notes.push(p);
    await expect(t.request("tools/call", { name: "x" })).resolves.toEqual({ resumed: true });
    expect(notes).toEqual([{ level: "info", data: "part 1" }]);
    expect(lastEventId).toBe("ev-1");
    expect(getAt - postEndedAt).toBeGreaterThanOrEqual(140);
  });

  it("SSE that ends without the response: No response received for request ID <id>", async () => {
    const f = await fixture((_req, res) => {
      sse(res)(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: {} })}\n\n`);
      res.end();
    });
    const t = await transport({ url: f.url });
    await expect(t.request("tools/list")).rejects.toThrow(new NoResponseError(1).message);
  });

  it("interleaved server→client requests on a POST's SSE stream are answered by POSTing back", async () => {
    const f = await fixture((req, res) => {
      if (req.json?.id === 1) {
        const write = sse(res);
        write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: "srv-1", method: "roots/list" })}\n\n`);
        setTimeout(() => {
          write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { done: true } })}\n\n`);
          res.end();
        }, 50);
        return;
      }
      res.writeHead(202).end();
    });
    const t = await transport({ url: f.url });
    t.onRequest = async () => ({ roots: [{ uri: "file:///r" }] });
    await expect(t.request("tools/call")).resolves.toEqual({ done: true });
    expect(f.seen.map((s) => JSON.parse(s.body))).toContainEqual({
      jsonrpc: "2.0",
      id: "srv-1",
      result: { roots: [{ uri: "file:///r" }] },
    });
  });

  it("401 with WWW-Authenticate: an HttpError with status, body and the hints", async () => {
    const f = await fixture(
      (_req, res) =>
        void res
          .writeHead(401, {
            "www-authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
            "mcp-auth-server": "http://127.0.0.1/auth",
          })
          .end("unauthorized"),
    );
    const t = await transport({ url: f.url });
    const error = await t.request("initialize", INIT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 401, body: "unauthorized", mcpAuthServer: "http://127.0.0.1/auth" });
    expect((error as HttpError).message).toBe(
      'HTTP 401: unauthorized (WWW-Authenticate: Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource") (Mcp-Auth-Server: http://127.0.0.1/auth)',
    );
  });

  it("the auth provider's token is sent; on 401 it refreshes and the request is retried once", async () => {
    const f = await fixture((req, res) => {
      if (req.headers.authorization !== "Bearer fresh")
        return void res.writeHead(401, { "www-authenticate": "Bearer", "dpop-nonce": "n-1" }).end();
      sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: { ok: true } });
    });
    let token = "stale";
    const refreshes: unknown[] = [];
    const requests: unknown[] = [];
    const t = await transport({
      url: f.url,
      authProvider: {
        headers: (request) => (requests.push(request), { Authorization: `Bearer ${token}` }),
        onUnauthorized: ({ header, ...ctx }) => {
          // The refusal's headers are there to read (a DPoP provider takes its nonce).
          refreshes.push({ ...ctx, nonce: header("DPoP-Nonce") });
          token = "fresh";
          return true;
        },
      },
    });
    await expect(t.request("ping")).resolves.toEqual({ ok: true });
    expect(refreshes).toEqual([
      {
        url: f.url,
        status: 401,
        wwwAuthenticate: "Bearer",
        sent: { Authorization: "Bearer stale" },
        attempt: 0,
        nonce: "n-1",
      },
    ]);
    expect(f.seen.map((s) => s.headers.authorization)).toEqual(["Bearer stale", "Bearer fresh"]);
    // headers() is asked for each request sent, with what a proof would sign: method, URL, body.
    expect(requests).toEqual(f.seen.map((s) => ({ method: "POST", url: f.url, body: s.body })));
  });

  it("403 insufficient_scope is a step-up: the provider is asked, and a request is retried at most 3 times", async () => {
    const f = await fixture((req, res) => {
      if (req.headers.authorization === "Bearer wide")
        return sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: { ok: true } });
      res.writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="wide"' }).end();
    });
    let token = "narrow";
    const asked: number[] = [];
    const t = await transport({
      url: f.url,
      authProvider: {
        headers: () => ({ Authorization: `Bearer ${token}` }),
        onUnauthorized: (ctx) => (asked.push(ctx.status), (token = "wide"), true),
      },
    });
    await expect(t.request("ping")).resolves.toEqual({ ok: true });
    expect(asked).toEqual([403]);
    // A provider that keeps saying "retry" cannot loop: three retries, then the answer stands.
    token = "never";
    const stubborn = await transport({
      url: f.url,
      authProvider: { headers: () => ({ Authorization: "Bearer never" }), onUnauthorized: () => (asked.push(0), true) },
    });
    await expect(stubborn.request("ping")).rejects.toMatchObject({ name: "HttpError", status: 403 });
    expect(asked.filter((a) => a === 0)).toHaveLength(3);
    // A 403 that is not about scope is not the provider's business.
    const plain = await fixture((_req, res) => void res.writeHead(403).end());
    const other = await transport({
      url: plain.url,
      authProvider: { headers: () => ({}), onUnauthorized: () => (asked.push(1), true) },
    });
    await expect(other.request("ping")).rejects.toMatchObject({ status: 403 });
    expect(asked).not.toContain(1);
  });

  it("an auth provider sets credentials only: its session, protocol or framing headers are not sent", async () => {
    const f = await fixture((req, res) => sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: { ok: true } }));
    const t = await transport({
      url: f.url,
      authProvider: {
        headers: () => ({
          Authorization: "Bearer ok",
          "X-Tenant": "a",
          "Mcp-Session-Id": "forged",
          "MCP-Protocol-Version": "1999-01-01",
          "Content-Length": "0",
          Host: "evil.example",
        }),
      },
    });
    await expect(t.request("ping")).resolves.toEqual({ ok: true });
    const sent = f.seen[0]!.headers;
    expect(sent).toMatchObject({ authorization: "Bearer ok", "x-tenant": "a" });
    expect(sent["mcp-session-id"]).toBeUndefined();
    expect(sent["mcp-protocol-version"]).toBeUndefined();
    expect(sent.host).toBe(new URL(f.url).host);
    expect(Number(sent["content-length"])).toBe(Buffer.byteLength(f.seen[0]!.body));
  });

  it("HTML instead of JSON: a typed parse error quoting the start of the body", async () => {
    const f = await fixture(
      (_req, res) =>
        void res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html><body>Login</body></html>"),
    );
    const t = await transport({ url: f.url });
    const error = await t.request("tools/list").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain('starts with "<!doctype html><html><body>Login</body></html>"');
  });

  it("the GET listener disables itself on 405", async () => {
    const f = await fixture((_req, res) => void res.writeHead(405).end());
    const t = await transport({ url: f.url });
    await expect(t.startSSEListener()).resolves.toBeUndefined();
    expect(f.seen.map((s) => s.method)).toEqual(["GET"]);
  });

  it("the GET listener delivers server notifications and requests", async () => {
    const f = await fixture((req, res) => {
      if (req.method === "GET") {
        const write = sse(res);
        write(`id: 1\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })}\n\n`);
        write(`id: 2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 77, method: "ping" })}\n\n`);
        return;
      }
      res.writeHead(202).end();
    });
    const t = await transport({ url: f.url });
    const notes: string[] = [];
    t.onNotification = (m) => notes.push(m);
    await t.startSSEListener();
    await expect.poll(() => notes).toEqual(["notifications/tools/list_changed"]);
    await expect
      .poll(() => f.seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body)))
      .toEqual([{ jsonrpc: "2.0", id: 77, result: {} }]);
  });

  it("the GET listener gives up on a stream that keeps ending empty, and says so", async () => {
    const f = await fixture((req, res) => {
      if (req.method === "GET") {
        sse(res);
        res.end();
        return;
      }
      res.writeHead(202).end();
    });
    const t = await transport({ url: f.url, defaultRetryMs: 20, maxResumeAttempts: 2 });
    const errors: Error[] = [];
    t.onError = (e) => errors.push(e);
    await t.startSSEListener();
    await expect.poll(() => errors.length).toBe(1);
    expect(errors[0]!.message).toBe(
      `The GET event stream of ${f.url} ended 3 times in a row without events; the listener stopped`,
    );
    expect(f.seen.filter((s) => s.method === "GET")).toHaveLength(3);
  });

  it("a notification that gets no answer: Notify timeout after <n>ms", async () => {
    const f = await fixture(() => undefined);
    const t = await transport({ url: f.url, timeout: 200 });
    await expect(t.notify("notifications/initialized")).rejects.toThrow("Notify timeout after 200ms");
  });

  it("a caller's abort rejects with the caller's reason", async () => {
    const f = await fixture(() => undefined);
    const t = await transport({ url: f.url });
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const pending = t.request("tools/call", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });

  it("falls back to HTTP+SSE when initialize gets 404 from a type: http URL", async () => {
    const f = await fixture((req, res) => {
      if (req.method === "POST" && req.url === "/mcp") return void res.writeHead(404).end("not here");
      if (req.method === "GET" && req.url === "/mcp") {
        const write = sse(res);
        write("event: endpoint\ndata: /messages?session=abc\n\n");
        streams.push(write);
        return;
      }
      if (req.method === "POST" && req.url === "/messages?session=abc") {
        res.writeHead(202).end();
        if (req.json.id !== undefined)
          streams[0]!(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: req.json.id, result: { protocolVersion: "2024-11-05" } })}\n\n`,
          );
        return;
      }
      res.writeHead(500).end();
    });
    const streams: ((text: string) => void)[] = [];
    const t = await transport({ url: f.url });
    await expect(t.request("initialize", INIT)).resolves.toEqual({ protocolVersion: "2024-11-05" });
    expect(t.mode).toBe("sse");
  });

  it("HTTP+SSE: an endpoint on another origin is refused", async () => {
    const f = await fixture((_req, res) => sse(res)("event: endpoint\ndata: http://evil.example/messages\n\n"));
    const error = await createHttpTransport({ type: "sse", url: f.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SseEndpointError);
    expect((error as Error).message).toContain("only http://127.0.0.1:");
  });

  it("HTTP+SSE: a server that never sends its endpoint times out clearly", async () => {
    const f = await fixture((_req, res) => sse(res)(": hello\n\n"));
    const error = await createHttpTransport({ type: "sse", url: f.url, timeout: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SseEndpointError);
    expect((error as Error).message).toBe(`No "endpoint" event from ${f.url} within 200ms`);
  });

  it("requests after close, and in flight at close, reject with Transport closed", async () => {
    const f = await fixture(() => undefined);
    const t = new HttpTransport({ type: "http", url: f.url });
    await t.connect();
    const sent = f.seen.length;
    const pending = t.request("tools/list").catch((e: unknown) => e);
    await expect.poll(() => f.seen.length).toBeGreaterThan(sent); // in flight: the server has it, and never answers
    await t.close();
    await expect(pending).resolves.toBeInstanceOf(TransportClosedError);
    const posts = f.seen.length;
    await expect(t.request("tools/list")).rejects.toBeInstanceOf(TransportClosedError);
    await expect(t.notify("notifications/initialized")).rejects.toBeInstanceOf(TransportClosedError);
    expect(f.seen).toHaveLength(posts); // nothing more went out
  });

  it("rejects bad configuration with a typed error naming the server and the field", () => {
    const attempt = (config: Partial<HttpTransportConfig>): unknown => {
      try {
        new HttpTransport({ type: "http", url: "http://127.0.0.1:1/mcp", serverName: "docs", ...config });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(attempt({ url: "not a url" })).toMatchObject({
      code: "invalid_config",
      field: "url",
      message: 'MCP server "docs": "url" is not a valid URL: "not a url"',
    });
    expect(attempt({ url: "ftp://x" })).toMatchObject({
      field: "url",
      message: 'MCP server "docs": "url" must be http or https, got ftp:',
    });
    expect(attempt({ type: "websocket" as "http" })).toMatchObject({
      field: "type",
      message: expect.stringContaining('expected "http" (Streamable HTTP) or "sse"') as string,
    });
    for (const timeout of [0, -5, Number.NaN]) {
      expect(attempt({ timeout })).toMatchObject({
        field: "timeout",
        message: `MCP server "docs": "timeout" must be a positive number of milliseconds (or Infinity for none); got ${timeout}`,
      });
    }
    expect(attempt({ maxMessageBytes: 0 })).toMatchObject({
      field: "maxMessageBytes",
      message: 'MCP server "docs": "maxMessageBytes" must be a positive integer; got 0',
    });
    expect(attempt({ maxMessageBytes: Number.NaN })).toMatchObject({
      message: 'MCP server "docs": "maxMessageBytes" must be a positive integer; got NaN',
    });
    expect(attempt({ maxResumeAttempts: -1 })).toMatchObject({
      field: "maxResumeAttempts",
      message: 'MCP server "docs": "maxResumeAttempts" must be a non-negative integer; got -1',
    });
    expect(attempt({ maxResumeAttempts: "3" as unknown as number })).toMatchObject({
      message: 'MCP server "docs": "maxResumeAttempts" must be a non-negative integer; got "3"',
    });
    expect(attempt({ maxResumeAttempts: 0 })).toBeUndefined();
    expect(InvalidConfigError.isInstance(attempt({ url: "" }))).toBe(true);
    expect(attempt({ timeout: Infinity })).toBeUndefined();
    // A header that would add lines to the request, or that HTTP cannot carry, is a config error.
    expect(attempt({ headers: { "x-team": "a\r\nx-injected: 1" } })).toMatchObject({
      field: "headers.x-team",
      message: expect.stringContaining(
        'MCP server "docs": header "x-team" has a character a header value cannot hold',
      ) as string,
    });
    expect(attempt({ headers: { "bad name": "x" } })).toMatchObject({
      field: "headers.bad name",
      message: expect.stringContaining("is not a valid header name") as string,
    });
    expect(attempt({ headers: { "x-n": 5 as unknown as string } })).toMatchObject({
      field: "headers.x-n",
      message: 'MCP server "docs": header "x-n" must have a string value; got number',
    });
    expect(attempt({ headers: { "x-ok": "café\tok" } })).toBeUndefined();
  });
});
