// A held tool as a host shows it (heldReason, heldFacts, findHeld; moved from the CLI's pins view):
// tools held by a real manager against a real stdio server (official SDK) whose tools change between runs.
import { PINNED_TOOLS, PinnedServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { findHeld, heldFacts, heldReason, MCPManager, MemoryPinStore } from "../src/index.js";

const { search, read, poisoned } = PINNED_TOOLS;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("held tools for a person", () => {
  it("why each is held, its facts in order, and found by its name, server.tool or the name models see", async () => {
    const server = new PinnedServer([search, read]);
    cleanups.push(() => server.remove());
    const store = new MemoryPinStore();
    const first = new MCPManager({ cache: false, pins: { store } });
    cleanups.push(() => first.disconnectAll());
    await first.connectServers({ web: server.config() });
    await first.disconnectAll();

    server.setTools([poisoned, read, { ...read, name: "write" }]);
    const second = new MCPManager({ cache: false, pins: { store } });
    cleanups.push(() => second.disconnectAll());
    await second.connectServers({ web: server.config() });
    const held = second.pins.held("web");
    expect(held.map((h) => [h.tool, heldReason(h)])).toEqual([
      ["search", "its definition changed since it was approved (description, inputSchema)"],
      ["write", "it is new since the server's tools were approved"],
    ]);

    const changed = held[0]!;
    const facts = heldFacts(changed);
    expect(Object.keys(facts)).toEqual([
      "server",
      "tool",
      "change",
      "oldHash",
      "newHash",
      "fields",
      "description",
      "schema",
      "old",
      "definition",
    ]);
    expect(facts).toMatchObject({
      server: "web",
      tool: "search",
      change: "changed",
      fields: ["description", "inputSchema"],
    });
    expect(facts.old?.description).toBe(search.description);
    expect(facts.definition.description).toBe(poisoned.description);
    expect(facts.oldHash).not.toBe(facts.newHash);
    expect(heldFacts(held[1]!)).toMatchObject({ change: "added", old: undefined, oldHash: undefined });

    expect(findHeld(held, "search")).toBe(changed);
    expect(findHeld(held, "web.search")).toBe(changed);
    expect(findHeld(held, "mcp__web__search")).toBe(changed);
    expect(findHeld(held, "web.write")).toBe(held[1]);
    expect(findHeld(held, "read")).toBeUndefined();
    expect(findHeld(held, "other.search")).toBeUndefined();
  });
});
