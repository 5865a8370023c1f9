// Both protocol eras on one server (the official SDK v2 server over stdio, which serves 2026-07-28
// and 2025-era sessions): 2026-07-28 hosts share one process (each request carries its own client
// capabilities, a question comes back in the request's own result); a 2025 host gets its own.
import { v2StdioEntry } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";
import { host } from "./helpers.js";

const v2 = { command: process.execPath, args: [v2StdioEntry, "serve"] };
const meta = (name: string): Record<string, unknown> => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  "io.modelcontextprotocol/clientInfo": { name, version: "1" },
});

let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("ServerPool across protocol eras (SDK v2 server over stdio)", () => {
  it("shares one 2026-07-28 process among hosts, answers each its own, and opens a 2025 host's own", async () => {
    pool = new ServerPool();
    const [a, b, old] = [
      host(pool, undefined, "v2", v2),
      host(pool, undefined, "v2", v2),
      host(pool, undefined, "v2", v2),
    ];
    const discovered = await a.request("server/discover", { _meta: meta("a") });
    expect(discovered.result.supportedVersions).toContain("2026-07-28");
    // B skips discovery: its request's envelope says the era.
    const [sumA, sumB] = await Promise.all([
      a.request("tools/call", { name: "add", arguments: { a: 1, b: 2 }, _meta: meta("a") }),
      b.request("tools/call", { name: "add", arguments: { a: 10, b: 20 }, _meta: meta("b") }),
    ]);
    expect(sumA.result.content[0].text).toBe("3");
    expect(sumB.result.content[0].text).toBe("30");
    // A question in the 2026-07-28 way: the request's own result, so only A has it.
    const asked = await a.request("tools/call", { name: "ask-name", arguments: {}, _meta: meta("a") });
    expect(asked.result.resultType).toBe("input_required");
    expect(JSON.stringify(asked.result.inputRequests)).toContain("Your name?");
    expect(b.notifications).toEqual([]);
    const init = await old.initialize({}, "2025-11-25");
    expect(init.result.protocolVersion).toBe("2025-11-25");
    expect((await old.request("tools/call", { name: "add", arguments: { a: 2, b: 2 } })).result.content[0].text).toBe(
      "4",
    );
    expect(
      pool
        .statuses()
        .map((s) => `${s.era}:${s.hosts.length}`)
        .sort(),
    ).toEqual(["2025:1", "2026-07-28:2"]);
  });

  it("answers server/discover to a 2025-only server with its error, remembered, and the host then opens with initialize", async () => {
    pool = new ServerPool();
    const h = host(pool);
    const refused = await h.request("server/discover", { _meta: meta("h") });
    expect(refused.error.code).toBe(-32601);
    expect(pool.statuses()).toEqual([]);
    const again = host(pool);
    expect((await again.request("server/discover", { _meta: meta("again") })).error.code).toBe(-32601);
    expect((await h.initialize()).result.serverInfo.name).toContain("everything");
    expect(pool.statuses()).toHaveLength(1);
  });
});
