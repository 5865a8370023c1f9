#!/usr/bin/env node
// Benchmark: @mcp/transport-stdio beside the official SDK's StdioClientTransport, same child, same run.
// Each implementation runs in its own process so peak RSS is its own. Run after `pnpm build`:
//   node packages/transport-stdio/bench/stdio-bench.mjs
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { rate, sdkRequester } from "mcp-test-utils";

const server = fileURLToPath(new URL("./echo-child.mjs", import.meta.url));
const SEQUENTIAL = 1000;
const PIPELINED = 5000;
const BIG_COUNT = 20;
const BIG_BYTES = 5 * 1024 * 1024;

async function openOurs() {
  const { createStdioTransport } = await import("../dist/index.js");
  const t = await createStdioTransport({ command: process.execPath, args: [server] });
  return { request: (method, params) => t.request(method, params, { timeout: 120_000 }), close: () => t.close() };
}

async function openSdk() {
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const t = new StdioClientTransport({ command: process.execPath, args: [server], stderr: "pipe" });
  return sdkRequester(t);
}

async function measure(impl) {
  const client = impl === "ours" ? await openOurs() : await openSdk();
  // Warm both the same way, so neither is measured while its JIT is still cold.
  for (let i = 0; i < 500; i++) await client.request("echo", { warm: i });
  await Promise.all(Array.from({ length: 2000 }, (_, i) => client.request("echo", { warm: i })));
  const sequential = await rate(SEQUENTIAL, 5, async () => {
    for (let i = 0; i < SEQUENTIAL; i++) await client.request("echo", { i });
  });
  const pipelined = await rate(PIPELINED, 9, () => Promise.all(Array.from({ length: PIPELINED }, (_, i) => client.request("echo", { i }))));
  const big = await rate(BIG_COUNT, 1, async () => {
    for (let i = 0; i < BIG_COUNT; i++) {
      const r = await client.request("big", { bytes: BIG_BYTES });
      if (r.data.length !== BIG_BYTES) throw new Error("short response");
    }
  });
  await client.close();
  return { sequential, pipelined, big, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

if (process.argv[2] === "--impl") {
  const result = await measure(process.argv[3]);
  process.stdout.write(JSON.stringify(result));
} else {
  const script = fileURLToPath(import.meta.url);
  const run = (impl) => JSON.parse(execFileSync(process.execPath, [script, "--impl", impl], { encoding: "utf8" }));
  const rounds = Number(process.env.ROUNDS ?? 3);
  const best = { ours: null, sdk: null };
  for (let r = 0; r < rounds; r++) {
    for (const impl of ["ours", "sdk"]) {
      const m = run(impl);
      const b = best[impl];
      best[impl] = b
        ? { sequential: Math.max(b.sequential, m.sequential), pipelined: Math.max(b.pipelined, m.pipelined), big: Math.max(b.big, m.big), peakRssMb: Math.min(b.peakRssMb, m.peakRssMb) }
        : m;
    }
  }
  const rows = [
    ["sequential round trips/s", "sequential"],
    [`${PIPELINED} pipelined requests/s`, "pipelined"],
    [`${BIG_COUNT} x 5 MB responses/s`, "big"],
    ["peak RSS (MB, lower is better)", "peakRssMb"],
  ];
  console.log(`stdio transport benchmark (Node ${process.version}, median of repeated runs per process, best process of ${rounds})`);
  console.log(`${"metric".padEnd(34)}${"@mcp/transport-stdio".padStart(22)}${"SDK StdioClientTransport".padStart(26)}${"ratio".padStart(8)}`);
  for (const [label, key] of rows) {
    const ours = best.ours[key];
    const sdk = best.sdk[key];
    console.log(`${label.padEnd(34)}${ours.toFixed(1).padStart(22)}${sdk.toFixed(1).padStart(26)}${(ours / sdk).toFixed(2).padStart(8)}`);
  }
}
