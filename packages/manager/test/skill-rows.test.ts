// skillRows (`mcp skills --json`'s rows) from a manager connected to the official SDK v2's skills
// extension (SEP-2640) on loopback: the listings alone, no skill file read.
import { startV2SkillsServer, type V2SkillsServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPManager, MemoryPinStore, skillRows } from "../src/index.js";

let manager: MCPManager;
let server: V2SkillsServer;
beforeAll(async () => {
  server = await startV2SkillsServer();
  manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: false, oauth: false });
  await manager.connectServers({ docs: { type: "http", url: server.url }, again: { type: "http", url: server.url } });
});
afterAll(async () => {
  await manager?.disconnectAll();
  await server?.stop();
});

describe("skillRows", () => {
  it("lists each named server's skills from its listing, in the order given, reading no skill file", async () => {
    const rows = await skillRows(manager, ["again", "docs"]);
    const pdf = {
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents\n",
      uri: "skill://pdf-processing/SKILL.md",
    };
    expect(rows.filter((r) => r.name === "pdf-processing")).toEqual([
      { server: "again", ...pdf },
      { server: "docs", ...pdf },
    ]);
    expect(rows.map((r) => r.server)).toEqual([...rows.map((r) => r.server)].sort());
    expect(rows.length % 2).toBe(0);
    expect(server.reads).toEqual([]);
    expect(await skillRows(manager, [])).toEqual([]);
  });
});
