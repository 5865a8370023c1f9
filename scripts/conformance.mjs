#!/usr/bin/env node
// Runs every client scenario of the official MCP conformance suite (the 0.1.16 line and the
// 0.2.0 line, as each suite lists them) against apps/conformance-client and prints each result,
// then "N passed, N failed". A scenario passes only with zero failures, zero warnings and at
// least one check that succeeded (all skipped verifies nothing). The suite's CLI needs Node >= 22
// (fs.globSync): the `node` npm package (as `node22`) brings that binary from the registry into
// tools/runtimes/binaries, which `pnpm run conformance` installs first (`pnpm run runtimes`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const app = join(root, "apps", "conformance-client");
const node22 = join(root, "tools", "runtimes", "binaries", "node_modules", "node22", "bin", "node");
const cli = join(app, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
// The 0.2.0 line (revision 2026-07-28), installed under an alias beside 0.1.16.
const cliNext = join(app, "node_modules", "conformance-next", "dist", "index.js");
const client = join(app, "dist", "index.js");
for (const [what, path] of [
  ["Node 22 binary (run `pnpm run runtimes`)", node22],
  ["conformance CLI", cli],
  ["conformance CLI 0.2.0", cliNext],
  ["built client (run `pnpm build`)", client],
]) {
  if (!existsSync(path)) {
    console.error(`conformance: missing ${what}: ${path}`);
    process.exit(1);
  }
}

/** The client scenarios a suite lists, each with the revisions it applies to. */
function clientScenarios(suite) {
  const run = spawnSync(node22, [suite, "list"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  if (run.status !== 0) throw new Error(`conformance: \`${suite} list\` failed: ${run.stderr}`);
  const section = run.stdout.slice(run.stdout.indexOf("Client scenarios"));
  const lines = section.slice(0, section.indexOf("\n\n") === -1 ? undefined : section.indexOf("\n\n")).split("\n");
  return lines.flatMap((line) => {
    const match = /^\s+- (\S+) \[([^\]]+)\]/.exec(line);
    return match ? [{ scenario: match[1], versions: match[2].split(",") }] : [];
  });
}

// Every client scenario of both lines. 0.1.16 runs each at its default revision. The 0.2.0 line
// runs each once per protocol era it applies to: at 2026-07-28, and at the latest 2025 revision it
// names (2025-03-26 for the March back-compat ones); extension scenarios take no --spec-version.
const ALL = [
  ...clientScenarios(cli).map(({ scenario }) => ({ scenario, cli, args: [], label: `0.1.16 ${scenario}` })),
  ...clientScenarios(cliNext).flatMap(({ scenario, versions }) => {
    if (versions.includes("extension"))
      return [{ scenario, cli: cliNext, args: [], label: `0.2.0 (extension) ${scenario}` }];
    const eras = [
      versions.includes("2026-07-28") ? "2026-07-28" : undefined,
      versions
        .filter((v) => v.startsWith("2025-"))
        .sort()
        .at(-1),
    ].filter(Boolean);
    return eras.map((version) => ({
      scenario,
      cli: cliNext,
      args: ["--spec-version", version],
      label: `0.2.0 (${version}) ${scenario}`,
    }));
  }),
];
const only = process.argv.slice(2);
const runs =
  only.length > 0
    ? ALL.filter((r) =>
        only.some((o) => r.scenario === o || (o.endsWith("*") && r.scenario.startsWith(o.slice(0, -1)))),
      )
    : ALL;

const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
let passed = 0;
let failed = 0;
try {
  for (const { scenario, cli: suite, args, label } of runs) {
    const dir = join(out, label.replace(/[^a-z0-9-]+/gi, "_"));
    // `exec` so that the suite's timeout kills the client itself, not just a shell wrapper.
    const command = `exec "${process.execPath}" "${client}"`;
    const run = spawnSync(
      node22,
      [suite, "client", "--command", command, "--scenario", scenario, ...args, "--timeout", "30000", "-o", dir],
      {
        encoding: "utf8",
        timeout: 120_000,
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    // Results are in DIR/<scenario>-<time>/checks.json; a scenario named auth/x nests one deeper.
    const results = existsSync(dir)
      ? readdirSync(dir, { recursive: true })
          .filter((f) => String(f).endsWith("checks.json"))
          .map((f) => join(dir, String(f)))
      : [];
    const checks = results.flatMap((f) => JSON.parse(readFileSync(f, "utf8")));
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    // A scenario whose checks were all skipped verified nothing: that is not a pass.
    const ok = run.status === 0 && checks.some((c) => c.status === "SUCCESS") && bad.length === 0;
    if (ok) passed++;
    else failed++;
    const counts = ["SUCCESS", "FAILURE", "WARNING", "SKIPPED"]
      .map((s) => `${checks.filter((c) => c.status === s).length} ${s.toLowerCase()}`)
      .join(", ");
    console.log(`${ok ? "PASS" : "FAIL"} ${label} (${counts}; exit ${run.status})`);
    if (!ok) {
      for (const c of checks.some((c) => c.status === "SUCCESS") ? bad : checks)
        console.log(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
      if (checks.length === 0 || run.status !== 0)
        console.log(
          (run.stdout + run.stderr)
            .split("\n")
            .slice(-30)
            .map((l) => `    | ${l}`)
            .join("\n"),
        );
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
