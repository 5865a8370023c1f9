#!/usr/bin/env node
// A client built on @mcp/client for the official MCP conformance suite. The suite appends the
// server URL as the last argument and names the scenario in MCP_CONFORMANCE_SCENARIO.
//   node apps/conformance-client/dist/index.js <server-url>
import { callTool, connectToServer, disconnectServer, listTools, type ConnectOptions, type MCPServerConnection } from "@mcp/client";

const url = process.argv.at(-1);
const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "initialize";
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: conformance-client <server-url>   (scenario from MCP_CONFORMANCE_SCENARIO)");
  process.exit(2);
}

const options: ConnectOptions = {
  clientInfo: { name: "mcp-client-stack-conformance", version: "0.1.0" },
  // SEP-1034: accept with nothing filled in; the client applies the schema's defaults.
  onElicitation: () => Promise.resolve({ action: "accept", content: {} }),
  onError: (error) => console.error(`[${scenario}] transport: ${error.message}`),
};

/** What each scenario asks of a client, beyond the handshake itself. */
const scenarios: Record<string, (connection: MCPServerConnection) => Promise<void>> = {
  initialize: async (connection) => {
    await listTools(connection);
  },
  tools_call: async (connection) => {
    await listTools(connection);
    const result = await callTool(connection, "add_numbers", { a: 5, b: 3 });
    console.log(JSON.stringify(result));
  },
  "elicitation-sep1034-client-defaults": async (connection) => {
    await listTools(connection);
    const result = await callTool(connection, "test_client_elicitation_defaults", {});
    console.log(JSON.stringify(result));
  },
  "sse-retry": async (connection) => {
    await listTools(connection);
    const result = await callTool(connection, "test_reconnection", {}, { timeout: 10_000 });
    console.log(JSON.stringify(result));
  },
};

const connection = await connectToServer(`conformance:${scenario}`, { type: "http", url, timeout: 15_000 }, options);
try {
  await (scenarios[scenario] ?? scenarios["initialize"]!)(connection);
} finally {
  await disconnectServer(connection);
}
