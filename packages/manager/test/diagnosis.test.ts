// What a failed server's status says about its config, found by the manager's helpers (moved from
// the CLI's resolve.ts, which words them for the terminal): the wrong kind of HTTP transport and a
// wrong path, from real failures against a server built on the official SDK (its other paths 404); whether signing in
// is the fix, or a static token was refused.
import type { MCPServerConfig } from "@mcp/client";
import { startSdkServer, type SdkServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  configHint,
  MCPManager,
  MemoryPinStore,
  needsSignIn,
  refusedTokenHeader,
  staticAuthorization,
  type ServerStatus,
} from "../src/index.js";

let sdk: SdkServer;
beforeAll(async () => {
  // Only /mcp is the MCP endpoint; any other path is a 404 page, as a web framework answers it.
  sdk = await startSdkServer({
    intercept: (req, res) => {
      if (req.url?.startsWith("/mcp")) return false;
      res.writeHead(404, { "content-type": "text/plain" }).end(`Cannot ${req.method} ${req.url}`);
      return true;
    },
  });
});
afterAll(() => sdk.stop());

async function failed(config: MCPServerConfig): Promise<ServerStatus> {
  const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false });
  try {
    await manager.connectServers({ s: config });
    const status = manager.getConnectionStatus("s")!;
    expect(status.state).toBe("failed");
    return status;
  } finally {
    await manager.disconnectAll();
  }
}

describe("configHint", () => {
  it("a path with no MCP endpoint (404) says so, with the URL's password hidden", async () => {
    const url = sdk.url.replace("://", "://u:secret@").replace(/\/mcp$/, "/nope");
    const config: MCPServerConfig = { type: "http", url, timeout: 10_000 };
    const status = await failed(config);
    expect(status.lastErrorStatus).toBe(404);
    const hint = configHint(config, status);
    expect(hint).toMatch(
      /^there is no MCP endpoint at http:\/\/u:%5Bredacted%5D@127\.0\.0\.1:\d+\/nope; check the path \(often \/mcp\)$/,
    );
    expect(hint).not.toContain("secret");
  });

  it('a Streamable HTTP server configured as "sse" is named as one', async () => {
    const config: MCPServerConfig = { type: "sse", url: sdk.url, timeout: 10_000 };
    expect(configHint(config, await failed(config))).toBe(
      'it answers like a Streamable HTTP server; try "type": "http"',
    );
  });

  it("nothing comes to mind for a stdio server, a config-less status, or an unrelated failure", () => {
    const status = { state: "failed", lastError: "boom", lastErrorStatus: 500 } as ServerStatus;
    expect(configHint({ command: "node" }, status)).toBeUndefined();
    expect(configHint(undefined, status)).toBeUndefined();
    expect(configHint({ type: "http", url: "http://127.0.0.1:1/mcp" }, status)).toBeUndefined();
    expect(configHint({ type: "http", url: "http://127.0.0.1:1/sse" }, status)).toBe(
      'it answers like a HTTP+SSE server; try "type": "sse"',
    );
  });
});

describe("needsSignIn and refusedTokenHeader", () => {
  const refused = { state: "failed", lastErrorStatus: 401, lastErrorCode: "http_error" } as ServerStatus;
  const plain: MCPServerConfig = { type: "http", url: "http://127.0.0.1:1/mcp" };
  const withToken: MCPServerConfig = { ...plain, headers: { authorization: "Bearer x" } };

  it("a 401 or an OAuth failure: signing in is the fix, unless the config sends its own token", () => {
    expect(needsSignIn(refused, plain)).toBe(true);
    expect(needsSignIn({ ...refused, lastErrorStatus: undefined, lastErrorCode: "oauth_error" }, plain)).toBe(true);
    expect(needsSignIn(refused, withToken)).toBe(false);
    expect(needsSignIn({ ...refused, state: "connected" }, plain)).toBe(false);
    expect(needsSignIn({ ...refused, lastErrorStatus: 403 }, plain)).toBe(false);
  });

  it("the static token's header is named when a 401 refused it, whatever its case", () => {
    expect(staticAuthorization(withToken)).toBe("authorization");
    expect(staticAuthorization({ command: "node" })).toBeUndefined();
    expect(refusedTokenHeader(refused, withToken)).toBe("authorization");
    expect(refusedTokenHeader(refused, plain)).toBeUndefined();
    expect(refusedTokenHeader({ ...refused, lastErrorStatus: 500 }, withToken)).toBeUndefined();
  });
});
