#!/usr/bin/env node
// Daemon latency: `call srv.echo` from a shell when a daemon keeps the server running, beside the
// CLI's own start-up (`mcp --version`: Node start, loading the CLI, parsing arguments), a cold
// call that starts the server, and mcporter 0.12.3's keep-alive daemon. Each command is a fresh
// process, alternating, after warm-ups.
//   pnpm bench:daemon               prints the table
//   pnpm bench:daemon -- --write    … and rewrites the "Daemon latency" section of docs/benchmarks.md
//   options: --runs N (default 15), --smoke (2 runs, no warm-up)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseBenchArgs, printSection } from "./bench-args.mjs";
import { cli, everything, mcporter, node24 } from "./cli-paths.mjs";
import { median } from "./scenarios.mjs";

function run(argv, env, cwd, expect) {
  const started = performance.now();
  const done = spawnSync(argv[0], argv.slice(1), { env, cwd, encoding: "utf8", timeout: 60_000 });
  const ms = performance.now() - started;
  if (done.status !== 0 || (expect && !done.stdout.includes(expect)))
    throw new Error(`${argv.join(" ")} failed (exit ${done.status ?? done.signal}):\n${done.stdout}\n${done.stderr}`);
  return ms;
}

export function measure(args) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-daemon-latency-"));
  const home = join(dir, "home");
  mkdirSync(home);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
  };
  const server = { command: process.execPath, args: [everything, "stdio"] };
  const ours = join(dir, "one.json");
  writeFileSync(ours, JSON.stringify({ servers: { srv: server } }));
  const theirs = join(dir, "mcporter.json");
  writeFileSync(theirs, JSON.stringify({ mcpServers: { srv: { ...server, lifecycle: "keep-alive" } } }));
  const call = ["call", "srv.echo", "message=hi"];
  const cold = [process.execPath, cli, "--config", ours, ...call];
  const commands = [
    {
      id: "startup",
      label: "`mcp --version`: the CLI's own start-up",
      argv: [process.execPath, cli, "--version"],
      expect: "",
    },
    {
      id: "cold",
      label: "`mcp call`, no daemon: the server starts",
      argv: cold,
      expect: "hi",
      env: { ...env, MCP_NO_DAEMON: "1" },
    },
    { id: "daemon", label: "`mcp call` through `mcp daemon`", argv: cold, expect: "hi" },
    {
      id: "mcporter",
      label: "`mcporter call` through its keep-alive daemon (Node 24)",
      argv: [node24, mcporter, "--config", theirs, ...call],
      expect: "hi",
    },
  ];
  try {
    run([process.execPath, cli, "daemon", "start"], env, dir);
    run([node24, mcporter, "--config", theirs, "daemon", "start"], env, dir);
    const samples = Object.fromEntries(commands.map((c) => [c.id, []]));
    for (let round = 0; round < args.warmups + args.runs; round++) {
      const order = commands.map((_, i) => commands[(i + round) % commands.length]);
      for (const command of order) {
        const ms = run(command.argv, command.env ?? env, dir, command.expect);
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
    };
  } finally {
    spawnSync(process.execPath, [cli, "daemon", "stop"], { env, cwd: dir });
    spawnSync(node24, [mcporter, "--config", theirs, "daemon", "stop"], { env, cwd: dir });
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderSection(result) {
  const by = Object.fromEntries(result.commands.map((c) => [c.id, c.ms]));
  const ratio = by["daemon"] / by["startup"];
  return [
    "<!-- daemon-latency:start (apps/bench/src/daemon-latency.mjs --write) -->",
    "## Daemon latency",
    "",
    `\`call srv.echo message=hi\` from a shell with one stdio server (server-everything) configured, each a fresh process: median of ${result.runs} runs after ${result.warmups} warm-up${result.warmups === 1 ? "" : "s"}, the commands alternating. Both daemons were started before the first run.`,
    "",
    "| command | median (ms) | range (ms) |",
    "|---|---:|---:|",
    ...result.commands.map((c) => `| ${c.label} | ${Math.round(c.ms)} | ${Math.round(c.min)}–${Math.round(c.max)} |`),
    "",
    `- through the daemon ÷ the CLI's own start-up: **${ratio.toFixed(2)}×** (target ≤ 1.3×: ${ratio <= 1.3 ? "met" : "MISSED"})`,
    `- through the daemon ÷ cold: **${(by["daemon"] / by["cold"]).toFixed(2)}×**; ours ÷ mcporter's daemon: **${(by["daemon"] / by["mcporter"]).toFixed(2)}×** (ours on Node 20, mcporter on Node 24)`,
    "",
    "Reproduce: `npx -y pnpm@10.34.9 bench:daemon` (`-- --write` rewrites this section).",
    "<!-- daemon-latency:end -->",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseBenchArgs(process.argv.slice(2), { runs: 15, warmups: 2 }, { runs: 2, warmups: 0 });
  printSection(renderSection(measure(args)), args.write, "Daemon latency");
}
