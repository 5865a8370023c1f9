// The inspector's held-tool rows: what `mcp pins --json` gives for each (the manager's heldFacts, in
// its order), the diff for a person, and the command that approves it. Tools held by a real manager
// when a real stdio server (official SDK) it approved changes its tools and says so (list_changed).
import { formatToolDiff, heldFacts, MCPManager, MemoryPinStore } from "@mcp/manager";
import { PINNED_TOOLS, PinnedServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { heldRows } from "../src/rows.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("heldRows", () => {
  it("each held tool's facts as heldFacts gives them, its diff as text, and its approve command", async () => {
    const { search, read, poisoned } = PINNED_TOOLS;
    const server = new PinnedServer([search, read]);
    cleanups.push(() => server.remove());
    const manager = new MCPManager({ cache: false, pins: { store: new MemoryPinStore() } });
    cleanups.push(() => manager.disconnectAll());
    await manager.connectServers({ web: server.config() });
    expect(heldRows(manager, undefined)).toEqual([]);
    server.setTools([poisoned, read, { ...read, name: "write" }]);
    server.notifyChanged();
    await expect.poll(() => manager.pins.held("web").map((h) => h.tool)).toEqual(["search", "write"]);
    const held = manager.pins.held("web");

    const rows = heldRows(manager, (server, tool) => `mcp pins approve ${server} ${tool}`);
    // heldFacts's fields in its order (manager/test/held.test.ts pins it), then the diff and the command.
    expect(Object.keys(rows[0]!)).toEqual([...Object.keys(heldFacts(held[0]!)), "diff", "approve"]);
    expect(Object.keys(rows[0]!)).toContain("definition");
    expect(rows).toEqual(
      held.map((h) => ({
        ...heldFacts(h),
        diff: formatToolDiff(h.diff),
        approve: `mcp pins approve web ${h.tool}`,
      })),
    );
    expect(rows[0]).toMatchObject({ change: "changed", fields: ["description", "inputSchema"] });
    expect(rows[0]!.diff).toContain("{+");
    expect(rows[1]).toMatchObject({ tool: "write", change: "added", old: undefined, oldHash: undefined });

    // Without an approve command, no `approve`.
    expect(heldRows(manager, undefined).map((row) => "approve" in row)).toEqual([false, false]);
  });
});
