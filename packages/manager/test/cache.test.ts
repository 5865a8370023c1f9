// The file tool cache: one file per entry, bounded. Real files in a temporary folder.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileToolCache, type CachedTools } from "../src/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-cache-"));
  dirs.push(dir);
  return dir;
}
/** A list of about `kb` KB, live for `ttlMs`. */
function list(kb: number, ttlMs = 60_000): CachedTools {
  const now = Date.now();
  return {
    tools: [{ name: "big", description: "x".repeat(kb * 1024), inputSchema: { type: "object" } }],
    savedAt: now,
    expiresAt: now + ttlMs,
  };
}
const folderBytes = (cache: FileToolCache): number =>
  readdirSync(cache.folder).reduce((sum, name) => sum + statSync(join(cache.folder, name)).size, 0);

describe("FileToolCache", () => {
  it("keeps one file per entry and stays within maxBytes, dropping the least recently written", async () => {
    const cache = new FileToolCache(tempDir(), { maxBytes: 100 * 1024 });
    for (let i = 0; i < 30; i++) await cache.set(`srv${i}:key`, list(10));
    expect(folderBytes(cache)).toBeLessThanOrEqual(100 * 1024);
    expect(await cache.get("srv29:key")).toBeDefined();
    expect(await cache.get("srv0:key")).toBeUndefined();
    expect(readdirSync(cache.folder).length).toBeGreaterThanOrEqual(8);
  });

  it("stays within maxEntries; expired entries go before live ones", async () => {
    const cache = new FileToolCache(tempDir(), { maxEntries: 3 });
    await cache.set("live-old:k", list(1));
    await cache.set("expired:k", list(1, -1));
    await cache.set("live:k", list(1));
    await cache.set("newest:k", list(1));
    expect(readdirSync(cache.folder)).toHaveLength(3);
    expect(existsSync(cache.fileFor("expired:k"))).toBe(false);
    expect(await cache.get("live-old:k")).toBeDefined();
  });

  it("a corrupt entry reads as none and does not touch the others; delete removes one entry", async () => {
    const cache = new FileToolCache(tempDir());
    await cache.set("a:k", list(1));
    await cache.set("b:k", list(1));
    writeFileSync(cache.fileFor("a:k"), "{ not json");
    expect(await cache.get("a:k")).toBeUndefined();
    expect((await cache.get("b:k"))?.tools[0]?.name).toBe("big");
    await cache.delete("b:k");
    expect(await cache.get("b:k")).toBeUndefined();
    await cache.set("a:k", list(1));
    expect(await cache.get("a:k")).toBeDefined();
  });

  it("the one-file cache of earlier versions (tools.json) is removed at the first write", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ version: 1, entries: {} }));
    await new FileToolCache(dir).set("a:k", list(1));
    expect(existsSync(join(dir, "tools.json"))).toBe(false);
  });
});
