// The security-critical request path: errors that say where, and printing. (Redirects: redirects.test.ts.)
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { NetworkError } from "@mcp/jsonrpc";
import { freePort } from "mcp-test-utils";
import { sendJson, type Handler } from "./fixture-server.js";
import { fixture, transport } from "./harness.js";

const answer: Handler = (req, res) =>
  sendJson(res, { jsonrpc: "2.0", id: req.json?.id ?? null, result: { at: req.url, method: req.method } });

describe("errors that say where", () => {
  it("nothing listening: a NetworkError naming the server, the URL and what to check", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const t = await transport({ url, serverName: "docs" });
    const error = await t.request("initialize", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "network_error", errno: "ECONNREFUSED", url, serverName: "docs" });
    expect((error as Error).message).toBe(
      `Cannot reach MCP server "docs" at ${url}: connection refused (ECONNREFUSED); is the server running and listening on that port?`,
    );
  });

  it("the same through an injected fetch, whose cause hides the code", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const t = await transport({ url, fetch: (input, init) => fetch(input, init as RequestInit) });
    await expect(t.request("initialize", {})).rejects.toMatchObject({
      code: "network_error",
      errno: "ECONNREFUSED",
      message: expect.stringContaining(`Cannot reach MCP server at ${url}`) as string,
    });
  });
});

describe("printing a transport", () => {
  it("redacts credential headers and the auth provider", async () => {
    const f = await fixture(answer);
    const t = await transport({
      url: f.url,
      headers: { Authorization: "Bearer s3cr3t", "X-Trace": "visible" },
      authProvider: { headers: () => ({}) },
    });
    const printed = inspect(t, { depth: 5 });
    expect(printed).not.toContain("s3cr3t");
    expect(printed).toContain("[redacted]");
    expect(printed).toContain("visible");
    expect(t.config.headers?.["Authorization"]).toBe("Bearer s3cr3t"); // code that needs it still has it
  });
});
