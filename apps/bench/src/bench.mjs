#!/usr/bin/env node
// pnpm bench: every scenario for every implementation in one run, alternating, after a warm-up round.
//   pnpm bench                 full run, prints the table
//   pnpm bench -- --write      … and regenerates docs/benchmarks.md and docs/benchmarks.svg
//   pnpm bench -- --smoke      every scenario at tiny sizes (what the test command runs)
//   options: --rounds N, --only id,id (scenario ids), --json (print the results as JSON)
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { sectionOf, withSection } from "./cli-latency.mjs";
import { fileURLToPath } from "node:url";
import { footprint } from "./footprint.mjs";
import { IMPLS } from "./impls.mjs";
import { machine, renderConsole, renderMarkdown, renderSvg } from "./report.mjs";
import { FEATURE_OFF, IMPL_ORDER, MANAGER, median, SIZES, THROUGHPUT, workerOptions } from "./scenarios.mjs";

const worker = fileURLToPath(new URL("./worker.mjs", import.meta.url));
const httpEcho = fileURLToPath(new URL("./servers/http-echo.mjs", import.meta.url));

function parseArgs(argv) {
  const args = { smoke: false, write: false, json: false, rounds: undefined, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") continue;
    else if (a === "--smoke") args.smoke = true;
    else if (a === "--write") args.write = true;
    else if (a === "--json") args.json = true;
    else if (a === "--rounds") args.rounds = Number(argv[++i]);
    else if (a === "--only") args.only = argv[++i].split(",");
    else throw new Error(`unknown option ${a} (see the top of ${fileURLToPath(import.meta.url)})`);
  }
  if (args.rounds !== undefined && !(Number.isInteger(args.rounds) && args.rounds > 0))
    throw new Error("--rounds takes a positive integer");
  if (args.write && (args.smoke || args.only)) throw new Error("--write needs a full run (no --smoke, no --only)");
  return args;
}

function runWorker(impl, scenario, options) {
  const run = spawnSync(process.execPath, [worker, impl, scenario, JSON.stringify(options)], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
    timeout: 15 * 60_000,
  });
  if (run.status !== 0)
    throw new Error(
      `${impl} ${scenario} failed (exit ${run.status ?? run.signal}):\n${(run.stderr || run.stdout).slice(-3000)}`,
    );
  return JSON.parse(run.stdout.trim().split("\n").pop());
}

async function startHttpEcho() {
  const child = spawn(process.execPath, [httpEcho], { stdio: ["pipe", "pipe", "inherit"] });
  const [first] = await once(child.stdout, "data");
  return { baseUrl: `http://127.0.0.1:${String(first).trim()}`, stop: () => child.stdin.end() };
}

const args = parseArgs(process.argv.slice(2));
const sizes = { ...(args.smoke ? SIZES.smoke : SIZES.full) };
if (args.rounds !== undefined) sizes.rounds = args.rounds;
const scenarios = [...THROUGHPUT, ...MANAGER].map((s) => s.id).filter((id) => !args.only || args.only.includes(id));
const log = (line) => process.stderr.write(`${line}\n`);

const server = await startHttpEcho();
/** results[scenario][impl] = { values: [per-round medians], rss: [per-round peak RSS] } or { skipped } */
const results = Object.fromEntries(
  scenarios.map((id) => [id, Object.fromEntries(IMPL_ORDER.map((impl) => [impl, { values: [], rss: [] }]))]),
);
const featureOff = FEATURE_OFF.filter((row) => scenarios.includes(row.scenario));
/** variants[id] = { ours: [per-round medians], off: [...] }, each round's pair measured back to back. */
const variants = Object.fromEntries(featureOff.map((row) => [row.id, { ours: [], off: [] }]));
const started = performance.now();
try {
  const total = sizes.warmupRounds + sizes.rounds;
  for (let round = 0; round < total; round++) {
    const warmup = round < sizes.warmupRounds;
    log(`round ${round + 1}/${total}${warmup ? " (warm-up, not counted)" : ""}`);
    for (const scenario of scenarios) {
      // Alternate: each round starts with a different implementation.
      const order = IMPL_ORDER.map((_, i) => IMPL_ORDER[(i + round) % IMPL_ORDER.length]);
      for (const impl of order) {
        const out = runWorker(impl, scenario, workerOptions(sizes, scenario, server.baseUrl));
        const slot = results[scenario][impl];
        if (out.skipped) slot.skipped = out.skipped;
        else if (!warmup) {
          slot.values.push(median(out.samples));
          slot.rss.push(out.rssMb);
        }
        log(
          `  ${scenario.padEnd(16)} ${IMPLS[impl].label.padEnd(12)} ${out.skipped ? `skipped: ${out.skipped}` : median(out.samples).toFixed(1)}`,
        );
      }
      // Features nobody turned on: ours and the variant without the feature's package, back to back
      // (the variant first in every other round).
      for (const row of featureOff.filter((r) => r.scenario === scenario)) {
        const pair = round % 2 ? [row.impl, "ours"] : ["ours", row.impl];
        for (const impl of pair) {
          const out = runWorker(impl, scenario, workerOptions(sizes, scenario, server.baseUrl));
          if (!warmup) variants[row.id][impl === "ours" ? "ours" : "off"].push(median(out.samples));
          log(`  ${row.id.padEnd(16)} ${IMPLS[impl].label.padEnd(12)} ${median(out.samples).toFixed(1)}`);
        }
      }
    }
  }
} finally {
  server.stop();
}

const table = { throughput: {}, rss: {}, manager: {}, footprint: {}, featureOff: {} };
for (const row of featureOff) {
  const { ours, off } = variants[row.id];
  const ratios = ours.map((x, i) => x / off[i]);
  table.featureOff[row.id] = {
    ours: median(ours),
    off: median(off),
    ratio: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
  };
}
for (const id of scenarios) {
  const group = id.startsWith("manager") ? "manager" : "throughput";
  table[group][id] = {};
  if (group === "throughput") table.rss[id] = {};
  for (const impl of IMPL_ORDER) {
    const slot = results[id][impl];
    table[group][id][impl] = slot.skipped ? null : median(slot.values);
    if (group === "throughput") table.rss[id][impl] = slot.skipped ? null : median(slot.rss);
  }
}
if (!args.only) {
  for (const impl of ["ours", "sdk1", "sdk2"]) table.footprint[impl] = await footprint(impl);
}
const report = { machine: machine(), sizes, table, seconds: (performance.now() - started) / 1000, smoke: args.smoke };

if (args.json) process.stdout.write(`${JSON.stringify(report)}\n`);
else process.stdout.write(renderConsole(report));
if (args.write) {
  // The sections their own scripts write (CLI and daemon latency, gateway throughput, agent hosts): a full run keeps them.
  const page = new URL("../../../docs/benchmarks.md", import.meta.url);
  const old = existsSync(page) ? readFileSync(page, "utf8") : "";
  let next = renderMarkdown(report);
  for (const name of ["cli-latency", "daemon-latency", "gateway-throughput", "gateway-peers", "agent-host"]) {
    const kept = sectionOf(old, name);
    if (kept) next = withSection(next, kept);
  }
  writeFileSync(page, next);
  writeFileSync(new URL("../../../docs/benchmarks.svg", import.meta.url), renderSvg(report));
  log("wrote docs/benchmarks.md and docs/benchmarks.svg");
}
