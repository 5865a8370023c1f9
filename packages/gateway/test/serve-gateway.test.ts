// A gateway assembled from a command line's options: the view asked for is checked against the
// config file before the audit sink opens, a sink opened is closed when the gateway cannot be made,
// and what it makes serves the file's view to the caller over HTTP, as the SDK client sees it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InvalidConfigError } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, describe, expect, it } from "vitest";
import {
  auditStream,
  gatewayFromOptions,
  gatewayHandlers,
  serveCallers,
  startGatewayServer,
  type GatewayFromOptions,
} from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "gateway-from-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "mcp-client.json");
const configs = { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } };
writeFileSync(file, JSON.stringify({ servers: configs, views: { echo: { tools: ["everything__echo"] } } }));
const token = "token-0123456789abcdef";

/** The options with an audit sink that records whether it was opened and closed. */
async function options(more: Partial<GatewayFromOptions> = {}) {
  const audit = { opened: false, closed: false };
  const handlers = gatewayHandlers();
  const manager = new MCPManager({ ...handlers, cache: false, pins: false });
  const callers = await serveCallers({ http: true, env: { MCP_SERVE_TOKEN: token } });
  const given: GatewayFromOptions = {
    http: true,
    callers,
    handlers,
    name: "test-gateway",
    version: "1.0.0",
    files: [file],
    audit: () => {
      audit.opened = true;
      const sink = auditStream(new Writable({ write: (_chunk, _encoding, done) => done() }));
      const close = sink.close.bind(sink);
      return Object.assign(sink, { close: () => ((audit.closed = true), close()) });
    },
    warn: () => undefined,
    env: {},
    ...more,
  };
  return { manager, given, audit };
}

describe("gatewayFromOptions", () => {
  it("refuses a view the file does not have, before the audit sink opens", async () => {
    const { manager, given, audit } = await options({ view: "nosuch" });
    const error = await gatewayFromOptions(manager, configs, given).catch((e: unknown) => e);
    expect(InvalidConfigError.isInstance(error) && error.field).toBe("view");
    expect((error as Error).message).toBe("--view nosuch: no such view in your config (echo)");
    expect(audit.opened).toBe(false);
  });

  it("closes the audit sink it opened when the gateway cannot be made (a short MCP_METRICS_TOKEN)", async () => {
    const { manager, given, audit } = await options({ metrics: true, env: { MCP_METRICS_TOKEN: "short" } });
    const error = await gatewayFromOptions(manager, configs, given).catch((e: unknown) => e);
    expect(InvalidConfigError.isInstance(error) && error.field).toBe("MCP_METRICS_TOKEN");
    expect(audit).toEqual({ opened: true, closed: true });
  });

  it("takes a server whose name holds __ out of the configs, warning, and serves the others", async () => {
    const warned: string[] = [];
    const { manager, given } = await options({ warn: (message) => warned.push(message) });
    const mixed = { ...configs, a__b: configs.everything };
    const { gateway } = await gatewayFromOptions(manager, mixed, given);
    await gateway.close();
    expect(Object.keys(mixed)).toEqual(["everything"]);
    expect(warned).toEqual([
      'server "a__b" is not served: "__" in its name would make <server>__<tool> ambiguous; rename it',
    ]);
  });

  it("serves the caller the view it was given, over HTTP", async () => {
    const { manager, given } = await options({ view: "echo" });
    const { gateway, audit } = await gatewayFromOptions(manager, configs, given);
    await manager.connectServers(configs);
    const http = await startGatewayServer(gateway);
    const client = new Client({ name: "t", version: "1" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["everything__echo"]);
    } finally {
      await client.close();
      await http.close();
      await gateway.close();
      await audit?.close();
      await manager.disconnectAll();
    }
  }, 60_000);
});
