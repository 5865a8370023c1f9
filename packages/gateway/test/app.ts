// A gateway embedded in an app of the test's own: a manager on `configs`, the gateway on it, and a
// node:http server on a free loopback port that hands it the requests under its path (the rest
// answers "app"). What the tests of this package all start. The gateway's fast path is on (its
// default) unless the run sets MCP_GATEWAY_TEST_PATH=sdk: the root vitest config runs these suites
// a second time that way (project "gateway-sdk-path"), so both paths pass the same tests.
import { createServer, type Server } from "node:http";
import type { MCPServerConfig } from "@mcp/client";
import { MCPManager, MemoryPinStore, type MCPManagerOptions } from "@mcp/manager";
import { createGateway, gatewayHandlers, type CreateGatewayOptions, type McpGateway } from "../src/index.js";

export interface Mounted {
  gateway: McpGateway;
  manager: MCPManager;
  /** The gateway's URL: the app's origin and the gateway's path. */
  url: string;
  /** The app's node:http server. */
  app: Server;
  stop(): Promise<void>;
}

/** Mounts a gateway over `configs` (its handlers bound unless `options.handlers` is given as `false`; tool pins in memory unless `pins` is given). */
export async function mountGateway(
  configs: Record<string, MCPServerConfig>,
  options: Partial<CreateGatewayOptions> & { bind?: boolean; pins?: MCPManagerOptions["pins"] } = {},
): Promise<Mounted> {
  const handlers = gatewayHandlers();
  const manager = new MCPManager({ pins: options.pins ?? { store: new MemoryPinStore() }, ...handlers, cache: false });
  await manager.connectServers(configs);
  const { bind = true, pins: _pins, ...rest } = options;
  const fastPath = process.env["MCP_GATEWAY_TEST_PATH"] !== "sdk";
  const gateway = createGateway(manager, { ...(bind ? { handlers } : {}), fastPath, ...rest });
  const path = rest.path ?? "/mcp";
  const app: Server = createServer((req, res) => {
    if (req.url?.startsWith(path)) return void gateway.handle(req, res);
    res.writeHead(200).end("app");
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  return {
    gateway,
    manager,
    url: `http://127.0.0.1:${(app.address() as { port: number }).port}${path}`,
    app,
    stop: async () => {
      app.closeAllConnections();
      await new Promise<void>((resolve) => app.close(() => resolve()));
      await gateway.close();
      await manager.disconnectAll();
    },
  };
}
