// An MCP server protected by OAuth, built from the official SDK's own pieces: its authorization
// server router (`mcpAuthRouter`) with the SDK's demo provider (which approves at once and
// redirects with a code), its protected-resource metadata router, its bearer-token middleware,
// and a Streamable HTTP server with a `whoami` tool. Both servers listen on 127.0.0.1 only.
import type { Server } from "node:http";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express from "express";
import { freePort } from "./index.js";

export interface SdkOAuthServer {
  /** The protected MCP endpoint. */
  url: string;
  /** The authorization server (its issuer). */
  issuer: string;
  /** How many authorization requests the authorization server saw. */
  authorizations(): number;
  stop(): Promise<void>;
}

async function listen(app: express.Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}

/**
 * Starts the authorization server and the protected MCP server on free loopback ports. `cors: true`
 * lets a page on another origin use the MCP endpoint (the SDK's authorization endpoints send CORS
 * headers of their own): any origin, the request headers a preflight asks for, `WWW-Authenticate`
 * and `Mcp-Session-Id` exposed.
 */
export async function startSdkOAuthServer(options: { cors?: boolean } = {}): Promise<SdkOAuthServer> {
  const [asPort, mcpPort] = [await freePort(), await freePort()];
  const issuer = new URL(`http://127.0.0.1:${asPort}`);
  const mcpUrl = new URL(`http://127.0.0.1:${mcpPort}/mcp`);
  const provider = new DemoInMemoryAuthProvider((resource) => resource?.href === mcpUrl.href);
  let authorizations = 0;

  const authApp = express();
  authApp.use((req, _res, next) => {
    if (req.path === "/authorize") authorizations++;
    next();
  });
  authApp.use(mcpAuthRouter({ provider, issuerUrl: issuer, scopesSupported: ["mcp:tools"] }));
  const authServer = await listen(authApp, asPort);

  const oauthMetadata = createOAuthMetadata({ provider, issuerUrl: issuer, scopesSupported: ["mcp:tools"] });
  const mcpApp = express();
  if (options.cors) {
    mcpApp.use((req, res, next) => {
      res.setHeader("access-control-allow-origin", "*");
      res.setHeader("access-control-expose-headers", "www-authenticate, mcp-session-id");
      if (req.method !== "OPTIONS") return next();
      res.setHeader("access-control-allow-methods", "GET, POST, DELETE");
      // Whatever the preflight asks for (Authorization is never covered by "*").
      res.setHeader("access-control-allow-headers", req.get("access-control-request-headers") ?? "*");
      res.status(204).end();
    });
  }
  mcpApp.use(express.json());
  mcpApp.use(
    mcpAuthMetadataRouter({
      oauthMetadata,
      resourceServerUrl: mcpUrl,
      scopesSupported: ["mcp:tools"],
      resourceName: "sdk-oauth-test-server",
    }),
  );
  const auth = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  mcpApp.all("/mcp", auth, async (req, res) => {
    // Stateless: one server and transport per request.
    const server = new McpServer({ name: "sdk-oauth-test-server", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says which client the token belongs to" }, (extra) => ({
      content: [{ type: "text", text: `client ${extra.authInfo?.clientId ?? "unknown"}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const mcpServer = await listen(mcpApp, mcpPort);

  return {
    url: mcpUrl.href,
    issuer: issuer.href,
    authorizations: () => authorizations,
    stop: async () => {
      for (const server of [mcpServer, authServer]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
