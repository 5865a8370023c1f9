// Which HTTP servers the manager gives an OAuth provider, seen through what a 401 becomes.
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryTokenStore } from "@mcp/oauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidConfigError } from "@mcp/jsonrpc";
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

async function lastErrorCodeOf(
  config: Record<string, unknown>,
  options: ConstructorParameters<typeof MCPManager>[0] = {},
): Promise<unknown> {
  return (await statusOf(config, options))?.lastErrorCode;
}

async function statusOf(
  config: Record<string, unknown>,
  options: ConstructorParameters<typeof MCPManager>[0] = {},
): Promise<ReturnType<MCPManager["getConnectionStatus"]>> {
  const cacheDir = mkdtempSync(join(tmpdir(), "mcp-manager-oauth-"));
  const manager = new MCPManager({
    pins: { store: new MemoryPinStore() },
    cacheDir,
    reconnect: false,
    oauth: { store: new MemoryTokenStore() },
    ...options,
  });
  try {
    await manager.connectServers({ s: { type: "http", url, fallbackToSse: false, ...config } as never });
    return manager.getConnectionStatus("s");
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

describe("the oauth.profile field", () => {
  it("an unknown profile fails the server with an OAuthError naming the known ones; a known one is taken", async () => {
    const unknown = await statusOf({ oauth: { profile: "azure" } });
    expect(unknown).toMatchObject({
      lastErrorCode: "oauth_error",
      lastError: expect.stringContaining(
        'Unknown OAuth provider profile "azure" (known: entra, cognito, okta, auth0, keycloak, google, github)',
      ),
    });
    // A known one gets as far as the server's refusal, as without a profile.
    expect(await statusOf({ oauth: { profile: "entra" } })).toMatchObject({
      lastErrorCode: "oauth_error",
      lastError: expect.not.stringContaining("Unknown OAuth provider profile"),
    });
  });
});

describe("authorizeServer on a config OAuth does not apply to", () => {
  const cases: { config: Record<string, unknown>; field: string; says: string }[] = [
    { config: { command: process.execPath }, field: "type", says: 'this is a stdio server (no "url")' },
    {
      config: { type: "stdio", command: process.execPath },
      field: "type",
      says: 'this is a "stdio" server (no "url")',
    },
    {
      config: { type: "http", url: "http://127.0.0.1:1/mcp", oauth: false },
      field: "oauth",
      says: 'this one sets "oauth": false',
    },
    {
      config: { type: "http", url: "http://127.0.0.1:1/mcp", headersHelper: "print-headers" },
      field: "headersHelper",
      says: '"headersHelper" brings the credentials',
    },
    {
      config: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { authorization: "Bearer x" } },
      field: "headers",
      says: '"Authorization" header brings the credentials',
    },
  ];
  it.each(cases)("is an InvalidConfigError naming field $field, with the reason", async ({ config, field, says }) => {
    const manager = new MCPManager({ reconnect: false, oauth: { store: new MemoryTokenStore() } });
    const error = await manager.authorizeServer("docs", config as never).catch((e: unknown) => e);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "invalid_config", serverName: "docs", field });
    expect((error as Error).message).toContain('MCP server "docs": OAuth applies only to HTTP servers that use it; ');
    expect((error as Error).message).toContain(says);
  });
});

describe("authorizeServer with the device flow", () => {
  it(
    "shows the code, waits for the approval elsewhere, and keeps the tokens in the manager's store; an AS without the grant is an OAuthError",
    { timeout: 60_000 },
    async () => {
      const { startOidcServer } = await import("mcp-test-utils");
      const [withDevice, without] = [
        await startOidcServer({ deviceFlow: true }),
        await startOidcServer({ deviceFlow: false }),
      ];
      const cacheDir = mkdtempSync(join(tmpdir(), "mcp-manager-oauth-"));
      const store = new MemoryTokenStore();
      const manager = new MCPManager({
        pins: { store: new MemoryPinStore() },
        cacheDir,
        reconnect: false,
        oauth: { store },
      });
      try {
        const approvals: Promise<void>[] = [];
        const codes: string[] = [];
        await manager.authorizeServer("s", { type: "http", url: withDevice.mcpUrl } as never, {
          device: {
            onCode: (prompt) =>
              void (codes.push(prompt.userCode), approvals.push(withDevice.approveDevice(prompt.userCode))),
          },
        });
        await Promise.all(approvals);
        expect(codes).toHaveLength(1);
        expect((await store.find(withDevice.mcpUrl))?.tokens?.accessToken).toEqual(expect.any(String));

        const failure = await manager
          .authorizeServer("t", { type: "http", url: without.mcpUrl } as never, {
            device: { onCode: () => codes.push("never") },
          })
          .catch((e: unknown) => e);
        expect(failure).toMatchObject({
          name: "OAuthError",
          message: expect.stringContaining("has no device_authorization_endpoint (RFC 8628)"),
        });
        expect(codes).toHaveLength(1);
        expect(await store.find(without.mcpUrl)).toBeUndefined();
      } finally {
        await manager.disconnectAll();
        await Promise.all([withDevice.stop(), without.stop()]);
        rmSync(cacheDir, { recursive: true, force: true });
      }
    },
  );
});
