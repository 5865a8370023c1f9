#!/usr/bin/env node
// Benchmark (not a test): cold start of 10 stdio servers that each take 1 s to answer, and the time
// to first tools from a warm cache. Targets: ≤ 1.5 s and ≤ 300 ms. Run after `pnpm build`:
//   node packages/manager/bench/manager-bench.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "mcp-test-utils";
import { MCPManager } from "../dist/index.js";

const fixture = fileURLToPath(new URL("../test/fixtures/server.mjs", import.meta.url));
const configs = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`slow${i}`, { command: process.execPath, args: [fixture, "--delay", "1000"], timeout: 30_000 }]));
const rounds = Number(process.env.ROUNDS ?? 3);
const cold = [];
const warm = [];
for (let round = 0; round < rounds; round++) {
  const cacheDir = mkdtempSync(join(tmpdir(), "mcp-bench-"));
  try {
    const first = new MCPManager({ cacheDir });
    let started = performance.now();
    const result = await first.connectServers(configs);
    cold.push(performance.now() - started);
    if (result.tools.length !== 10) throw new Error(`expected 10 tools, got ${result.tools.length}`);
    await first.disconnectAll();

    const second = new MCPManager({ cacheDir });
    started = performance.now();
    const again = await second.connectServers(configs);
    warm.push(performance.now() - started);
    if (again.tools.length !== 10 || !again.tools.every((t) => t.deferred)) throw new Error("expected 10 deferred tools from the cache");
    await second.disconnectAll();
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
const row = (label, values, target) => console.log(`${label.padEnd(48)} ${median(values).toFixed(0).padStart(6)} ms   target ≤ ${target} ms   (${values.map((v) => v.toFixed(0)).join(", ")})`);
console.log(`@mcp/manager (Node ${process.version}; ${rounds} rounds, median)`);
row("cold start: 10 stdio servers × 1 s initialize", cold, 1500);
row("first tools from a warm cache (startup gate 250)", warm, 300);
