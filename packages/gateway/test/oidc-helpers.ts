// A gateway on a node:http server of its own (every path is the gateway's: its metadata and
// operations endpoints too), over one upstream, and a raw 2026-07-28 tools/call to it.
import { createServer, type Server } from "node:http";
import type { MCPServerConfig } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { createGateway, type CreateGatewayOptions, type McpGateway } from "../src/index.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

export interface OidcGateway {
  url: string;
  origin: string;
  gateway: McpGateway;
  manager: MCPManager;
  stop(): Promise<void>;
}

/** A gateway on its own node:http server (every path its), over `upstream` (as `up`) and `more`, its audience its own `/mcp` URL. */
export async function oidcGateway(
  upstream: string,
  options: (origin: string) => Partial<CreateGatewayOptions> | Promise<Partial<CreateGatewayOptions>>,
  more: Record<string, MCPServerConfig> = {},
): Promise<OidcGateway> {
  const ref: { gateway?: McpGateway } = {};
  const server: Server = createServer((req, res) => void ref.gateway!.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const manager = new MCPManager({ cache: false });
  await manager.connectServers({ up: { type: "http", url: upstream }, ...more });
  const gateway = (ref.gateway = createGateway(manager, {
    fastPath: process.env["MCP_GATEWAY_TEST_PATH"] !== "sdk",
    ...(await options(origin)),
  }));
  return {
    url: `${origin}/mcp`,
    origin,
    gateway,
    manager,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      await manager.disconnectAll();
    },
  };
}

/**
 * A `tools/call` of `up__add` as a 2026-07-28 caller sends it, with `token` (if any); `extra.meta`
 * replaces the caller's `_meta`, `extra.params` adds to the params (an input_required round's answer).
 */
export function callAdd(
  url: string,
  token: string | undefined,
  a = 2,
  b = 3,
  extra: { meta?: Record<string, unknown>; params?: Record<string, unknown> } = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "up__add",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "up__add", arguments: { a, b }, _meta: extra.meta ?? META, ...extra.params },
    }),
  });
}
