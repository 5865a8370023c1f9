// Turns one run's results into the console table, docs/benchmarks.md and the SVG chart.
// Every number comes from the run; nothing here is a measured value.
import { cpus, release, totalmem, type } from "node:os";
import { versionOf } from "./footprint.mjs";
import { IMPLS } from "./impls.mjs";
import { FEATURE_OFF, IMPL_ORDER as COMPARED, labelOf, MANAGER, TARGETS, THROUGHPUT } from "./scenarios.mjs";

export function machine() {
  const cpu = cpus();
  return {
    cpu: `${cpu[0]?.model ?? "unknown"} × ${cpu.length}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
    versions: {
      "@mcp/client": versionOf("@mcp/client"),
      "@modelcontextprotocol/sdk": versionOf("@modelcontextprotocol/sdk"),
      "@modelcontextprotocol/client": versionOf("@modelcontextprotocol/client"),
    },
  };
}

/** The run as uniform rows: label, unit, values per implementation, and the target verdict. */
export function rows(report) {
  const { table, sizes } = report;
  const out = [];
  const add = (section, label, unit, lowerIsBetter, values, target) => {
    const verdict = target ? target.check(values, sizes) : undefined;
    out.push({ section, label, unit, lowerIsBetter, values, target: target?.text, met: verdict });
  };
  for (const row of THROUGHPUT)
    if (table.throughput[row.id])
      add(
        "throughput",
        labelOf(row, sizes),
        row.id.endsWith("big") ? "results/s" : "requests/s",
        false,
        table.throughput[row.id],
        TARGETS.throughput,
      );
  for (const row of MANAGER)
    if (table.manager[row.id]) add("manager", labelOf(row, sizes), "ms", true, table.manager[row.id], TARGETS[row.id]);
  for (const row of THROUGHPUT)
    if (table.rss[row.id]) add("rss", `peak RSS: ${labelOf(row, sizes)}`, "MB", true, table.rss[row.id], TARGETS.rss);
  const fp = table.footprint;
  if (fp.ours) {
    const pick = (key, scale) =>
      Object.fromEntries(["ours", "sdk1", "sdk2"].map((impl) => [impl, fp[impl][key] / scale]));
    add(
      "footprint",
      "bundle, minified (client + stdio + HTTP, undici included)",
      "KB",
      true,
      pick("minBytes", 1000),
      undefined,
    );
    add("footprint", "bundle, minified + gzip (undici included)", "KB", true, pick("gzipBytes", 1000), undefined);
    if (fp.ours.ownGzipBytes !== undefined)
      add(
        "footprint",
        "bundle, minified + gzip, our code (undici not bundled)",
        "KB",
        true,
        pick("ownGzipBytes", 1000),
        TARGETS.bundle,
      );
    if (fp.ours.browserMinBytes !== undefined) {
      add(
        "footprint",
        "browser bundle, minified (client + Streamable HTTP)",
        "KB",
        true,
        pick("browserMinBytes", 1000),
        undefined,
      );
      add("footprint", "browser bundle, minified + gzip", "KB", true, pick("browserGzipBytes", 1000), undefined);
    }
    add("footprint", "installed production dependencies", "MB", true, pick("installedBytes", 1e6), TARGETS.installed);
    add("footprint", "packages installed", "", true, pick("packages", 1), undefined);
  }
  return out;
}

function num(v, unit) {
  if (v === null || v === undefined) return "—";
  if (unit === "MB" || unit === "KB") return v.toFixed(1);
  if (v >= 100 || unit === "ms" || unit === "") return Math.round(v).toLocaleString("en-US");
  return v.toFixed(1);
}

function ratio(a, b) {
  return a === null || b === null || a === undefined || b === undefined || b === 0 ? "—" : `${(a / b).toFixed(2)}×`;
}

function verdict(met) {
  return met === undefined ? "" : met ? "met" : "MISSED";
}

function cells(row) {
  return [
    `${row.label}${row.unit ? ` (${row.unit})` : ""}`,
    ...COMPARED.map((impl) => num(row.values[impl], row.unit)),
    ratio(row.values.ours, row.values.sdk1),
    ratio(row.values.ours, row.values.sdk2),
    ratio(row.values.ours, row.values.raw),
    ratio(row.values.ours, row.values.undici),
    ratio(row.values.ours, row.values.bound),
    row.target ? `${row.target}: ${verdict(row.met)}` : "",
  ];
}

const HEADER = [
  "",
  ...COMPARED.map((impl) => IMPLS[impl].label),
  "ours/SDK 1",
  "ours/SDK 2",
  "ours/raw",
  "ours/undici",
  "ours/server-bound",
  "target",
];

/** The feature-off rows: ours, the variant without the feature's package, their ratio and spread, the verdict. */
export function featureOffRows(report) {
  const measured = report.table.featureOff ?? {};
  return FEATURE_OFF.filter((row) => measured[row.id]).map((row) => {
    const m = measured[row.id];
    return {
      label: labelOf(row, report.sizes),
      ...m,
      target: TARGETS.featureOff.text,
      met: TARGETS.featureOff.check(m.ratio),
    };
  });
}

function featureOffTable(report) {
  const rowsOff = featureOffRows(report);
  if (rowsOff.length === 0) return "Not measured in this run.";
  return [
    "| row | with the package, unused (requests/s) | without it (requests/s) | ratio (spread over the rounds) | target |",
    "|---|---:|---:|---:|---|",
    ...rowsOff.map(
      (r) =>
        `| ${r.label} | ${num(r.ours, "requests/s")} | ${num(r.off, "requests/s")} | ${r.ratio.toFixed(3)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)}×) | ${r.target}: ${verdict(r.met)} |`,
    ),
  ].join("\n");
}

export function renderConsole(report) {
  const body = rows(report).map(cells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r) =>
    r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const m = report.machine;
  const off = featureOffRows(report).map(
    (r) =>
      `${r.label}: ${r.ratio.toFixed(3)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)}×), ${r.target}: ${verdict(r.met)}`,
  );
  return [
    `MCP client benchmark${report.smoke ? " (SMOKE: tiny sizes, numbers mean nothing)" : ""} — ${m.cpu}, ${m.memoryGb} GB, ${m.os}, Node ${m.node}; median of ${report.sizes.rounds} rounds after ${report.sizes.warmupRounds} warm-up; ${report.seconds.toFixed(0)} s`,
    line(HEADER),
    ...body.map(line),
    ...off,
    "",
  ].join("\n");
}

export function renderMarkdown(report) {
  const m = report.machine;
  const all = rows(report);
  const table = (section) => {
    const body = all.filter((r) => r.section === section).map(cells);
    return [
      `| ${HEADER.join(" | ")} |`,
      `|${HEADER.map((_, i) => (i === 0 || i === HEADER.length - 1 ? "---" : "---:")).join("|")}|`,
      ...body.map((r) => `| ${r.join(" | ")} |`),
    ].join("\n");
  };
  const missed = [...all, ...featureOffRows(report)]
    .filter((r) => r.met === false)
    .map((r) => `- ${r.label}: ${r.target}`);
  return `# Benchmarks

<!-- Generated by \`pnpm bench -- --write\` (apps/bench). Do not edit by hand: every number below comes from one run. -->

This stack (\`@mcp/client\` ${m.versions["@mcp/client"]} over \`@mcp/transport-stdio\` and \`@mcp/transport-http\`) beside the official
TypeScript SDK clients (\`@modelcontextprotocol/sdk\` ${m.versions["@modelcontextprotocol/sdk"]} and \`@modelcontextprotocol/client\`
${m.versions["@modelcontextprotocol/client"]}) and a raw baseline, measured in the same run.

- **Machine:** ${m.cpu}, ${m.memoryGb} GB, ${m.os}; Node ${m.node}; ${m.date}.
- **Method:** each implementation runs each scenario in a process of its own (so its peak RSS is its own), against the
  same minimal echo servers (\`apps/bench/src/servers\`: stdio JSONL; HTTP answering JSON or one-event SSE, no sessions).
  Implementations alternate within a round, each round starting with a different one; ${report.sizes.warmupRounds} warm-up round is
  discarded, then each figure is the median of ${report.sizes.rounds} rounds (each round's figure is itself the median of
  ${report.sizes.reps} repetitions, after ${report.sizes.warmCalls} warm-up calls and ${report.sizes.warmReps ?? 1} unmeasured repetitions: a fresh process needs those
  before V8 has compiled the hot path, and steady state is what a long-lived client sees). A pipelined repetition is
  ${report.sizes.pipeBursts ?? 1} bursts in a row (a burst of ours or raw is over in well under 100 ms); the 5 MB rows take ${report.sizes.bigReps} repetitions. The run took ${Math.round(report.seconds)} s.
- **raw limit** is the least work a client can do: write the JSON line (or POST on a keep-alive \`node:http\` agent with
  the same 64-socket limit as ours), split, \`JSON.parse\`, resolve by id. No validation, no timeouts, no cleanup: the
  physical limit of this machine, not a client anyone should use. Over HTTP it is the limit of \`node:http\`, not of the
  machine: \`node:http\`'s own work is most of a request's cost there.
- **raw undici** (HTTP rows only) is undici's \`Pool.request\` on one 64-connection pool: POST, read the body as text,
  \`JSON.parse\`. \`@mcp/transport-http\` is built on the same client (its \`dispatch()\`, with a handler of its own), so
  this is the limit of our HTTP path.
- **server-bound** (call rows) is no client at all: the same echo server fed requests built before the clock starts.
  Over stdio a pipelined burst is every request in one write, answers counted by newline (sequential: one line written,
  one newline awaited); over HTTP a load generator writes pre-built requests on raw keep-alive sockets (64 for a burst,
  one for sequential), one request at a time per socket, and counts complete answers. What the server and the pipe or
  socket allow: the bound of every client (\`src/server-bound.mjs\`).
- Every request is a \`tools/call\` (the \`echo\` tool, or \`big\` for the 5 MB rows) through each client's public API.
- Ratios are plain quotients \`ours / other\`: above 1 is better for rates, below 1 is better for times and sizes.

![Each implementation as a fraction of the raw limit](benchmarks.svg)

## Throughput (higher is better)

${table("throughput")}

## Features nobody turned on

Ours as the throughput table measures it (\`@opentelemetry/api\` is installed in this workspace, and nothing
registers a tracer) beside ours in a process where the package cannot be found, as in a program that never installed
it; the two run back to back in each round, and the ratio is the median of the rounds' ratios. Every figure of ours
above also carries the other features a call could use but nobody turned on here: tasks (the echo server offers none),
result budgets, skills and caching hints.

${featureOffTable(report)}

## Manager start-up (lower is better)

Ours is \`MCPManager.connectServers\`; the SDKs have no manager, so they connect each server and list its tools one
after another, as popular wrappers do; raw starts every server at once and lists tools in parallel. Each server answers
\`initialize\` ${report.sizes.initDelayMs} ms after its process starts.

${table("manager")}

## Peak RSS (lower is better)

${table("rss")}

## Footprint (lower is better)

The bundle is esbuild (\`bundle\`, \`minify\`, ESM, \`platform: node\`, same settings for all) of a client, the stdio
transport and the Streamable HTTP transport; gzip is level 9. Installed size is the sum of file sizes of every package in a
production install of \`@mcp/client\`, \`@modelcontextprotocol/sdk\` or \`@modelcontextprotocol/client\` (workspace
packages counted as the files \`npm pack\` would publish).

Since \`@mcp/transport-http\` runs on undici (its hand-written HTTP/1.1 client let bytes after a large body answer the
next request and re-sent a POST the server had read; see its README), undici is in this bundle and in the install: about
170 KB of the gzipped bundle and 2.2 MB of the installed size. The SDKs use Node's built-in \`fetch\`, which is undici
too, but shipped inside Node (and, on Node 20 and 22, blind to \`HTTPS_PROXY\`). The "our code" row bundles everything
but undici; the size targets were set before undici came in.

The browser bundle is what a web app or a worker ships: a client and the Streamable HTTP transport, esbuild with
\`platform: browser\` (same settings for all). Ours takes the \`fetch\` path there (no undici, no stdio transport, no Node
built-in; \`apps/example/test/browser.test.ts\` runs it in Chromium).

${table("footprint")}

## Targets

${missed.length === 0 ? "Every target of the row it applies to was met in this run." : `Missed in this run:\n\n${missed.join("\n")}`}

## Reproduce

\`\`\`sh
npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 build
npx -y pnpm@10.34.9 bench              # print the table (about ${Math.max(1, Math.round(report.seconds / 60))} min here)
npx -y pnpm@10.34.9 bench -- --write   # regenerate this page and the chart
\`\`\`

Options: \`--rounds N\`, \`--only stdio-seq,http-big\` (scenario ids: ${[...THROUGHPUT, ...MANAGER].map((s) => `\`${s.id}\``).join(", ")}), \`--json\`.
The test command runs \`--smoke\` (every scenario at tiny sizes) so the bench cannot rot.
`;
}

const COLORS = { ours: "#2f7d32", sdk1: "#9e9e9e", sdk2: "#607d8b" };

function esc(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Grouped horizontal bars: each implementation's rate as a fraction of the raw limit, per throughput row. */
export function renderSvg(report) {
  const data = rows(report).filter((r) => r.section === "throughput");
  const impls = ["ours", "sdk1", "sdk2"];
  const labelW = 250;
  const chartW = 430;
  const barH = 12;
  const groupH = impls.length * barH + 14;
  const top = 40;
  const height = top + data.length * groupH + 36;
  const width = labelW + chartW + 70;
  const max = Math.max(1.1, ...data.flatMap((r) => impls.map((i) => r.values[i] / r.values.raw)));
  const x = (f) => labelW + (f / max) * chartW;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="-apple-system,Segoe UI,Helvetica,Arial,sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">Fraction of the raw limit (higher is better) — Node ${esc(report.machine.node)}, ${esc(report.machine.date)}</text>`,
  ];
  impls.forEach((impl, i) => {
    parts.push(
      `<rect x="${10 + i * 130}" y="26" width="10" height="10" fill="${COLORS[impl]}"/><text x="${24 + i * 130}" y="35">${esc(IMPLS[impl].label)}</text>`,
    );
  });
  data.forEach((row, g) => {
    const y0 = top + g * groupH;
    parts.push(
      `<text x="${labelW - 8}" y="${y0 + (impls.length * barH) / 2 + 4}" text-anchor="end">${esc(row.label)}</text>`,
    );
    impls.forEach((impl, i) => {
      const f = row.values[impl] / row.values.raw;
      const y = y0 + i * barH;
      parts.push(
        `<rect x="${labelW}" y="${y}" width="${Math.max(0, x(f) - labelW).toFixed(1)}" height="${barH - 2}" fill="${COLORS[impl]}"/>`,
      );
      parts.push(`<text x="${(x(f) + 4).toFixed(1)}" y="${y + barH - 3}" font-size="10">${f.toFixed(2)}</text>`);
    });
  });
  const bottom = top + data.length * groupH;
  for (const [f, dash, label] of [
    [1, "", "raw = 1.00"],
    [0.85, "4 3", "0.85"],
  ]) {
    parts.push(
      `<line x1="${x(f).toFixed(1)}" y1="${top - 4}" x2="${x(f).toFixed(1)}" y2="${bottom}" stroke="#c62828" stroke-width="1" ${dash ? `stroke-dasharray="${dash}"` : ""}/>`,
    );
    parts.push(
      `<text x="${x(f).toFixed(1)}" y="${bottom + 14}" text-anchor="middle" font-size="10" fill="#c62828">${label}</text>`,
    );
  }
  parts.push(
    `<text x="10" y="${height - 6}" font-size="10" fill="#555">Generated by pnpm bench -- --write from the run in docs/benchmarks.md.</text>`,
    "</svg>",
    "",
  );
  return parts.join("\n");
}
