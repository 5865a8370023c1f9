#!/usr/bin/env node
// pnpm bench:ab <git-ref>: this working tree (its built dist) beside <git-ref>, built in a temporary
// worktree, on the same rows, alternating in one run. Prints per-row medians and the ratio
// this ÷ ref with the spread of the rounds' ratios.
//   pnpm bench:ab main                          the default rows, 5 rounds after a warm-up round
//   pnpm bench:ab HEAD~3 --rows stdio-pipe,cli-version --rounds 7
//   pnpm bench:ab main --rows all --with raw    … every row, and the raw limit measured beside them
//   options: --rows id,id|all, --rounds N, --reps N, --with raw,undici,ours-no-otel,bound, --keep (keep the worktree
//            for the next run with the same ref), --json
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AB_ROWS, DEFAULT_AB_ROWS, abSummary, renderAb } from "./ab-report.mjs";
import { everything } from "./cli-paths.mjs";
import { machine } from "./report.mjs";
import { median, SIZES, workerOptions } from "./scenarios.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../../../", import.meta.url));
const log = (line) => process.stderr.write(`${line}\n`);
const PNPM = ["-y", "pnpm@10.34.9"];

function parseArgs(argv) {
  const args = {
    ref: undefined,
    rows: DEFAULT_AB_ROWS,
    rounds: 5,
    reps: undefined,
    with: [],
    keep: false,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") continue;
    else if (a === "--rows") args.rows = argv[++i] === "all" ? Object.keys(AB_ROWS) : String(argv[i]).split(",");
    else if (a === "--rounds") args.rounds = Number(argv[++i]);
    else if (a === "--reps") args.reps = Number(argv[++i]);
    else if (a === "--with") args.with = String(argv[++i]).split(",");
    else if (a === "--keep") args.keep = true;
    else if (a === "--json") args.json = true;
    else if (a.startsWith("--"))
      throw new Error(`unknown option ${a} (see the top of ${fileURLToPath(import.meta.url)})`);
    else if (args.ref === undefined) args.ref = a;
    else throw new Error(`one git ref only; got ${args.ref} and ${a}`);
  }
  if (args.ref === undefined)
    throw new Error(
      "usage: pnpm bench:ab <git-ref> [--rows id,id|all] [--rounds N] [--reps N] [--with raw,undici,ours-no-otel,bound] [--keep] [--json]",
    );
  for (const id of args.rows)
    if (!AB_ROWS[id]) throw new Error(`unknown row ${id}; rows: ${Object.keys(AB_ROWS).join(", ")}`);
  for (const impl of args.with)
    if (!["raw", "undici", "ours-no-otel", "bound"].includes(impl))
      throw new Error(`--with takes raw, undici, ours-no-otel and bound; got ${impl}`);
  for (const key of ["rounds", "reps"]) {
    if (args[key] !== undefined && !(Number.isInteger(args[key]) && args[key] > 0))
      throw new Error(`--${key} takes a positive integer`);
  }
  return args;
}

function run(command, argv, cwd) {
  const out = spawnSync(command, argv, {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 26,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (out.status !== 0)
    throw new Error(
      `${command} ${argv.join(" ")} (in ${cwd}) failed (exit ${out.status ?? out.signal}):\n${(out.stderr || out.stdout).slice(-3000)}`,
    );
  return out.stdout.trim();
}

/**
 * The ref, checked out in a worktree of its own under the temp folder, installed and built (the
 * bench's packages and the CLI). A kept worktree of the same commit is reused as it is.
 */
function prepareRef(ref, keep) {
  const sha = run("git", ["rev-parse", "--verify", `${ref}^{commit}`], root);
  const dir = join(tmpdir(), "mcp-bench-ab", sha.slice(0, 12));
  const ready = join(dir, ".bench-ab-ready");
  if (!existsSync(ready)) {
    if (existsSync(dir)) {
      spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: root });
      rmSync(dir, { recursive: true, force: true });
    }
    mkdirSync(join(tmpdir(), "mcp-bench-ab"), { recursive: true });
    log(`checking out ${ref} (${sha.slice(0, 12)}) in ${dir}`);
    run("git", ["worktree", "add", "--detach", dir, sha], root);
    log("installing (pnpm install --frozen-lockfile --prefer-offline)");
    run("npx", [...PNPM, "install", "--frozen-lockfile", "--prefer-offline"], dir);
    log("building the bench's packages and the CLI");
    run("npx", ["turbo", "run", "build", "--filter=@mcp/bench...", "--filter=@mcp/cli..."], dir);
    writeFileSync(ready, `${sha}\n`);
  }
  // The bench's own code is this tree's, so both sides are measured the same way; placed inside the
  // ref's bench app, its imports of @mcp/* resolve to the ref's packages.
  const src = join(dir, "apps/bench/ab-src");
  rmSync(src, { recursive: true, force: true });
  cpSync(here, src, { recursive: true });
  const remove = () => {
    if (keep) return;
    spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: root });
    rmSync(dir, { recursive: true, force: true });
  };
  return { sha, dir, src, remove };
}

function runJson(argv, timeout = 15 * 60_000) {
  const out = spawnSync(process.execPath, argv, { encoding: "utf8", maxBuffer: 1 << 26, timeout });
  if (out.status !== 0)
    throw new Error(
      `node ${argv.join(" ").slice(0, 300)} failed (exit ${out.status ?? out.signal}):\n${(out.stderr || out.stdout).slice(-3000)}`,
    );
  return JSON.parse(out.stdout.trim().split("\n").pop());
}

/**
 * One measurement of one row on one side: `value` in the row's unit, and for throughput rows `cpu`,
 * the client process's CPU time per call (µs). Throws when the row cannot run there.
 */
function measure(row, side, impl, sizes, baseUrl, args) {
  const spec = AB_ROWS[row];
  if (spec.kind === "throughput") {
    const scenario = spec.scenario ?? row;
    const out = runJson([
      join(side.src, "worker.mjs"),
      impl === "ours" ? (spec.impl ?? "ours") : impl,
      scenario,
      JSON.stringify(workerOptions(sizes, scenario, baseUrl)),
    ]);
    if (out.skipped) throw new Error(`${row} skipped: ${out.skipped}`);
    return { value: median(out.samples), cpu: out.cpuUsPerCall ? median(out.cpuUsPerCall) : undefined };
  }
  if (spec.kind === "cli") {
    const cli = join(side.dir, "apps/cli/dist/bin.js");
    if (impl === "node") return { value: cliStart(["-e", "0"], args.cliRuns) };
    return {
      value: spec.call
        ? cliStart([cli, "--config", args.twelve, "call", "srv.echo", "message=hi"], args.callRuns, args.cliEnv)
        : cliStart([cli, "--version"], args.cliRuns),
    };
  }
  // The callers are always this tree's client: only the gateway differs.
  const out = runJson(
    [
      join(here, "gateway-cell.mjs"),
      join(side.dir, "apps/cli/dist/bin.js"),
      `${baseUrl}/json`,
      JSON.stringify({ ...spec.options, seconds: args.gatewaySeconds }),
    ],
    5 * 60_000,
  );
  return { value: out[spec.field] };
}

/** The median wall time (ms) of `node <argv>` as a fresh process, over `runs` runs after one warm-up. */
function cliStart(argv, runs, env = { ...process.env, NO_COLOR: "1" }) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const out = spawnSync(process.execPath, argv, { encoding: "utf8", env });
    const ms = performance.now() - started;
    if (out.status !== 0)
      throw new Error(`node ${argv.join(" ")} failed (exit ${out.status ?? out.signal}): ${out.stderr}`);
    if (i > 0) times.push(ms);
  }
  return median(times);
}

async function startHttpEcho() {
  const child = spawn(process.execPath, [join(here, "servers/http-echo.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
  const [first] = await once(child.stdout, "data");
  return { baseUrl: `http://127.0.0.1:${String(first).trim()}`, stop: () => child.stdin.end() };
}

/**
 * The config of the cli-call row, in an empty HOME: `srv` and eleven more, each server-everything
 * over stdio (only `srv` starts for the call).
 */
function cliCallSetup() {
  const dir = mkdtempSync(join(tmpdir(), "mcp-bench-ab-cli-"));
  const home = join(dir, "home");
  mkdirSync(home);
  const names = ["srv", ...Array.from({ length: 11 }, (_, i) => `srv${i + 2}`)];
  const twelve = join(dir, "twelve.json");
  writeFileSync(
    twelve,
    JSON.stringify({
      servers: Object.fromEntries(
        names.map((name) => [name, { command: process.execPath, args: [everything, "stdio"] }]),
      ),
    }),
  );
  const cliEnv = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
  };
  return { twelve, cliEnv, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const args = parseArgs(process.argv.slice(2));
const sizes = { ...SIZES.full, ...(args.reps ? { reps: args.reps } : {}) };
const cliCall = cliCallSetup();
Object.assign(args, { cliRuns: 10, callRuns: 5, gatewaySeconds: 3, twelve: cliCall.twelve, cliEnv: cliCall.cliEnv });
const ref = prepareRef(args.ref, args.keep);
const sides = {
  ref: { label: `${args.ref} (${ref.sha.slice(0, 8)})`, dir: ref.dir, src: ref.src },
  this: { label: "this tree", dir: root, src: here },
};
const server = await startHttpEcho();
// Ctrl-C: the same clean-up as the end of a run (the echo server, the ref's worktree unless kept, the CLI's config).
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.stop();
    ref.remove();
    cliCall.remove();
    process.exit(130);
  });
}
/** values[row][side] = per-round figures; side is "ref", "this", or a reference ("raw", "undici", "node"). cpu: the same for CPU µs per call. */
const values = Object.fromEntries(args.rows.map((row) => [row, {}]));
const cpu = Object.fromEntries(args.rows.map((row) => [row, {}]));
const started = performance.now();
try {
  const total = args.rounds + 1;
  for (let round = 0; round < total; round++) {
    const warmup = round === 0;
    log(`round ${round + 1}/${total}${warmup ? " (warm-up, not counted)" : ""}`);
    for (const row of args.rows) {
      const spec = AB_ROWS[row];
      // Alternate: odd rounds measure the ref first, even rounds this tree first.
      const order = round % 2 ? ["ref", "this"] : ["this", "ref"];
      const refs =
        spec.kind === "throughput"
          ? args.with.filter(
              (impl) =>
                (impl !== "undici" || row.startsWith("http")) &&
                (impl !== "ours-no-otel" || spec.impl === undefined) &&
                (impl !== "bound" || /-(seq|pipe)$/.test(spec.scenario ?? row)),
            )
          : spec.kind === "cli" && !spec.call
            ? ["node"]
            : [];
      for (const who of [...order, ...refs]) {
        const side = sides[who] ?? sides.this;
        const out = measure(row, side, sides[who] ? "ours" : who, sizes, server.baseUrl, args);
        if (!warmup) {
          (values[row][who] ??= []).push(out.value);
          if (out.cpu !== undefined) (cpu[row][who] ??= []).push(out.cpu);
        }
        log(
          `  ${row.padEnd(16)} ${who.padEnd(7)} ${out.value.toFixed(1)}${out.cpu === undefined ? "" : ` (${out.cpu.toFixed(2)} µs CPU per call)`}`,
        );
      }
    }
  }
} finally {
  server.stop();
  ref.remove();
  cliCall.remove();
}

const summary = abSummary({
  machine: machine(),
  ref: args.ref,
  sha: ref.sha,
  rows: args.rows,
  values,
  cpu,
  rounds: args.rounds,
  seconds: (performance.now() - started) / 1000,
});
process.stdout.write(args.json ? `${JSON.stringify(summary)}\n` : renderAb(summary));
