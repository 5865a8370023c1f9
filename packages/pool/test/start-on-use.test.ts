// Start on first use: a host's initialize and tools/list answered from the manager's tool cache
// (an entry this pool wrote from a live list), the server started by the first call that needs it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileToolCache } from "@mcp/manager";
import { v2StdioEntry } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";
import { openingKey } from "../src/tool-cache.js";
import { alive, host, nextEvent } from "./helpers.js";

let dir: string;
let cache: FileToolCache;
const pools: ServerPool[] = [];
let spawned: number[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pool-cache-"));
  cache = new FileToolCache(dir);
  spawned = [];
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});

function newPool(options: ConstructorParameters<typeof ServerPool>[0] = {}): ServerPool {
  const p = new ServerPool({ approvals: () => ({ approved: true }), toolCache: cache, idleMs: 50, ...options });
  p.on("spawned", ({ pid }: { pid: number }) => spawned.push(pid));
  pools.push(p);
  return p;
}

/** The official SDK v2's server over stdio: a fixed tool list (it sends no list_changed of its own). */
const v2 = { command: process.execPath, args: [v2StdioEntry, "serve"] };
const v2Host = (p: ServerPool) => host(p, undefined, "v2", v2);

/** One host's initialize and tools/list, then it leaves and the pool reaps the server: the cache holds the live list. */
async function listOnce(p: ServerPool): Promise<{ init: any; tools: any[] }> {
  const h = v2Host(p);
  const init = (await h.initialize()).result;
  const tools = (await h.request("tools/list")).result.tools;
  const reaped = nextEvent(p, "reaped");
  h.session.close();
  await reaped;
  return { init, tools };
}

describe("start on first use (the tool cache)", () => {
  it("answers initialize and tools/list from the live list it remembered, with no process, and starts the server on tools/call", async () => {
    const p = newPool();
    const first = await listOnce(p);
    const key = await cachedKey();
    const before = (await cache.get(key))!.savedAt;
    expect(spawned).toHaveLength(1);
    expect(alive(spawned[0]!)).toBe(false);

    // A new host: the same answers, and no process started for them.
    const h = v2Host(p);
    expect((await h.initialize()).result).toEqual(first.init);
    expect((await h.request("tools/list")).result.tools).toEqual(first.tools);
    expect(h.notifications).toEqual([]);
    expect(spawned).toHaveLength(1);
    const [status] = p.statuses();
    expect(status).toMatchObject({ state: "cached", pid: undefined, hosts: [expect.anything()] });

    // The first call that needs the server starts it.
    const sum = await h.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } });
    expect(sum.result.content[0].text).toBe("5");
    expect(spawned).toHaveLength(2);
    expect(alive(spawned[1]!)).toBe(true);
    expect(p.statuses()[0]).toMatchObject({ state: "ready", pid: spawned[1] });
    // The live list was the cached one (confirmed: written again): the host is told nothing.
    await expect.poll(async () => (await cache.get(key))!.savedAt).toBeGreaterThan(before);
    expect(key).toBe(openingKey(`${p.statuses()[0]!.fingerprint}/2025/2025-06-18`));
    expect(h.notifications.filter((n) => n.method === "notifications/tools/list_changed")).toEqual([]);
  });

  it("tells a host answered from a list that is no longer the server's (tools/list_changed) once the server is up", async () => {
    const p = newPool();
    await listOnce(p);
    // The remembered list lost a tool (the server was updated since it was listed).
    const key = await cachedKey();
    const entry = (await cache.get(key))!;
    await cache.set(key, { ...entry, tools: entry.tools.slice(1) });
    const h = v2Host(p);
    await h.initialize();
    expect((await h.request("tools/list")).result.tools).toHaveLength(entry.tools.length - 1);
    await h.request("tools/call", { name: "add", arguments: { a: 1, b: 1 } });
    await expect
      .poll(() => h.notifications.filter((n) => n.method === "notifications/tools/list_changed"))
      .toHaveLength(1);
    // And the cache holds the live list again.
    await expect.poll(async () => (await cache.get(key))?.tools.length).toBe(entry.tools.length);
  });

  it("starts the server at initialize when the entry was not written from a live list, or there is no cache", async () => {
    const p = newPool();
    await listOnce(p);
    const key = await cachedKey();
    const entry = (await cache.get(key))!;
    // Someone else's entry under the pool's key (not confirmed live): not used.
    const { confirmedLive: _c, ...unconfirmed } = entry as typeof entry & { confirmedLive?: true };
    await cache.set(key, unconfirmed);
    const h = v2Host(p);
    await h.initialize();
    expect(spawned).toHaveLength(2);
    h.session.close();
    // No cache: as before, the server starts at initialize.
    const plain = newPool({ toolCache: undefined });
    await v2Host(plain).initialize();
    expect(spawned).toHaveLength(3);
  });
});

/** The keys the file cache holds (read from its files: the pool writes one entry per server). */
/**
 * The key of the one entry the pool wrote, once its write has landed: the pool writes the cache
 * without holding up the host's answer (rememberOpening() in tool-cache.ts), so on a loaded machine the
 * file may come after the host has left.
 */
async function cachedKey(): Promise<string> {
  await expect.poll(async () => (await keysOf(cache).catch(() => [])).length).toBe(1);
  const [key] = await keysOf(cache);
  await expect.poll(async () => (await cache.get(key!))?.savedAt).toBeDefined();
  return key!;
}

async function keysOf(c: FileToolCache): Promise<string[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const keys: string[] = [];
  for (const name of await readdir(c.folder))
    if (name.endsWith(".json"))
      keys.push((JSON.parse(await readFile(join(c.folder, name), "utf8")) as { key: string }).key);
  return keys;
}
