// Tool pinning through the gateway: a real stdio server (official SDK) whose tool definitions come
// from a file changes a tool's description and schema between runs. Two callers, each with its own
// token, through the official SDK client: neither sees nor calls the held tool, the audit log says
// so once, and an approval through another manager on the same pin store (what `mcp pins approve`
// does) brings it back, the gateway reading the store again by itself.
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { PINNED_TOOLS, PinnedServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { gatewayHandlers, type AuditEntry, type Caller } from "../src/index.js";
import { mountGateway, type Mounted } from "./app.js";

const USERS = new Map<string, Caller>([
  ["alice-key", { id: "u-alice", name: "alice" }],
  ["bob-key", { id: "u-bob", name: "bob" }],
]);
const { search, read, poisoned } = PINNED_TOOLS;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function caller(url: string, key: string): Promise<Client1> {
  const client = new Client1({ name: key, version: "1" });
  await client.connect(new Http1(new URL(url), { requestInit: { headers: { "x-api-key": key } } }));
  cleanups.push(() => client.close());
  return client;
}

/** A manager as the gateway's (same capabilities, so the same pins), on `store`: what pins first, and what approves. */
async function admin(store: MemoryPinStore, server: PinnedServer): Promise<MCPManager> {
  const manager = new MCPManager({ ...gatewayHandlers(), cache: false, pins: { store } });
  cleanups.push(() => manager.disconnectAll());
  await manager.connectServers({ web: server.config() });
  return manager;
}

describe("the gateway and tool pins", () => {
  it("a held tool is hidden from every caller and not callable, audited once with its hashes, and served once approved", async () => {
    const server = new PinnedServer([search, read]);
    cleanups.push(() => server.remove());
    const store = new MemoryPinStore();
    await (await admin(store, server)).disconnectAll(); // first use: pinned

    server.setTools([poisoned, read]);
    const audit: AuditEntry[] = [];
    const mounted: Mounted = await mountGateway(
      { web: server.config() },
      {
        pins: { store },
        audit: (entry) => void audit.push(entry),
        authenticate: (req) => USERS.get(String(req.headers["x-api-key"])),
        callers: [...USERS.values()],
      },
    );
    cleanups.push(() => mounted.stop());
    const clients = [await caller(mounted.url, "alice-key"), await caller(mounted.url, "bob-key")];
    for (const client of clients) {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["web__read"]);
      const refused = await client.callTool({ name: "web__search", arguments: { query: "x" } }).then(
        (result) => result,
        (error: unknown) => error,
      );
      expect(String((refused as Error).message ?? JSON.stringify(refused))).toContain("Unknown tool: web__search");
    }
    expect(server.calls()).toEqual([]);
    const held = audit.filter((entry) => entry.decision === "held");
    expect(held).toEqual([
      expect.objectContaining({
        caller: null,
        server: "web",
        tool: "web__search",
        decision: "held",
        oldHash: expect.stringMatching(/^sha256:/),
        newHash: expect.stringMatching(/^sha256:/),
      }),
    ]);
    expect(held[0]?.oldHash).not.toBe(held[0]?.newHash);

    // An admin approves against the same store; the gateway reads it again by itself (every 10 s
    // while a tool is held) and serves the tool to both callers.
    const approver = await admin(store, server);
    expect((await approver.pins.approve("web")).map((tool) => tool.tool)).toEqual(["search"]);
    await expect
      .poll(async () => (await clients[0]!.listTools()).tools.length, { timeout: 25_000, interval: 500 })
      .toBe(2);
    for (const client of clients) {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["web__read", "web__search"]);
      expect(await client.callTool({ name: "web__search", arguments: { query: "x" } })).toMatchObject({
        content: [{ type: "text", text: "search ran" }],
      });
    }
    expect(audit.filter((entry) => entry.decision === "held")).toHaveLength(1);
  });
});
