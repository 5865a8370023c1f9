// The listing rows (what `mcp servers | tools | resources | prompts --json` print and the inspector's
// API answers) from a manager running real servers: server-everything, a command that is not
// installed, and a loopback HTTP server that refuses every request with a 401.
import { createServer, type Server } from "node:http";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MCPManager,
  MemoryPinStore,
  promptRows,
  resourceRows,
  roundTrips,
  serverJsonRow,
  serverRow,
  statusWord,
  toolRows,
} from "../src/index.js";

let manager: MCPManager;
let refusing: Server;
const configs = () => ({
  everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
  missing: { command: "no-such-command-for-rows-test", timeout: 20_000 },
  locked: { type: "http" as const, url: `http://127.0.0.1:${(refusing.address() as { port: number }).port}/mcp` },
});

beforeAll(async () => {
  refusing = createServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: false, oauth: false });
  await manager.connectServers(configs());
});
afterAll(async () => {
  await manager?.disconnectAll();
  refusing?.close();
});

const status = (name: string) => manager.getConnectionStatus(name)!;

describe("listing rows", () => {
  it("a server's status in words; its row with its tool count once connected, and none when it failed", () => {
    expect(statusWord(status("everything"))).toBe("connected");
    expect(statusWord(status("missing"))).toBe("failed");
    expect(status("locked").lastErrorStatus).toBe(401);
    expect(statusWord(status("locked"), configs().locked)).toBe("needs authentication");
    // A token of its own that was refused: signing in would not change what is sent.
    expect(statusWord(status("locked"), { ...configs().locked, headers: { Authorization: "Bearer x" } })).toBe(
      "failed",
    );
    const row = serverRow(status("everything"));
    expect(row).toMatchObject({ name: "everything", transport: "stdio", status: "connected" });
    expect(row.tools).toBe(manager.getTools().filter((t) => t.serverName === "everything").length);
    const failed = serverRow(status("missing"), undefined, { source: "(command line)", lastError: "said so" });
    expect(failed).toMatchObject({
      status: "failed",
      tools: undefined,
      source: "(command line)",
      lastError: "said so",
    });
    expect(serverRow(status("missing")).lastError).toBe(status("missing").lastError);
  });

  it("a row for JSON has every key, null where nothing applies", () => {
    const json = serverJsonRow(serverRow(status("missing")));
    expect(Object.keys(json)).toEqual([
      "name",
      "transport",
      "source",
      "status",
      "tools",
      "connectMs",
      "lastError",
      "stderrTail",
    ]);
    expect(json.tools).toBeNull();
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it("tools, resources (then templates) and prompts, each naming its server", async () => {
    const tools = toolRows(manager.getTools());
    expect(tools.find((t) => t.tool === "echo")).toMatchObject({ name: "mcp__everything__echo", server: "everything" });
    const resources = await resourceRows(manager, ["everything"]);
    expect(resources.some((r) => !r.template && r.uri.startsWith("demo://resource/static/"))).toBe(true);
    const templates = resources.filter((r) => r.template);
    expect(templates.length).toBeGreaterThan(0);
    // Resources first, then templates.
    expect(resources.slice(-templates.length)).toEqual(templates);
    expect(resources.every((r) => r.server === "everything")).toBe(true);
    const prompts = await promptRows(manager, ["everything"]);
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((p) => p.server === "everything" && typeof p.name === "string")).toBe(true);
  });

  it("each server's round trip: a time and its method, or why there is none", async () => {
    const rows = await roundTrips(manager, { timeout: 20_000 });
    expect(rows.map((r) => r.server)).toEqual(["everything", "missing", "locked"]);
    const [everything, missing, locked] = rows;
    expect(everything).toMatchObject({ server: "everything", method: "ping" });
    expect(everything!.ms).toBeGreaterThan(0);
    expect(everything!.error).toBeUndefined();
    expect(missing).toEqual({ server: "missing", error: status("missing").lastError });
    expect(locked!.error).toBe(status("locked").lastError);
    const worded = await roundTrips(manager, { errorOf: (s) => (s.name === "missing" ? "said here" : undefined) });
    expect(worded.find((r) => r.server === "missing")?.error).toBe("said here");
    expect(worded.find((r) => r.server === "locked")?.error).toBe(status("locked").lastError);
  });
});
