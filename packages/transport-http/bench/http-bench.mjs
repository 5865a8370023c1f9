#!/usr/bin/env node
// Benchmark: @mcp/transport-http beside the official SDK's StreamableHTTPClientTransport, against
// the same server process, in the same run. Run after `pnpm build`:
//   node packages/transport-http/bench/http-bench.mjs
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { rate, sdkRequester } from "mcp-test-utils";

const SEQUENTIAL = 500;
const PIPELINED = 1000;
const BIG_COUNT = 10;
const BIG_BYTES = 5 * 1024 * 1024;

async function openOurs(url) {
  const { createHttpTransport } = await import("../dist/index.js");
  const t = await createHttpTransport({ type: "http", url, fallbackToSse: false, timeout: 120_000 });
  return { request: (method, params) => t.request(method, params), close: () => t.close() };
}

async function openSdk(url) {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const t = new StreamableHTTPClientTransport(new URL(url));
  return sdkRequester(t);
}

async function measure(impl, base) {
  const open = impl === "ours" ? openOurs : openSdk;
  const out = {};
  for (const kind of ["json", "sse"]) {
    const client = await open(`${base}/${kind}`);
    for (let i = 0; i < 200; i++) await client.request("echo", { warm: i });
    await Promise.all(Array.from({ length: 500 }, (_, i) => client.request("echo", { warm: i })));
    out[`${kind}Sequential`] = await rate(SEQUENTIAL, 5, async () => {
      for (let i = 0; i < SEQUENTIAL; i++) await client.request("echo", { i });
    });
    out[`${kind}Pipelined`] = await rate(PIPELINED, 5, () => Promise.all(Array.from({ length: PIPELINED }, (_, i) => client.request("echo", { i }))));
    if (kind === "json") {
      out.big = await rate(BIG_COUNT, 1, async () => {
        for (let i = 0; i < BIG_COUNT; i++) {
          const r = await client.request("big", { bytes: BIG_BYTES });
          if (r.data.length !== BIG_BYTES) throw new Error("short response");
        }
      });
    }
    await client.close();
  }
  out.peakRssMb = process.resourceUsage().maxRSS / 1024;
  return out;
}

if (process.argv[2] === "--impl") {
  process.stdout.write(JSON.stringify(await measure(process.argv[3], process.argv[4])));
} else {
  const server = spawn(process.execPath, [fileURLToPath(new URL("./echo-server.mjs", import.meta.url))], { stdio: ["pipe", "pipe", "inherit"] });
  const [first] = await once(server.stdout, "data");
  const base = `http://127.0.0.1:${String(first).trim()}`;
  const script = fileURLToPath(import.meta.url);
  const rounds = Number(process.env.ROUNDS ?? 3);
  const best = {};
  for (let r = 0; r < rounds; r++) {
    for (const impl of ["ours", "sdk"]) {
      const run = spawnSync(process.execPath, [script, "--impl", impl, base], { encoding: "utf8", maxBuffer: 1 << 30 });
      if (run.status !== 0) throw new Error(`${impl} run failed: ${run.stderr.slice(0, 2000)}`);
      const m = JSON.parse(run.stdout);
      m.warnings = (run.stderr.match(/MaxListenersExceededWarning/g) ?? []).length;
      const b = best[impl];
      best[impl] = b ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, k === "peakRssMb" || k === "warnings" ? Math.min(v, b[k]) : Math.max(v, b[k])])) : m;
    }
  }
  server.stdin.end();
  const rows = [
    ["JSON sequential requests/s", "jsonSequential"],
    [`JSON ${PIPELINED} pipelined requests/s`, "jsonPipelined"],
    ["SSE sequential requests/s", "sseSequential"],
    [`SSE ${PIPELINED} pipelined requests/s`, "ssePipelined"],
    [`${BIG_COUNT} x 5 MB JSON responses/s`, "big"],
    ["peak RSS (MB, lower is better)", "peakRssMb"],
    ["MaxListenersExceeded warnings", "warnings"],
  ];
  console.log(`HTTP transport benchmark (Node ${process.version}; median of repeated runs per process, best process of ${rounds})`);
  console.log(`${"metric".padEnd(34)}${"@mcp/transport-http".padStart(21)}${"SDK StreamableHTTPClient".padStart(26)}${"ratio".padStart(8)}`);
  for (const [label, key] of rows) {
    const ours = best.ours[key];
    const sdk = best.sdk[key];
    const ratio = sdk === 0 ? "-" : (ours / sdk).toFixed(2);
    console.log(`${label.padEnd(34)}${ours.toFixed(1).padStart(21)}${sdk.toFixed(1).padStart(26)}${ratio.padStart(8)}`);
  }
}
