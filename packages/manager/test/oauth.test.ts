// Which HTTP servers the manager gives an OAuth provider, seen through what a 401 becomes.
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryTokenStore } from "@mcp/oauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPManager, MemoryPinStore } from "../src/index.js";

let server: Server;
let url: string;
beforeAll(async () => {
  // Refuses everything, as a server that needs a token does.
  server = createServer((_req, res) => void res.writeHead(401, { "www-authenticate": "Bearer" }).end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function lastErrorCodeOf(config: Record<string, unknown>, options: ConstructorParameters<typeof MCPManager>[0] = {}): Promise<unknown> {
  const cacheDir = mkdtempSync(join(tmpdir(), "mcp-manager-oauth-"));
  const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cacheDir, reconnect: false, oauth: { store: new MemoryTokenStore() }, ...options });
  try {
    await manager.connectServers({ s: { type: "http", url, fallbackToSse: false, ...config } as never });
    return manager.getConnectionStatus("s")?.lastErrorCode;
  } finally {
    await manager.disconnectAll();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

describe("OAuth in the manager", () => {
  it("an HTTP server that refuses us needs authorization (OAuthError), unless credentials are the config's own business", async () => {
    expect(await lastErrorCodeOf({})).toBe("oauth_error");
    expect(await lastErrorCodeOf({ headers: { Authorization: "Bearer static" } })).toBe("http_error");
    expect(await lastErrorCodeOf({ oauth: false })).toBe("http_error");
    expect(await lastErrorCodeOf({}, { oauth: false })).toBe("http_error");
  });
});
