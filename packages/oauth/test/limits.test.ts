// Every request of the flow has a deadline, and every answer a size limit: a hand-made
// authorization server on loopback (no real one hangs or floods on demand).
import { createServer, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { OAuthProvider } from "../src/index.js";

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of servers.splice(0)) await stop();
});

/**
 * An MCP server's metadata and its authorization server (client credentials) in one; `token` and
 * `asMetadata` answer those two requests their own way.
 */
async function authServer(handlers: {
  token?: (res: ServerResponse, count: number) => void;
  asMetadata?: (res: ServerResponse) => void;
}) {
  let tokens = 0;
  const server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/.well-known/oauth-protected-resource/mcp")
      return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (req.url === "/.well-known/oauth-authorization-server") {
      if (handlers.asMetadata) return handlers.asMetadata(res);
      return json({ issuer: origin, token_endpoint: `${origin}/token`, grant_types_supported: ["client_credentials"] });
    }
    if (req.url === "/token") {
      req.resume();
      if (handlers.token) return handlers.token(res, ++tokens);
      return json({ access_token: "t-1", token_type: "Bearer", expires_in: 3600 });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { mcpUrl: `${origin}/mcp`, tokens: () => tokens };
}

const LOTS = 32 * 1024 * 1024;
const unauthorized = (url: string) => ({ url, status: 401, wwwAuthenticate: "Bearer" });
const clientCredentials = { grant: "client_credentials" as const, clientId: "c", clientSecret: "s" };

describe("deadlines and limits of the flow's requests", () => {
  it("a token request that never answers fails the flow after timeoutMs; the next 401 gets a token", async () => {
    const server = await authServer({
      token: (res, count) =>
        count === 1
          ? undefined
          : res
              .writeHead(200, { "content-type": "application/json" })
              .end(JSON.stringify({ access_token: "t-2", token_type: "Bearer" })),
    });
    const p = new OAuthProvider({ serverUrl: server.mcpUrl, ...clientCredentials, timeoutMs: 300 });
    await expect(p.onUnauthorized(unauthorized(server.mcpUrl))).rejects.toMatchObject({
      code: "oauth_error",
      step: "token",
      message: expect.stringContaining("no answer within 300 ms"),
    });
    await expect(p.onUnauthorized(unauthorized(server.mcpUrl))).resolves.toBe(true);
    expect(await p.headers()).toEqual({ authorization: "Bearer t-2" });
  }, 10_000);

  it("a token answer whose body never ends fails after timeoutMs too", async () => {
    const server = await authServer({
      token: (res) => void res.writeHead(200, { "content-type": "application/json" }).write('{"access_token":'),
    });
    const p = new OAuthProvider({ serverUrl: server.mcpUrl, ...clientCredentials, timeoutMs: 300 });
    await expect(p.onUnauthorized(unauthorized(server.mcpUrl))).rejects.toMatchObject({
      step: "token",
      message: expect.stringContaining("Could not read the answer"),
    });
  }, 10_000);

  it("metadata past 1 MiB is refused and its connection no longer read", async () => {
    let closed = false;
    let sent = 0;
    const server = await authServer({
      asMetadata: (res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.on("close", () => (closed = true));
        // 32 MiB of valid JSON, unless the reader stops first.
        const chunk = `"${"x".repeat(64 * 1024 - 4)}",`;
        res.write('{"pad":[');
        const more = (): void => {
          while (!closed && sent < LOTS && res.write(chunk)) sent += chunk.length;
          if (sent >= LOTS) res.end('""],"issuer":"elsewhere"}');
          else if (!closed) res.once("drain", more);
        };
        more();
      },
    });
    const p = new OAuthProvider({ serverUrl: server.mcpUrl, ...clientCredentials });
    await expect(p.onUnauthorized(unauthorized(server.mcpUrl))).rejects.toMatchObject({
      code: "oauth_error",
      step: "metadata",
      cause: { code: "message_too_large" },
    });
    await expect.poll(() => closed).toBe(true);
    expect(sent).toBeLessThan(LOTS);
  });
});
