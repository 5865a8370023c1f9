#!/usr/bin/env node
// CLI latency: the wall time of one `call srv.echo` from a shell, ours beside the peer CLI
// (mcporter 0.12.3), on the same config of 12 stdio servers (server-everything), and ours with
// only that one server configured; and each CLI's own start-up (`--version`) beside a bare
// `node -e 0` on the same Node. mcporter needs Node 24: ours runs on Node 20 and on Node 24.
// Ours also with a large tool cache (~770 KB of other servers' entries) beside --no-cache.
// Each command runs as a fresh process, alternating, after warm-ups.
//   pnpm bench:cli                 prints the table
//   pnpm bench:cli -- --write      … and rewrites the "CLI latency" section of docs/benchmarks.md
//   options: --runs N (measured runs per command, default 15), --smoke (2 runs, no warm-up)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli, everything, mcporter, node24 } from "./cli-paths.mjs";
import { median } from "./scenarios.mjs";

const SERVERS = 12;

function parseArgs(argv) {
  const args = { runs: 15, warmups: 2, write: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") continue;
    else if (a === "--write") args.write = true;
    else if (a === "--runs") args.runs = Number(argv[++i]);
    else if (a === "--smoke") Object.assign(args, { runs: 2, warmups: 0 });
    else throw new Error(`unknown option ${a}`);
  }
  if (!(Number.isInteger(args.runs) && args.runs > 0)) throw new Error("--runs takes a positive integer");
  return args;
}

/** The config both CLIs read: `srv` and eleven more, each server-everything over stdio. */
function servers(count) {
  const names = ["srv", ...Array.from({ length: count - 1 }, (_, i) => `srv${i + 2}`)];
  return Object.fromEntries(names.map((name) => [name, { command: process.execPath, args: [everything, "stdio"] }]));
}

const CACHE_ENTRIES = 190;

/** Other servers' entries in the tool cache's folder (the FileToolCache format: one file per key); returns their KB. */
function fillCache(folder) {
  let bytes = 0;
  mkdirSync(folder, { recursive: true });
  const now = Date.now();
  for (let i = 0; i < CACHE_ENTRIES; i++) {
    const key = `other${i}:${createHash("sha256").update(String(i)).digest("hex").slice(0, 16)}`;
    const tools = Array.from({ length: 8 }, (_, t) => ({
      name: `tool${t}`,
      description: "d".repeat(400),
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
    }));
    const file = join(folder, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
    const text = JSON.stringify({ version: 2, key, entry: { tools, savedAt: now, expiresAt: now + 7 * 86_400_000 } });
    writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  }
  return Math.round(bytes / 1024);
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "mcp-cli-latency-"));
  const home = join(dir, "home");
  mkdirSync(home);
  const write = (name, value) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value, null, 2));
    return file;
  };
  // An empty HOME: neither CLI finds another host's config; ours reads only --config.
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
  };
  const many = write("many.json", { servers: servers(SERVERS) });
  const one = write("one.json", { servers: servers(1) });
  const peerMany = write("mcporter-many.json", { mcpServers: servers(SERVERS) });
  const call = ["call", "srv.echo", "message=hi"];
  // A large tool cache, as an afternoon of use leaves it (~800 KB), in a HOME of its own.
  const bigHome = join(dir, "big-home");
  const cacheKb = fillCache(join(bigHome, ".cache", "mcp-client", "tools"));
  const bigEnv = {
    ...env,
    HOME: bigHome,
    XDG_CONFIG_HOME: join(bigHome, ".config"),
    XDG_CACHE_HOME: join(bigHome, ".cache"),
  };
  const commands = [
    {
      id: "ours-many",
      label: `mcp call, ${SERVERS} servers configured (Node 20)`,
      argv: [process.execPath, cli, "--config", many, ...call],
    },
    {
      id: "ours-big-cache",
      label: `mcp call, ${SERVERS} servers, a ${CACHE_ENTRIES}-entry tool cache of ${cacheKb} KB (Node 20)`,
      argv: [process.execPath, cli, "--config", many, ...call],
      env: bigEnv,
    },
    {
      id: "ours-no-cache",
      label: `mcp call, ${SERVERS} servers, --no-cache (Node 20)`,
      argv: [process.execPath, cli, "--config", many, "--no-cache", ...call],
    },
    {
      id: "ours-1",
      label: "mcp call, only that server configured (Node 20)",
      argv: [process.execPath, cli, "--config", one, ...call],
    },
    {
      id: "ours-many-node24",
      label: `mcp call, ${SERVERS} servers configured (Node 24)`,
      argv: [node24, cli, "--config", many, ...call],
    },
    {
      id: "mcporter-many",
      label: `mcporter 0.12.3 call, ${SERVERS} servers configured (Node 24)`,
      argv: [node24, mcporter, "--config", peerMany, ...call],
    },
    {
      id: "version",
      label: "mcp --version (Node 20)",
      argv: [process.execPath, cli, "--version"],
      prints: /^\d+\.\d+\.\d+/,
    },
    { id: "node", label: "node -e 0 (Node 20)", argv: [process.execPath, "-e", "0"], prints: /^$/ },
    {
      id: "version-node24",
      label: "mcp --version (Node 24)",
      argv: [node24, cli, "--version"],
      prints: /^\d+\.\d+\.\d+/,
    },
    {
      id: "mcporter-version",
      label: "mcporter 0.12.3 --version (Node 24)",
      argv: [node24, mcporter, "--version"],
      prints: /\d+\.\d+\.\d+/,
    },
    { id: "node24", label: "node -e 0 (Node 24)", argv: [node24, "-e", "0"], prints: /^$/ },
  ];
  return { dir, env, commands };
}

function runOnce(command, env, cwd) {
  const started = performance.now();
  const run = spawnSync(command.argv[0], command.argv.slice(1), { env, cwd, encoding: "utf8", timeout: 60_000 });
  const ms = performance.now() - started;
  if (run.status !== 0 || !(command.prints ? command.prints.test(run.stdout.trim()) : run.stdout.includes("hi")))
    throw new Error(`${command.label} failed (exit ${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
  return ms;
}

export function measure(args) {
  const { dir, env, commands } = setup();
  try {
    const samples = Object.fromEntries(commands.map((c) => [c.id, []]));
    for (let round = 0; round < args.warmups + args.runs; round++) {
      // Alternate the order each round, so no command always runs right after another.
      const order = commands.map((_, i) => commands[(i + round) % commands.length]);
      for (const command of order) {
        const ms = runOnce(command, command.env ?? env, dir);
        if (round >= args.warmups) samples[command.id].push(ms);
      }
    }
    return {
      commands: commands.map((c) => ({
        id: c.id,
        label: c.label,
        ms: median(samples[c.id]),
        min: Math.min(...samples[c.id]),
        max: Math.max(...samples[c.id]),
      })),
      runs: args.runs,
      warmups: args.warmups,
      servers: SERVERS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The section of docs/benchmarks.md, between its markers. */
export function renderSection(result) {
  const by = Object.fromEntries(result.commands.map((c) => [c.id, c.ms]));
  const spread = (c) => `${Math.round(c.min)}–${Math.round(c.max)}`;
  const verdict = (ok) => (ok ? "met" : "MISSED");
  const ratioToOne = by["ours-many"] / by["ours-1"];
  const ratioToPeer = by["ours-many-node24"] / by["mcporter-many"];
  const node20ToPeer = by["ours-many"] / by["mcporter-many"];
  const startup = by["version"] / by["node"];
  const startup24 = by["version-node24"] / by["node24"];
  const peerStartup = by["mcporter-version"] / by["node24"];
  const lines = [
    "<!-- cli-latency:start (apps/bench/src/cli-latency.mjs --write) -->",
    "## CLI latency",
    "",
    `\`call srv.echo message=hi\` from a shell, each a fresh process: ${result.servers} stdio servers configured (each server-everything; only \`srv\` starts), median of ${result.runs} runs after ${result.warmups} warm-up${result.warmups === 1 ? "" : "s"}, the commands alternating; and each CLI's own start-up, \`--version\`, beside a bare \`node -e 0\` on the same Node. mcporter 0.12.3 needs Node 24, so ours runs on Node 24 too, and on Node 20 (what CI runs).`,
    "",
    "| command | median (ms) | range (ms) |",
    "|---|---:|---:|",
    ...result.commands.map((c) => `| ${c.label} | ${Math.round(c.ms)} | ${spread(c)} |`),
    "",
    `- ${result.servers} servers configured ÷ only that one (Node 20): **${ratioToOne.toFixed(2)}×** (target ≤ 1.2×: ${verdict(ratioToOne <= 1.2)})`,
    `- ours ÷ mcporter, both on Node 24: **${ratioToPeer.toFixed(2)}×** (target ≤ 1×: ${verdict(ratioToPeer <= 1)}); ours on Node 20 ÷ mcporter on Node 24: **${node20ToPeer.toFixed(2)}×** (target ≤ 1×: ${verdict(node20ToPeer <= 1)})`,
    `- a call with that large tool cache ÷ with \`--no-cache\` (Node 20): **${(by["ours-big-cache"] / by["ours-no-cache"]).toFixed(2)}×** (a call reads only its own server's entry)`,
    `- \`mcp --version\` ÷ \`node -e 0\`: **${startup.toFixed(2)}×** on Node 20 (target ≤ 1.8×: ${verdict(startup <= 1.8)}), ${startup24.toFixed(2)}× on Node 24; mcporter's \`--version\` ÷ \`node -e 0\` on Node 24: ${peerStartup.toFixed(2)}×`,
    "",
    "Reproduce: `npx -y pnpm@10.34.9 bench:cli` (`-- --write` rewrites this section).",
    "<!-- cli-latency:end -->",
  ];
  return lines.join("\n");
}

/** The markers around a section written by its own script (`cli-latency`, `agent-host`). */
const markersOf = (name) => new RegExp(`<!-- ${name}:start[\\s\\S]*?<!-- ${name}:end -->`);
const MARKERS = markersOf("cli-latency");

/** Puts the section into a page: in place of the old one, or before "## Reproduce" (else at the end). */
export function withSection(page, section) {
  const name = /<!-- ([a-z-]+):start/.exec(section)?.[1] ?? "cli-latency";
  const markers = markersOf(name);
  if (markers.test(page)) return page.replace(markers, section);
  const at = page.indexOf("\n## Reproduce");
  return at === -1 ? `${page.trimEnd()}\n\n${section}\n` : `${page.slice(0, at)}\n${section}\n${page.slice(at)}`;
}

/** The section as it stands in a page, if any (the full bench keeps it when it rewrites the page). */
export function sectionOf(page, name = "cli-latency") {
  return (name === "cli-latency" ? MARKERS : markersOf(name)).exec(page)?.[0];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  const result = measure(args);
  const section = renderSection(result);
  process.stdout.write(`${section.split("\n").slice(1, -2).join("\n")}\n`);
  if (args.write) {
    const file = new URL("../../../docs/benchmarks.md", import.meta.url);
    writeFileSync(file, withSection(readFileSync(file, "utf8"), section));
    process.stderr.write("rewrote the CLI latency section of docs/benchmarks.md\n");
  }
}
