// A host that lists tools in a tight loop: the pool remembers each live list in the tool cache (start
// on first use), but what waits to be written is bounded: one write per server at a time and the
// newest list kept for the next, never one queued write (and its whole tool list in memory) per
// `tools/list` answered. Real server-everything; the cache is the manager's FileToolCache in a temp
// folder, wrapped only to count the writes under way.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileToolCache, type CachedTools, type ToolCache } from "@mcp/manager/config";
import { afterEach, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";
import { host } from "./helpers.js";

let dir: string | undefined;
let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const FLOOD = 2000;

describe("the tool cache under a tools/list flood", () => {
  it("keeps at most one write per server under way (the newest list written last), however many lists are answered", async () => {
    dir = mkdtempSync(join(tmpdir(), "pool-cache-flood-"));
    const file = new FileToolCache(dir);
    let underWay = 0;
    let peak = 0;
    let writes = 0;
    let lastKey = "";
    let settled: () => void = () => {};
    let idle = Promise.resolve();
    const cache: ToolCache = {
      get: (key) => file.get(key),
      delete: (key) => file.delete(key),
      set: (key: string, value: CachedTools) => {
        writes += 1;
        lastKey = key;
        underWay += 1;
        peak = Math.max(peak, underWay);
        if (underWay === 1) idle = new Promise<void>((resolve) => (settled = resolve));
        return file.set(key, value).finally(() => {
          underWay -= 1;
          if (underWay === 0) settled();
        });
      },
    };
    pool = new ServerPool({ approvals: () => ({ approved: true }), toolCache: cache });
    const h = host(pool);
    await h.initialize();
    // As a host that pipelines: every request written before any answer is read.
    const answers = await Promise.all(Array.from({ length: FLOOD }, () => h.request("tools/list")));
    expect(answers.every((a) => Array.isArray(a.result?.tools) && a.result.tools.length > 0)).toBe(true);
    await idle;
    expect(peak, `writes under way at once (of ${writes})`).toBeLessThanOrEqual(1);
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThan(FLOOD);
    // What is remembered is a live list, as a host was answered.
    const kept = (await file.get(lastKey))!;
    expect(kept.tools.map((t) => t.name)).toEqual(answers[0]!.result.tools.map((t: { name: string }) => t.name));
  }, 120_000);
});
