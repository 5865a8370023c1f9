import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { renderMarkdown, renderSvg, rows } from "../src/report.mjs";
import { MANAGER, SIZES, THROUGHPUT } from "../src/scenarios.mjs";

const bench = fileURLToPath(new URL("../src/bench.mjs", import.meta.url));
const IMPLS = ["ours", "sdk1", "sdk2", "raw"];

describe("pnpm bench --smoke", () => {
  it("runs every scenario for every implementation and reports every figure", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [bench, "--smoke", "--json"], {
      maxBuffer: 1 << 24,
      // Only a guard against a hang: on a machine kept busy by other work the smoke took 190 s.
      timeout: 900_000,
    });
    const report = JSON.parse(stdout);
    for (const { id } of THROUGHPUT) {
      for (const impl of IMPLS) {
        expect(report.table.throughput[id][impl], `${id} ${impl}`).toBeGreaterThan(0);
        expect(report.table.rss[id][impl], `${id} ${impl} RSS`).toBeGreaterThan(20);
      }
    }
    // The server-bound limit (no client: the echo server fed pre-built requests) on every call row, none on the 5 MB rows.
    for (const { id } of THROUGHPUT) {
      if (id.endsWith("big")) expect(report.table.throughput[id].bound, id).toBeNull();
      else expect(report.table.throughput[id].bound, `${id} server-bound`).toBeGreaterThan(0);
    }
    // A feature nobody turned on: ours beside ours without @opentelemetry/api, in the same rounds.
    expect(report.table.featureOff["otel-off"]).toMatchObject({
      ours: expect.any(Number),
      off: expect.any(Number),
      ratio: expect.any(Number),
    });
    expect(report.table.featureOff["otel-off"].off).toBeGreaterThan(0);
    for (const impl of IMPLS)
      expect(report.table.manager["manager-cold"][impl]).toBeGreaterThan(SIZES.smoke.initDelayMs);
    expect(report.table.manager["manager-warm"].ours).toBeGreaterThan(0);
    expect(report.table.manager["manager-warm"].sdk1).toBeNull();
    for (const impl of ["ours", "sdk1", "sdk2"]) {
      const f = report.table.footprint[impl];
      expect(f.gzipBytes).toBeGreaterThan(1000);
      expect(f.minBytes).toBeGreaterThan(f.gzipBytes);
      expect(f.installedBytes).toBeGreaterThan(f.minBytes);
    }
    // Our dependency tree is the client and the three packages below it: no third-party package.
    // @mcp/client, jsonrpc, transport-stdio, transport-http, undici and eventsource-parser.
    expect(report.table.footprint.ours.packages).toBe(6);
    const md = renderMarkdown(report);
    for (const row of rows(report)) expect(md).toContain(row.label);
    expect(md).toContain("## Features nobody turned on");
    expect(md).toMatch(
      /\| stdio 50 pipelined: `@opentelemetry\/api` installed, no tracer registered ÷ not installed \| [\d,.]+ \| [\d,.]+ \| [\d.]+× /,
    );
    expect(renderSvg(report)).toMatch(/^<svg [\s\S]*<\/svg>\n$/);
  }, 960_000);
});

describe("report", () => {
  const sizes = { ...SIZES.full };
  const report = (ours) => ({
    machine: { cpu: "cpu × 2", memoryGb: 8, os: "Linux", node: "v20", date: "2026-12-03", versions: {} },
    sizes,
    seconds: 60,
    table: {
      throughput: { "stdio-seq": { ours, sdk1: 50, sdk2: 40, raw: 100 } },
      rss: { "stdio-seq": { ours: 50, sdk1: 70, sdk2: 72, raw: 45 } },
      manager: {
        "manager-cold": { ours: 1400, sdk1: 10_500, sdk2: 10_600, raw: 1050 },
        "manager-warm": { ours: 350, sdk1: null, sdk2: null, raw: null },
      },
      footprint: {},
    },
  });

  it("computes ratios and target verdicts from the numbers it is given", () => {
    const met = rows(report(90));
    expect(met[0]).toMatchObject({ label: "stdio sequential round trips", met: true });
    expect(renderMarkdown(report(90))).toContain("| 0.90× |");
    const missed = rows(report(80));
    expect(missed[0].met).toBe(false);
    expect(missed.find((r) => r.label === "first tools from a warm cache").met).toBe(false);
    expect(missed.find((r) => r.label.startsWith("manager cold")).met).toBe(true);
    expect(renderMarkdown(report(80))).toContain("Missed in this run:\n\n- stdio sequential round trips");
  });

  it("labels every scenario by its sizes", () => {
    const labels = rows(report(90)).map((r) => r.label);
    expect(labels).toContain(`manager cold start, 10 stdio servers × 1,000 ms init`);
    expect(MANAGER.length + THROUGHPUT.length).toBe(10);
  });
});

describe("pnpm bench:cli --smoke", () => {
  it("runs every CLI command, ours and mcporter's, on the same config, and renders a section the page keeps", async () => {
    const { measure, renderSection, sectionOf, withSection } = await import("../src/cli-latency.mjs");
    const result = measure({ runs: 1, warmups: 0 });
    expect(result.commands.map((c) => c.id)).toEqual([
      "ours-many",
      "ours-big-cache",
      "ours-no-cache",
      "ours-1",
      "ours-many-node24",
      "mcporter-many",
      "version",
      "node",
      "version-node24",
      "mcporter-version",
      "node24",
    ]);
    for (const c of result.commands.filter(
      (c) => !["version", "node", "version-node24", "mcporter-version", "node24"].includes(c.id),
    ))
      expect(c.ms, c.label).toBeGreaterThan(50); // a process start, a server start and a call
    for (const c of result.commands) expect(c.ms, c.label).toBeGreaterThan(0);
    const section = renderSection(result);
    expect(section).toContain("| mcporter 0.12.3 call, 12 servers configured (Node 24) |");
    expect(section).toMatch(
      /`mcp --version` ÷ `node -e 0`: \*\*[\d.]+×\*\* on Node 20 \(target ≤ 1\.8×: (met|MISSED)\)/,
    );
    const page = "# Benchmarks\n\ntext\n\n## Reproduce\n\nsteps\n";
    const once = withSection(page, section);
    expect(once.indexOf("## CLI latency")).toBeLessThan(once.indexOf("## Reproduce"));
    expect(withSection(once, section)).toBe(once); // replaced in place, not added twice
    expect(sectionOf(once)).toBe(section);
  }, 120_000);
});

describe("pnpm bench:ab summary", () => {
  it("pairs the rounds: the ratio is the median of each round's this ÷ ref, the spread their range, CPU per call alike", async () => {
    const { abSummary, renderAb } = await import("../src/ab-report.mjs");
    const values = {
      "stdio-pipe": { this: [110, 90, 100], ref: [100, 100, 80], raw: [200, 200, 200] },
      "cli-version": { this: [50, 60, 55], ref: [100, 100, 100], node: [40, 40, 40] },
    };
    const cpu = { "stdio-pipe": { this: [5, 6, 5], ref: [10, 10, 10] }, "cli-version": {} };
    const summary = abSummary({
      machine: { cpu: "cpu × 2", node: "v20" },
      ref: "main",
      sha: "0123456789abcdef",
      rows: ["stdio-pipe", "cli-version"],
      values,
      cpu,
      rounds: 3,
      seconds: 10,
    });
    const [pipe, cli] = summary.rows;
    expect(pipe).toMatchObject({ ref: 100, this: 100, ratio: 1.1, min: 0.9, max: 1.25, lowerIsBetter: false });
    expect(pipe.cpu).toMatchObject({ ref: 10, this: 5, ratio: 0.5 });
    expect(pipe.references.raw).toMatchObject({ median: 200, thisRatio: 0.5, refRatio: 0.5 });
    expect(cli).toMatchObject({ ratio: 0.55, lowerIsBetter: true, cpu: undefined });
    const table = renderAb(summary);
    expect(table).toContain(
      "| stdio-pipe | requests/s | 100 | 100 | 1.100× | 0.900–1.250× | 10.00, 5.00, 0.500× (0.500–0.600×) |",
    );
    expect(table).toContain("| mcp --version | ms (lower is better) | 100 | 55 | 0.550× |");
  });
});
