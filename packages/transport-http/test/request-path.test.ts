// The security-critical request path: credentials, redirects, and errors that say where.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { HttpError, NetworkError } from "@mcp/jsonrpc";
import { freePort } from "mcp-test-utils";
import { sendJson, type Handler } from "./fixture-server.js";
import { fixture, transport } from "./harness.js";


const answer: Handler = (req, res) => sendJson(res, { jsonrpc: "2.0", id: req.json?.id ?? null, result: { at: req.url, method: req.method } });

describe("redirects", () => {
  it("the auth provider's headers never follow a redirect to another origin; same-origin redirects keep them", async () => {
    const other = await fixture(answer);
    const f = await fixture((req, res) => {
      if (req.url === "/mcp") return void res.writeHead(307, { location: "/moved" }).end();
      if (req.url === "/moved") return void res.writeHead(308, { location: other.url }).end();
      res.writeHead(500).end();
    });
    const t = await transport({ url: f.url, authProvider: { headers: () => ({ Authorization: "Bearer provider-token", "X-Api-Key": "provider-key", DPoP: "proof" }) } });
    await expect(t.request("tools/list")).resolves.toEqual({ at: "/mcp", method: "POST" });
    expect(f.seen.map((s) => [s.url, s.headers.authorization, s.headers["x-api-key"]])).toEqual([
      ["/mcp", "Bearer provider-token", "provider-key"],
      ["/moved", "Bearer provider-token", "provider-key"],
    ]);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]!.headers.authorization).toBeUndefined();
    expect(other.seen[0]!.headers["x-api-key"]).toBeUndefined();
    expect(other.seen[0]!.headers["dpop"]).toBeUndefined();
    expect(JSON.parse(other.seen[0]!.body)).toMatchObject({ method: "tools/list" }); // 307/308 keep the body
  });

  it("303 turns the POST into a GET without a body or Content-Type", async () => {
    const f = await fixture((req, res) => {
      if (req.method === "POST") return void res.writeHead(303, { location: "/result" }).end();
      sendJson(res, { jsonrpc: "2.0", id: 1, result: { via: req.method } });
    });
    const t = await transport({ url: f.url });
    await expect(t.request("tools/list")).resolves.toEqual({ via: "GET" });
    expect(f.seen[1]).toMatchObject({ method: "GET", url: "/result", body: "" });
    expect(f.seen[1]!.headers["content-type"]).toBeUndefined();
  });

  it("stops after 5 redirects with the last answer as an HttpError", async () => {
    const f = await fixture((req, res) => void res.writeHead(302, { location: `/hop${f.seen.length}` }).end());
    const t = await transport({ url: f.url });
    const error = await t.request("tools/list").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 302 });
    expect(f.seen).toHaveLength(6); // the request and 5 redirects
  });
});

describe("errors that say where", () => {
  it("nothing listening: a NetworkError naming the server, the URL and what to check", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const t = await transport({ url, serverName: "docs" });
    const error = await t.request("initialize", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "network_error", errno: "ECONNREFUSED", url, serverName: "docs" });
    expect((error as Error).message).toBe(`Cannot reach MCP server "docs" at ${url}: connection refused (ECONNREFUSED); is the server running and listening on that port?`);
  });

  it("the same through an injected fetch, whose cause hides the code", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const t = await transport({ url, fetch: (input, init) => fetch(input, init as RequestInit) });
    await expect(t.request("initialize", {})).rejects.toMatchObject({ code: "network_error", errno: "ECONNREFUSED", message: expect.stringContaining(`Cannot reach MCP server at ${url}`) as string });
  });
});

describe("printing a transport", () => {
  it("redacts credential headers and the auth provider", async () => {
    const f = await fixture(answer);
    const t = await transport({ url: f.url, headers: { Authorization: "Bearer s3cr3t", "X-Trace": "visible" }, authProvider: { headers: () => ({}) } });
    const printed = inspect(t, { depth: 5 });
    expect(printed).not.toContain("s3cr3t");
    expect(printed).toContain("[redacted]");
    expect(printed).toContain("visible");
    expect(t.config.headers?.["Authorization"]).toBe("Bearer s3cr3t"); // code that needs it still has it
  });
});
