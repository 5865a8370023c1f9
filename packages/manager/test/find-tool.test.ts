// findToolByName against real stdio servers (official-SDK fixture): a bare tool name starts only
// the servers whose cached list has it; a name no cached list has (or a stale cache) starts the
// rest of the servers given, never others'; several owners is ambiguous; nothing is "asked" tools.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MCPServerConfig } from "@mcp/client";
import { afterEach, describe, expect, it } from "vitest";
import { findToolByName, MCPManager, MemoryPinStore } from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
/** A fixture server offering these tools (the env is not part of the cache key: "another day" is a changed list). */
const withTools = (names: string): MCPServerConfig => ({
  command: process.execPath,
  args: [fixture],
  timeout: 15_000,
  env: { FIXTURE_TOOLS: names },
});
const dirs: string[] = [];
const managers: MCPManager[] = [];
function manager(cacheDir: string): MCPManager {
  const m = new MCPManager({ pins: { store: new MemoryPinStore() }, cacheDir });
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A cache warmed with these servers as they are, and a new manager on it with them registered, none started. */
async function warm(configs: Record<string, MCPServerConfig>, later = configs) {
  const cacheDir = mkdtempSync(join(tmpdir(), "mcp-find-tool-"));
  dirs.push(cacheDir);
  const warmup = manager(cacheDir);
  await warmup.connectServers(configs);
  await warmup.disconnectAll();
  const m = manager(cacheDir);
  const cached = await m.addServers(later);
  const states = () => Object.fromEntries(m.getStatuses().map((s) => [s.name, s.state]));
  return { m, cached, states };
}

describe("findToolByName", () => {
  const servers = { a: withTools("alpha,echo"), b: withTools("beta,echo"), c: withTools("gamma") };

  it("starts only the server whose cached list has the name; the match is its live tool", async () => {
    const { m, cached, states } = await warm(servers);
    const { matches, asked } = await findToolByName(m, "beta", { cached });
    expect(matches.map((t) => [t.name, t.deferred])).toEqual([["mcp__b__beta", false]]);
    expect(asked).toEqual([]);
    expect(states()).toEqual({ a: "idle", b: "connected", c: "idle" });
    // server.tool and the model-facing name find it the same way.
    expect((await findToolByName(m, "b.beta", { cached })).matches.map((t) => t.name)).toEqual(["mcp__b__beta"]);
    expect((await findToolByName(m, "mcp__b__beta", { cached })).matches.map((t) => t.name)).toEqual(["mcp__b__beta"]);
    expect(states()).toEqual({ a: "idle", b: "connected", c: "idle" });
  });

  it("a name several servers offer: both start, both match (the caller says it is ambiguous)", async () => {
    const { m, cached, states } = await warm(servers);
    const { matches } = await findToolByName(m, "echo", { cached });
    expect(matches.map((t) => t.name).sort()).toEqual(["mcp__a__echo", "mcp__b__echo"]);
    expect(states()).toEqual({ a: "connected", b: "connected", c: "idle" });
  });

  it("a name no cached list has starts the servers given, not others; none matching gives the tools asked", async () => {
    const { m, cached, states } = await warm(servers);
    const { matches, asked } = await findToolByName(m, "nothing", { cached, servers: ["a", "c"] });
    expect(matches).toEqual([]);
    expect(asked.map((t) => t.name).sort()).toEqual(["mcp__a__alpha", "mcp__a__echo", "mcp__c__gamma"]);
    expect(states()).toEqual({ a: "connected", b: "idle", c: "connected" });
  });

  it("a stale cache: the owner it names no longer has the tool, so the rest start and the one that has it now matches", async () => {
    const { m, cached, states } = await warm(servers, {
      a: withTools("alpha,echo"),
      b: withTools("echo"),
      c: withTools("gamma,beta"),
    });
    expect(cached.filter((t) => t.toolName === "beta").map((t) => t.serverName)).toEqual(["b"]);
    const { matches, asked } = await findToolByName(m, "beta", { cached });
    expect(matches.map((t) => [t.name, t.deferred])).toEqual([["mcp__c__beta", false]]);
    expect(asked).toEqual([]);
    expect(states()).toEqual({ a: "connected", b: "connected", c: "connected" });
  });

  it("an aborted signal ends the wait with its reason", async () => {
    const { m, cached } = await warm(servers);
    const reason = new Error("stopped");
    const error = await findToolByName(m, "alpha", { cached, signal: AbortSignal.abort(reason) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(reason);
  });
});
