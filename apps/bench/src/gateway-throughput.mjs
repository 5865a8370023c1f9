#!/usr/bin/env node
// Gateway throughput: tool calls per second through `mcp serve --http` (one replica, and two
// sharing a redis-server) beside the same calls made to the upstream server directly. The upstream
// is the bench's echo server over Streamable HTTP (the least a server can do, so what is measured
// is the gateway); the callers are this stack's client, `--concurrency` calls in flight.
//   pnpm bench:gateway               prints the table
//   pnpm bench:gateway -- --write    … and rewrites the "Gateway throughput" section of docs/benchmarks.md
//   options: --seconds N (per row, default 5), --concurrency N (default 32), --smoke (1 s rows, no peers)
// Then the peers (src/gateway-peers.mjs): ours beside mcp-proxy and supergateway on stdio upstreams,
// driven by the official SDK client; --peer-rounds N (default 3; 0 skips them), --peer-seq N (default
// 500 sequential calls a round), --peer-seconds N (default 3 s of concurrent calls a round), --peers-only
// (skip the rows above), --peer-gateways a,b (a subset: direct, ours, mcp-proxy, supergateway,
// ours-before), --peer-upstreams echo|everything, --ours-before DIR (another checkout, built: its
// `mcp serve --http` runs as "ours-before" in the same alternating rounds, an A/B of ours),
// --peer-capabilities roots,sampling,elicitation (the client declares them, as Claude Code, VS Code
// and Cursor declare roots: e.g. `--peers-only --peer-gateways ours,ours-before --peer-capabilities roots`).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { callTool, connectToServer } from "@mcp/client";
import { parseBenchArgs, printSection } from "./bench-args.mjs";
import { cli } from "./cli-paths.mjs";
import { measurePeers, renderPeers } from "./gateway-peers.mjs";

const echoServer = fileURLToPath(new URL("./servers/http-echo.mjs", import.meta.url));
export const TOKEN = "bench-gateway-token-0123456789";
const REDIS_KEY = randomBytes(32).toString("base64");

/** A child process that prints one line when ready; resolves with that line. */
export function start(command, args, env, ready) {
  const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (c) => (err += c));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${err}`)));
    child.stdout.on("data", (c) => {
      out += c;
      const line = out.split("\n").find((l) => ready.test(l));
      if (line) resolve({ child, line });
    });
  });
}

/** Calls per second with `concurrency` calls of `tool` in flight, spread over the URLs. */
async function throughput(urls, headers, args, tool) {
  const connections = await Promise.all(
    urls.map((url, i) => connectToServer(`target${i}`, { type: "http", url, headers })),
  );
  const deadline = performance.now() + args.seconds * 1000;
  let calls = 0;
  // Warm-up: a second of calls, not counted.
  const warm = performance.now() + 1000;
  const worker = async (connection) => {
    while (performance.now() < warm) await callTool(connection, "echo", tool.args);
  };
  await Promise.all(Array.from({ length: args.concurrency }, (_, i) => worker(connections[i % connections.length])));
  const started = performance.now();
  const loop = async (connection) => {
    while (performance.now() < deadline + 1000) {
      const result = await callTool(connection, "echo", tool.args);
      if (result.content[0]?.text !== tool.answer) throw new Error(`wrong answer: ${JSON.stringify(result)}`);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: args.concurrency }, (_, i) => loop(connections[i % connections.length])));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(connections.map((c) => c.transport.close()));
  return calls / seconds;
}

/** The median time of one call with one caller, calls one after another (`count` of them after 100 of warm-up), in ms. */
async function latency(url, headers, tool, count = 1000) {
  const connection = await connectToServer("target", { type: "http", url, headers });
  try {
    for (let i = 0; i < 100; i++) await callTool(connection, "echo", tool.args);
    const times = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      const result = await callTool(connection, "echo", tool.args);
      times.push(performance.now() - t);
      if (result.content[0]?.text !== tool.answer) throw new Error(`wrong answer: ${JSON.stringify(result)}`);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  } finally {
    await connection.transport.close();
  }
}

/** The upstream servers: the bench's echo server (the least a server does) and server-everything (a real one, on the official SDK). */
const UPSTREAMS = [
  { id: "echo", label: "the bench's echo server", tool: { args: { text: "hi" }, answer: "hi" } },
  {
    id: "everything",
    label: "server-everything (Streamable HTTP, official SDK 1.x)",
    tool: { args: { message: "hi" }, answer: "Echo: hi" },
  },
];

export async function measure(args) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gateway-bench-"));
  const children = [];
  const stops = [];
  try {
    const { startEverything, startRedis } = await import("mcp-test-utils");
    const redis = await startRedis();
    stops.push(() => redis.stop());
    const rows = [];
    for (const kind of UPSTREAMS) {
      let upstream;
      if (kind.id === "echo") {
        const echo = await start(process.execPath, [echoServer], process.env, /^\d+$/);
        children.push(echo.child);
        upstream = `http://127.0.0.1:${echo.line.trim()}/json`;
      } else {
        const everything = await startEverything("streamableHttp");
        stops.push(() => everything.stop());
        upstream = everything.url;
      }
      const config = join(dir, `${kind.id}.json`);
      writeFileSync(config, JSON.stringify({ servers: { up: { type: "http", url: upstream } } }));
      // The replicas' key for the upstream OAuth tokens they would keep in Redis (none here; the key is required).
      const env = {
        ...process.env,
        HOME: dir,
        XDG_CONFIG_HOME: join(dir, ".config"),
        XDG_CACHE_HOME: join(dir, ".cache"),
        MCP_SERVE_TOKEN: TOKEN,
        MCP_REDIS_KEY: REDIS_KEY,
        NO_COLOR: "1",
      };
      const running = [];
      const replica = async (extra = []) => {
        const started = await start(
          process.execPath,
          [cli, "--json", "--config", config, "serve", "--http", ...extra],
          env,
          /^\{/,
        );
        running.push(started.child);
        return `${JSON.parse(started.line).url}/up`;
      };
      const headers = { authorization: `Bearer ${TOKEN}` };
      const direct = await throughput([upstream], {}, args, kind.tool);
      const directP50 = await latency(upstream, {}, kind.tool);
      const front = await replica();
      const one = await throughput([front], headers, args, kind.tool);
      const oneP50 = await latency(front, headers, kind.tool);
      for (const child of running.splice(0)) child.kill("SIGTERM");
      const two = await throughput(
        [await replica(["--redis", redis.url]), await replica(["--redis", redis.url])],
        headers,
        args,
        kind.tool,
      );
      for (const child of running.splice(0)) child.kill("SIGTERM");
      rows.push({ upstream: kind.label, direct, one, two, directP50, oneP50 });
    }
    return { rows, seconds: args.seconds, concurrency: args.concurrency, cores: cpus().length };
  } finally {
    for (const child of children) child.kill("SIGTERM");
    for (const stop of stops) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderSection(result) {
  const n = (x) => Math.round(x).toLocaleString("en-US");
  const cost = (x, direct) => `${Math.round((1 - x / direct) * 100)} %`;
  const ms = (x) => x.toFixed(2);
  const met = (ok) => (ok ? "met" : "MISSED");
  const [echo] = result.rows;
  const real = result.rows[1];
  return [
    "<!-- gateway-throughput:start (apps/bench/src/gateway-throughput.mjs --write) -->",
    "## Gateway throughput",
    "",
    `Tool calls per second through \`mcp serve --http\` (one replica; two sharing a redis-server, the calls spread over both) beside the same calls made to the upstream server directly, ${result.concurrency} calls in flight, ${result.seconds} s per cell after a second of warm-up. The callers are this stack's client at 2026-07-28 (stateless: any replica answers any request); each replica keeps one connection to the upstream server. Everything runs on loopback on one ${result.cores}-core machine: callers, replicas, Redis and the upstream server share its cores.`,
    "",
    "| upstream server | directly (calls/s) | 1 replica (calls/s) | cost | 2 replicas (calls/s) | cost |",
    "|---|---:|---:|---:|---:|---:|",
    ...result.rows.map(
      (r) =>
        `| ${r.upstream} | ${n(r.direct)} | ${n(r.one)} | ${cost(r.one, r.direct)} | ${n(r.two)} | ${cost(r.two, r.direct)} |`,
    ),
    "",
    "One caller, one call after another (1,000 calls after 100 of warm-up): the median time of a call.",
    "",
    "| upstream server | directly (ms) | through 1 replica (ms) | added (ms) |",
    "|---|---:|---:|---:|",
    ...result.rows.map(
      (r) => `| ${r.upstream} | ${ms(r.directP50)} | ${ms(r.oneP50)} | ${ms(r.oneP50 - r.directP50)} |`,
    ),
    "",
    `- Targets: through one replica at least 0.3x direct throughput on the echo server, which does almost nothing (${(echo.one / echo.direct).toFixed(2)}x: ${met(echo.one / echo.direct >= 0.3)}), and at least 0.7x on server-everything (${(real.one / real.direct).toFixed(2)}x: ${met(real.one / real.direct >= 0.7)}); at most 1 ms added to a call's median (${ms(echo.oneP50 - echo.directP50)} ms on the echo server: ${met(echo.oneP50 - echo.directP50 <= 1)}; ${ms(real.oneP50 - real.directP50)} ms on server-everything: ${met(real.oneP50 - real.directP50 <= 1)}).`,
    "- A plain 2026-07-28 `tools/call` (no progress, logs or questions asked for: what these callers send) takes the gateway's fast path, which answers byte for byte as the official SDK v2 server would without its per-request pipeline; anything else goes through that server. Each gateway call is still a whole HTTP exchange in and a whole client exchange upstream, so against the echo server the gateway process does about as much work per call as caller and upstream together. On two shared cores a second replica adds no cores, only a second process.",
    "",
    "Reproduce: `npx -y pnpm@10.34.9 bench:gateway` (`-- --write` rewrites this section).",
    "<!-- gateway-throughput:end -->",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --smoke skips the peers; --peers-only runs only them.
  const argv = process.argv.slice(2);
  const peersOnly = argv.includes("--peers-only");
  /** A string option's value, taken out of argv. */
  const take = (name) => {
    const at = argv.indexOf(name);
    if (at < 0) return undefined;
    const [, value] = argv.splice(at, 2);
    if (value === undefined) throw new Error(`${name} takes a value`);
    return value;
  };
  const gateways = take("--peer-gateways")?.split(",");
  const upstreams = take("--peer-upstreams")?.split(",");
  const before = take("--ours-before");
  const capabilities = take("--peer-capabilities")?.split(",");
  const args = parseBenchArgs(
    argv.filter((a) => a !== "--peers-only"),
    { seconds: 5, concurrency: 32, "peer-rounds": 3, "peer-seq": 500, "peer-seconds": 3 },
    { seconds: 1, "peer-rounds": 0 },
  );
  if (!peersOnly) printSection(renderSection(await measure(args)), args.write, "Gateway throughput");
  if (args["peer-rounds"] >= 1) {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gateway-peers-"));
    try {
      const options = {
        rounds: args["peer-rounds"],
        seq: args["peer-seq"],
        seconds: args["peer-seconds"],
        concurrency: args.concurrency,
        warm: 100,
        ...(gateways ? { gateways } : {}),
        ...(upstreams ? { upstreams } : {}),
        ...(before ? { beforeCli: join(before, "apps/cli/dist/bin.js") } : {}),
        ...(capabilities ? { capabilities } : {}),
      };
      const result = await measurePeers(options, dir, TOKEN, (line) => process.stderr.write(`${line}\n`));
      printSection(renderPeers(result), args.write, "Gateways side by side");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
