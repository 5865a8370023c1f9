#!/usr/bin/env node
// One implementation running one scenario, in a process of its own so its peak RSS is its own.
//   node worker.mjs <impl> <scenario> <options as JSON>
// Prints one JSON line: { samples: number[], rssMb, cpuUsPerCall? } (samples are per-second rates,
// or ms for the manager scenarios; cpuUsPerCall is this process's CPU time per call of each measured
// rep, for the throughput scenarios), or { skipped: "why" } when the scenario does not apply.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { IMPLS } from "./impls.mjs";
import { serverBound } from "./server-bound.mjs";

export const stdioEcho = fileURLToPath(new URL("./servers/stdio-echo.mjs", import.meta.url));

function expectText(result, length) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== "string" || (length !== undefined && text.length !== length))
    throw new Error(`unexpected result: ${JSON.stringify(result).slice(0, 200)}`);
}

async function timeIt(body) {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

/**
 * The client's own CPU time (user + system, µs) per call of each measured rep: what a call costs
 * this process whatever else the machine runs (wall-clock rates swing with the neighbours).
 */
const cpuPerCall = [];

/** Runs `body` `reps` times after `warm` unmeasured runs; returns `count / seconds` of each rep. */
async function rates(count, reps, warm, body) {
  for (let i = 0; i < warm; i++) await body();
  const out = [];
  for (let i = 0; i < reps; i++) {
    const cpu = process.cpuUsage();
    out.push((count * 1000) / (await timeIt(body)));
    const used = process.cpuUsage(cpu);
    cpuPerCall.push((used.user + used.system) / count);
  }
  return out;
}

const sequential = (client, n) => async () => {
  for (let i = 0; i < n; i++) expectText(await client.call("echo", { text: `hello ${i}` }));
};
const pipelined = (client, n) => async () => {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => client.call("echo", { text: `hello ${i}` })));
  for (const r of results) expectText(r);
};
/** `body` `times` times in a row, as one measured repetition. */
const repeated = (body, times) => async () => {
  for (let i = 0; i < times; i++) await body();
};
const big = (client, n, bytes) => async () => {
  for (let i = 0; i < n; i++) expectText(await client.call("big", { bytes }), bytes);
};

async function throughput(impl, scenario, o) {
  const target = scenario.startsWith("stdio")
    ? { kind: "stdio", command: process.execPath, args: [stdioEcho] }
    : { kind: "http", url: `${o.baseUrl}/${scenario.startsWith("http-sse") ? "sse" : "json"}` };
  const client = await IMPLS[impl].open(target);
  try {
    // Every implementation is warmed the same way, so none is measured with a cold JIT.
    await sequential(client, o.warmCalls)();
    await pipelined(client, o.warmCalls)();
    const kind = scenario.split("-").pop();
    // Whole unmeasured reps first: a fresh process needs a few before V8 has compiled the hot path.
    const warm = o.warmReps ?? 1;
    if (kind === "seq") return await rates(o.seq, o.reps, warm, sequential(client, o.seq));
    if (kind === "pipe") {
      // A burst takes well under 100 ms: one measured repetition is `pipeBursts` bursts in a row, so
      // a GC pause or a scheduler hiccup is averaged in rather than deciding a sample. The warm-up
      // repetitions are single bursts (their purpose is the JIT).
      const burst = pipelined(client, o.pipe);
      for (let i = 0; i < warm; i++) await burst();
      const times = o.pipeBursts ?? 1;
      return await rates(o.pipe * times, o.reps, 0, repeated(burst, times));
    }
    return await rates(o.bigCount, o.bigReps, 1, big(client, o.bigCount, o.bigBytes));
  } finally {
    await client.close();
  }
}

function managerConfigs(o) {
  return Object.fromEntries(
    Array.from({ length: o.servers }, (_, i) => [
      `slow${i}`,
      { command: process.execPath, args: [stdioEcho, "--init-delay", String(o.initDelayMs)], timeout: 60_000 },
    ]),
  );
}

async function oursManager(o, warm) {
  const { MCPManager } = await import("@mcp/manager");
  const configs = managerConfigs(o);
  const out = [];
  for (let rep = 0; rep < o.managerReps; rep++) {
    const cacheDir = mkdtempSync(join(tmpdir(), "mcp-bench-"));
    try {
      if (warm) {
        const primer = new MCPManager({ cacheDir });
        await primer.connectServers(configs);
        await primer.disconnectAll();
      }
      const manager = new MCPManager({ cacheDir });
      const started = performance.now();
      const { tools } = await manager.connectServers(configs);
      out.push(performance.now() - started);
      await manager.disconnectAll();
      if (tools.length !== o.servers * 2) throw new Error(`expected ${o.servers * 2} tools, got ${tools.length}`);
      if (warm && !tools.every((t) => t.deferred)) throw new Error("expected deferred tools from the warm cache");
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
  return out;
}

/** The SDKs have no manager: connect each server and list its tools, one after another, as popular wrappers do. */
async function sequentialManager(impl, o) {
  const out = [];
  for (let rep = 0; rep < o.managerReps; rep++) {
    const clients = [];
    const started = performance.now();
    for (const config of Object.values(managerConfigs(o)))
      clients.push(await IMPLS[impl].open({ kind: "stdio", ...config }));
    out.push(performance.now() - started);
    await Promise.all(clients.map((c) => c.close()));
  }
  return out;
}

/** The limit: spawn every server at once, initialize and list tools in parallel. */
async function rawManager(o) {
  const out = [];
  for (let rep = 0; rep < o.managerReps; rep++) {
    const started = performance.now();
    const clients = await Promise.all(
      Object.values(managerConfigs(o)).map(async (config) => {
        const client = await IMPLS.raw.open({ kind: "stdio", ...config });
        const { tools } = await client.request("tools/list", {});
        if (tools.length !== 2) throw new Error("expected 2 tools");
        return client;
      }),
    );
    out.push(performance.now() - started);
    await Promise.all(clients.map((c) => c.close()));
  }
  return out;
}

async function manager(impl, scenario, o) {
  const warm = scenario === "manager-warm";
  if (impl === "ours") return oursManager(o, warm);
  if (warm) return { skipped: "no tool cache" };
  return impl === "raw" ? rawManager(o) : sequentialManager(impl, o);
}

export async function runScenario(impl, scenario, options) {
  if (IMPLS[impl].httpOnly && !scenario.startsWith("http")) return { skipped: "HTTP only" };
  if (IMPLS[impl].serverBound) {
    if (!/-(seq|pipe)$/.test(scenario)) return { skipped: "call rows only" };
    const samples = await serverBound(scenario, options, { command: process.execPath, args: [stdioEcho] });
    return { samples, rssMb: process.resourceUsage().maxRSS / 1024 };
  }
  const samples = scenario.startsWith("manager")
    ? await manager(impl, scenario, options)
    : await throughput(impl, scenario, options);
  if (!Array.isArray(samples)) return samples;
  return {
    samples,
    rssMb: process.resourceUsage().maxRSS / 1024,
    ...(cpuPerCall.length > 0 ? { cpuUsPerCall: cpuPerCall } : {}),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [impl, scenario, options] = process.argv.slice(2);
  const result = await runScenario(impl, scenario, JSON.parse(options));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
