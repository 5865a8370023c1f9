// Gateways side by side: `mcp serve --http` beside the proxies people deploy, mcp-proxy and
// supergateway (pinned devDependencies of this app), each in front of the same stdio upstream and
// driven by the same official SDK 1.x client over Streamable HTTP; "direct" is that client talking
// stdio to the upstream itself. Rounds alternate (each round starts with the next gateway); every
// gateway runs for the whole upstream, each round opens a fresh session on it.
// Run by `pnpm bench:gateway` after its own rows (not with --smoke); the rendered section is
// "Gateways side by side" in docs/benchmarks.md.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { cli, everything } from "./cli-paths.mjs";
import { median } from "./scenarios.mjs";

const require = createRequire(import.meta.url);
const stdioEcho = fileURLToPath(new URL("./servers/stdio-echo.mjs", import.meta.url));
const mcpProxyBin = require.resolve("mcp-proxy/package.json").replace(/package\.json$/, "dist/bin/mcp-proxy.mjs");
const supergatewayBin = require.resolve("supergateway/package.json").replace(/package\.json$/, "dist/index.js");
export const PEER_VERSIONS = {
  "mcp-proxy": JSON.parse(readFileSync(require.resolve("mcp-proxy/package.json"), "utf8")).version,
  supergateway: JSON.parse(readFileSync(require.resolve("supergateway/package.json"), "utf8")).version,
  // The SDK's exports map no package.json: take the one above its resolved entry.
  sdk: JSON.parse(
    readFileSync(
      require
        .resolve("@modelcontextprotocol/sdk/client/index.js")
        .replace(/(node_modules\/@modelcontextprotocol\/sdk\/).*$/, "$1package.json"),
      "utf8",
    ),
  ).version,
};

/** The stdio upstreams: the bench's echo server (the least a server does) and server-everything (a real one, official SDK). */
export const PEER_UPSTREAMS = [
  {
    id: "echo",
    label: "echo server (stdio)",
    command: [stdioEcho],
    tool: { name: "echo", args: { text: "hi" }, answer: "hi" },
  },
  {
    id: "everything",
    label: "server-everything (stdio)",
    command: [everything, "stdio"],
    tool: { name: "echo", args: { message: "hi" }, answer: "Echo: hi" },
  },
];
export const GATEWAYS = ["direct", "ours", "mcp-proxy", "supergateway"];
/** A gateway that is ours built from another checkout (`--ours-before <dir>`): an A/B of ours in the same alternating rounds. */
export const BEFORE = "ours-before";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` on 127.0.0.1 accepts a connection (mcp-proxy says "starting" before it listens), retrying for 30 s. */
async function acceptsOn(port) {
  const until = performance.now() + 30_000;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (performance.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts one gateway in front of `upstream`; resolves once a line on its stdout/stderr matches `ready`. */
function launch(args, env, ready) {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`${args.slice(0, 2).join(" ")} exited ${code}: ${out.slice(-2000)}`));
    child.once("exit", onExit);
    const onData = (c) => {
      out += c;
      const match = ready.exec(out);
      if (match) {
        child.off("exit", onExit);
        child.stdout.off("data", onData).resume();
        child.stderr.off("data", onData).resume();
        resolve({ child, match });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
  });
}

/** Starts `gateway` in front of `upstream`: { url, headers, pid, stop } (direct: no process). */
export async function startGateway(gateway, upstream, dir, token, beforeCli) {
  const upstreamArgs = upstream.command;
  if (gateway === "direct") return { pid: undefined, stop: async () => {} };
  let started;
  let url;
  let headers = {};
  if (gateway === "ours" || gateway === BEFORE) {
    const { writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const config = join(dir, `peers-${gateway}-${upstream.id}.json`);
    writeFileSync(config, JSON.stringify({ servers: { up: { command: process.execPath, args: upstreamArgs } } }));
    const env = {
      ...process.env,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, ".config"),
      XDG_CACHE_HOME: join(dir, ".cache"),
      MCP_SERVE_TOKEN: token,
      NO_COLOR: "1",
    };
    const bin = gateway === BEFORE ? beforeCli : cli;
    started = await launch([bin, "--json", "--config", config, "serve", "--http"], env, /^(\{.*\})$/m);
    url = `${JSON.parse(started.match[1]).url}/up`;
    headers = { authorization: `Bearer ${token}` };
  } else if (gateway === "mcp-proxy") {
    // Its documented default mode (SSE and Streamable HTTP, stateful sessions, event store on), bound to loopback.
    const port = await freePort();
    started = await launch(
      [mcpProxyBin, "--host", "127.0.0.1", "--port", String(port), "--", process.execPath, ...upstreamArgs],
      process.env,
      /starting server on port/,
    );
    await acceptsOn(port);
    url = `http://127.0.0.1:${port}/mcp`;
  } else {
    // stdio → Streamable HTTP, --stateful (a session keeps its upstream process; stateless spawns one per request).
    const port = await freePort();
    const command = [process.execPath, ...upstreamArgs].map((a) => JSON.stringify(a)).join(" ");
    started = await launch(
      [
        supergatewayBin,
        "--stdio",
        command,
        "--outputTransport",
        "streamableHttp",
        "--stateful",
        "--port",
        String(port),
      ],
      process.env,
      /Listening on port/,
    );
    url = `http://127.0.0.1:${port}/mcp`;
  }
  const { child } = started;
  return {
    url,
    headers,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The process `pid` and its descendants: summed RSS (MB) and CPU time (user + system, ms). */
export function treeUsage(pid) {
  const parents = new Map();
  const stats = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(name), Number(fields[1]));
      stats.set(Number(name), { cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) });
    } catch {
      // The process ended while we listed it.
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parents) if (tree.has(parent) && !tree.has(child)) (tree.add(child), (grew = true));
  }
  let ticks = 0;
  let pages = 0;
  for (const p of tree) {
    const s = stats.get(p);
    if (s) ((ticks += s.cpuTicks), (pages += s.rssPages));
  }
  // Linux: 100 clock ticks per second and 4 KiB pages on every machine this runs on.
  return { cpuMs: ticks * 10, rssMb: (pages * 4096) / 1024 / 1024 };
}

/** What the client declares for each of `--peer-capabilities`. */
const DECLARED = { roots: { listChanged: true }, sampling: {}, elicitation: {} };

/**
 * Opens the SDK 1.x client on `gateway` (or straight on the upstream's stdio for direct), declaring
 * `capabilities` (names of {@link DECLARED}); with roots, it answers `roots/list` with one root.
 */
async function openClient(gateway, upstream, running, capabilities = []) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  let transport;
  if (gateway === "direct") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    transport = new StdioClientTransport({ command: process.execPath, args: upstream.command, stderr: "ignore" });
  } else {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    transport = new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } });
  }
  for (const name of capabilities)
    if (!DECLARED[name]) throw new Error(`--peer-capabilities takes ${Object.keys(DECLARED).join(", ")}; got ${name}`);
  const client = new Client(
    { name: "mcp-bench", version: "1.0.0" },
    { capabilities: Object.fromEntries(capabilities.map((name) => [name, DECLARED[name]])) },
  );
  if (capabilities.includes("roots")) {
    const { ListRootsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///bench", name: "bench" }] }));
  }
  await client.connect(transport);
  const { name, args, answer } = upstream.tool;
  const call = async () => {
    const result = await client.callTool({ name, arguments: args });
    if (result.content?.[0]?.text !== answer)
      throw new Error(`${gateway}: wrong answer ${JSON.stringify(result).slice(0, 300)}`);
  };
  const close = async () => {
    if (gateway !== "direct") await transport.terminateSession().catch(() => {});
    await client.close();
  };
  return { call, close };
}

/** One round of one gateway: a fresh session, warm-up, `seq` calls one after another, then `concurrency` in flight for `seconds`. */
export async function measureRound(gateway, upstream, running, options) {
  const client = await openClient(gateway, upstream, running, options.capabilities);
  try {
    for (let i = 0; i < options.warm; i++) await client.call();
    const before = running.pid === undefined ? undefined : treeUsage(running.pid);
    const times = [];
    const seqStart = performance.now();
    for (let i = 0; i < options.seq; i++) {
      const t = performance.now();
      await client.call();
      times.push(performance.now() - t);
    }
    const seqRate = options.seq / ((performance.now() - seqStart) / 1000);
    times.sort((a, b) => a - b);
    let calls = 0;
    const start = performance.now();
    const deadline = start + options.seconds * 1000;
    const loop = async () => {
      while (performance.now() < deadline) {
        await client.call();
        calls++;
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, loop));
    const parRate = calls / ((performance.now() - start) / 1000);
    const after = running.pid === undefined ? undefined : treeUsage(running.pid);
    return {
      seqRate,
      p50: times[Math.floor(times.length * 0.5)],
      p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
      parRate,
      rssMb: after?.rssMb,
      cpuUsPerCall: after ? ((after.cpuMs - before.cpuMs) * 1000) / (options.seq + calls) : undefined,
    };
  } finally {
    await client.close();
  }
}

/** Every gateway on every upstream, `rounds` alternating rounds after a warm-up round; medians per cell. */
export async function measurePeers(options, dir, token, log = () => {}) {
  const rows = [];
  // `options.gateways` / `options.upstreams`: a subset (ids); `options.beforeCli`: the CLI of BEFORE.
  const gatewaysRun = options.gateways ?? GATEWAYS;
  for (const upstream of PEER_UPSTREAMS.filter((u) => !options.upstreams || options.upstreams.includes(u.id))) {
    const running = {};
    try {
      for (const gateway of gatewaysRun)
        running[gateway] = await startGateway(gateway, upstream, dir, token, options.beforeCli);
      const samples = Object.fromEntries(gatewaysRun.map((g) => [g, []]));
      for (let round = 0; round <= options.rounds; round++) {
        const order = gatewaysRun.map((_, i) => gatewaysRun[(i + round) % gatewaysRun.length]);
        for (const gateway of order) {
          const sample = await measureRound(gateway, upstream, running[gateway], options);
          if (round > 0) samples[gateway].push(sample);
          log(
            `  ${upstream.id} ${gateway.padEnd(12)} ${round === 0 ? "(warm-up) " : ""}seq ${sample.seqRate.toFixed(0)}/s p50 ${sample.p50.toFixed(2)} ms, ${options.concurrency} callers ${sample.parRate.toFixed(0)}/s${sample.rssMb ? `, ${sample.rssMb.toFixed(0)} MB, ${sample.cpuUsPerCall.toFixed(0)} µs CPU/call` : ""}`,
          );
        }
      }
      const cells = {};
      for (const gateway of gatewaysRun) {
        const s = samples[gateway];
        const m = (key) => (s[0][key] === undefined ? undefined : median(s.map((x) => x[key])));
        cells[gateway] = {
          seqRate: m("seqRate"),
          p50: m("p50"),
          p99: m("p99"),
          parRate: m("parRate"),
          rssMb: m("rssMb"),
          cpuUsPerCall: m("cpuUsPerCall"),
        };
      }
      rows.push({ upstream: upstream.label, cells });
    } finally {
      for (const gateway of gatewaysRun) await running[gateway]?.stop();
    }
  }
  return { rows, options, versions: PEER_VERSIONS };
}

/** The "Gateways side by side" section of docs/benchmarks.md. */
export function renderPeers(result) {
  const n = (x) => Math.round(x).toLocaleString("en-US");
  const ms = (x) => x.toFixed(2);
  const r = (a, b) => (a === undefined || b === undefined ? "–" : `${(a / b).toFixed(2)}x`);
  const { options, versions } = result;
  const lines = [
    "<!-- gateway-peers:start (apps/bench/src/gateway-throughput.mjs --write) -->",
    "## Gateways side by side",
    "",
    `\`mcp serve --http\` beside mcp-proxy ${versions["mcp-proxy"]} (its default mode, \`--host 127.0.0.1\`) and supergateway ${versions.supergateway} (\`--stdio … --outputTransport streamableHttp --stateful\`), each in front of the same stdio upstream, driven by the official SDK ${versions.sdk} client over Streamable HTTP (so a 2025-11-25 session${options.capabilities?.length ? `, its client declaring ${options.capabilities.join(", ")}` : ""}); "direct" is that client on the upstream's stdio. Per round and gateway: a fresh session, ${options.warm} calls of warm-up, ${options.seq} calls one after another (rate, p50, p99), then ${options.concurrency} calls in flight on that session for ${options.seconds} s. RSS is the gateway's process tree at the end of the round (its upstream processes included: supergateway runs one per session, ours and mcp-proxy one in all); CPU per call is that tree's user + system time over both phases ÷ calls. Medians of ${options.rounds} rounds after a warm-up round, the gateways alternating; loopback only.`,
    "",
    `| upstream | gateway | sequential calls/s | p50 (ms) | p99 (ms) | ${options.concurrency} callers calls/s | RSS (MB) | CPU per call (µs) |`,
    "|---|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of result.rows) {
    for (const g of Object.keys(row.cells)) {
      const c = row.cells[g];
      lines.push(
        `| ${row.upstream} | ${g} | ${n(c.seqRate)} | ${ms(c.p50)} | ${ms(c.p99)} | ${n(c.parRate)} | ${c.rssMb === undefined ? "–" : n(c.rssMb)} | ${c.cpuUsPerCall === undefined ? "–" : n(c.cpuUsPerCall)} |`,
      );
    }
  }
  lines.push(
    "",
    "Ours as a ratio (throughput: ours ÷ other, higher is better; p50, p99, RSS and CPU: ours ÷ other, lower is better):",
    "",
    "| upstream | ours ÷ | sequential | p50 | p99 | concurrent | RSS | CPU per call |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const row of result.rows) {
    const o = row.cells.ours;
    for (const g of Object.keys(row.cells).filter((x) => x !== "ours")) {
      const c = row.cells[g];
      lines.push(
        `| ${row.upstream} | ${g} | ${r(o.seqRate, c.seqRate)} | ${r(o.p50, c.p50)} | ${r(o.p99, c.p99)} | ${r(o.parRate, c.parRate)} | ${r(o.rssMb, c.rssMb)} | ${r(o.cpuUsPerCall, c.cpuUsPerCall)} |`,
      );
    }
  }
  lines.push(
    "",
    "Reproduce: `npx -y pnpm@10.34.9 bench:gateway` (`-- --write` rewrites this section; `--peer-rounds N`, `--peer-seq N`).",
    "<!-- gateway-peers:end -->",
  );
  return lines.join("\n");
}
