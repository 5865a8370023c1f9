// One server instance of the gateway: the SDK calls the factory per HTTP request (2026-07-28) or
// per connection (2025 sessions, stdio), and each gets the gateway's handlers for its scope.

import { Server } from "@modelcontextprotocol/server";
import type { Gateway } from "./gateway.js";
import type { Scope } from "./gateway-options.js";
import { registerRoutes } from "./routes.js";

/**
 * A new server instance serving `scope` through `gateway`. `connection`: the instance has a
 * connection of its own (stdio, a 2025 HTTP session), so list changes are sent on it (on a
 * 2026-07-28 stdio connection the SDK routes them to the caller's `subscriptions/listen`).
 */
export function createInstance(gateway: Gateway, scope: Scope, connection: boolean): Server {
  const server = new Server(gateway.info, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
      completions: {},
      logging: {},
    },
    // A tool may ask its caller many times; each question is a round.
    inputRequired: { maxRounds: 64 },
  });
  registerRoutes(gateway, server, scope);
  if (connection) gateway.track(server, scope);
  return server;
}
