// The rows `pnpm bench:ab` can measure, and its summary: per row the median of each side, and the
// ratio this ÷ ref of each round (the spread is the range of those ratios).
import { THROUGHPUT } from "./scenarios.mjs";
import { median } from "./scenarios.mjs";

/**
 * Every row: `throughput` rows run `worker.mjs` (ours, from each side's packages); `cli` rows time
 * a fresh `mcp --version` of each side's CLI (beside a bare `node -e 0`), or a fresh
 * `mcp call srv.echo message=hi` with 12 stdio servers configured (server-everything); `gateway` rows run
 * `gateway-cell.mjs`: each side's `mcp serve --http` in front of the bench's HTTP echo server,
 * called by this tree's client (at 2026-07-28, or as a 2025 session declaring roots: `gateway-roots*`,
 * or at 2026-07-28 declaring roots and sampling: `gateway-capable*`).
 */
export const AB_ROWS = {
  ...Object.fromEntries(
    THROUGHPUT.map((row) => [
      row.id,
      {
        kind: "throughput",
        label: row.id,
        unit: row.id.endsWith("big") ? "results/s" : "requests/s",
        lowerIsBetter: false,
      },
    ]),
  ),
  "stdio-pipe-manager": {
    kind: "throughput",
    label: "stdio-pipe through MCPManager",
    unit: "requests/s",
    lowerIsBetter: false,
    scenario: "stdio-pipe",
    impl: "ours-manager",
  },
  "stdio-seq-manager": {
    kind: "throughput",
    label: "stdio-seq through MCPManager",
    unit: "requests/s",
    lowerIsBetter: false,
    scenario: "stdio-seq",
    impl: "ours-manager",
  },
  "cli-version": { kind: "cli", label: "mcp --version", unit: "ms", lowerIsBetter: true },
  "cli-call": { kind: "cli", label: "mcp call, 12 servers configured", unit: "ms", lowerIsBetter: true, call: true },
  "gateway-echo": {
    kind: "gateway",
    label: "gateway, 32 in flight",
    unit: "calls/s",
    lowerIsBetter: false,
    field: "rate",
    options: { concurrency: 32 },
  },
  "gateway-p50": {
    kind: "gateway",
    label: "gateway p50, one caller",
    unit: "ms",
    lowerIsBetter: true,
    field: "p50",
    options: { concurrency: 1 },
  },
  // A 2025 session whose client declares roots, as Claude Code, VS Code and Cursor do.
  "gateway-roots": {
    kind: "gateway",
    label: "gateway, 2025 caller declaring roots, 32 in flight",
    unit: "calls/s",
    lowerIsBetter: false,
    field: "rate",
    options: { concurrency: 32, roots: true },
  },
  "gateway-roots-p50": {
    kind: "gateway",
    label: "gateway p50, 2025 caller declaring roots",
    unit: "ms",
    lowerIsBetter: true,
    field: "p50",
    options: { concurrency: 1, roots: true },
  },
  // A 2026-07-28 caller that can be asked (roots and sampling in each request's envelope).
  "gateway-capable": {
    kind: "gateway",
    label: "gateway, 2026-07-28 caller declaring roots and sampling, 32 in flight",
    unit: "calls/s",
    lowerIsBetter: false,
    field: "rate",
    options: { concurrency: 32, capable: true },
  },
  "gateway-capable-p50": {
    kind: "gateway",
    label: "gateway p50, 2026-07-28 caller declaring roots and sampling",
    unit: "ms",
    lowerIsBetter: true,
    field: "p50",
    options: { concurrency: 1, capable: true },
  },
  // A 2026-07-28 caller asking for progress (a progress token) and logs (a log level) on each call.
  "gateway-progress": {
    kind: "gateway",
    label: "gateway, 2026-07-28 caller asking for progress and logs, 32 in flight",
    unit: "calls/s",
    lowerIsBetter: false,
    field: "rate",
    options: { concurrency: 32, progress: true },
  },
  "gateway-progress-p50": {
    kind: "gateway",
    label: "gateway p50, 2026-07-28 caller asking for progress and logs",
    unit: "ms",
    lowerIsBetter: true,
    field: "p50",
    options: { concurrency: 1, progress: true },
  },
};

/** What `pnpm bench:ab <ref>` measures without `--rows`: the hot paths and the CLI's start-up. */
export const DEFAULT_AB_ROWS = [
  "stdio-seq",
  "stdio-pipe",
  "http-json-seq",
  "http-json-pipe",
  "http-sse-seq",
  "http-sse-pipe",
  "cli-version",
];

/** The run as rows: medians per side, the per-round ratios this ÷ ref, and this ÷ each reference. */
export function abSummary({ machine, ref, sha, rows, values, cpu, rounds, seconds }) {
  return {
    machine,
    ref,
    sha,
    rounds,
    seconds,
    rows: rows.map((id) => {
      const v = values[id];
      const ratios = (v.this ?? []).map((x, i) => x / v.ref[i]);
      const references = Object.fromEntries(
        Object.keys(v)
          .filter((k) => k !== "this" && k !== "ref")
          .map((k) => [
            k,
            {
              median: median(v[k]),
              thisRatio: median(v.this.map((x, i) => x / v[k][i])),
              refRatio: median(v.ref.map((x, i) => x / v[k][i])),
            },
          ]),
      );
      const c = cpu[id] ?? {};
      const cpuRatios = c.this && c.ref ? c.this.map((x, i) => x / c.ref[i]) : [];
      const cpuOf =
        cpuRatios.length === 0
          ? undefined
          : {
              ref: median(c.ref),
              this: median(c.this),
              ratio: median(cpuRatios),
              min: Math.min(...cpuRatios),
              max: Math.max(...cpuRatios),
            };
      return {
        id,
        ...AB_ROWS[id],
        ref: median(v.ref),
        this: median(v.this),
        ratio: median(ratios),
        min: Math.min(...ratios),
        max: Math.max(...ratios),
        ratios,
        references,
        cpu: cpuOf,
      };
    }),
  };
}

function num(v, unit) {
  return unit === "ms" || v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(1);
}

/** The console table. */
export function renderAb(summary) {
  const lines = [
    `this tree ÷ ${summary.ref} (${summary.sha.slice(0, 12)}), ${summary.rounds} rounds after a warm-up round, alternating; ${summary.machine.cpu}, Node ${summary.machine.node}; ${Math.round(summary.seconds)} s`,
    "",
    "| row | unit | ref | this tree | this ÷ ref | spread (rounds) | client CPU µs/call: ref, this, this ÷ ref (spread) | beside |",
    "|---|---|---:|---:|---:|---|---|---|",
  ];
  for (const r of summary.rows) {
    const beside = Object.entries(r.references)
      .map(([k, x]) => `${k} ${num(x.median, r.unit)}: this ${x.thisRatio.toFixed(2)}×, ref ${x.refRatio.toFixed(2)}×`)
      .join("; ");
    const cpu = r.cpu
      ? `${r.cpu.ref.toFixed(2)}, ${r.cpu.this.toFixed(2)}, ${r.cpu.ratio.toFixed(3)}× (${r.cpu.min.toFixed(3)}–${r.cpu.max.toFixed(3)}×)`
      : "";
    lines.push(
      `| ${r.label} | ${r.unit}${r.lowerIsBetter ? " (lower is better)" : ""} | ${num(r.ref, r.unit)} | ${num(r.this, r.unit)} | ${r.ratio.toFixed(3)}× | ${r.min.toFixed(3)}–${r.max.toFixed(3)}× | ${cpu} | ${beside} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
