// The scenarios, their sizes (full and smoke) and the targets each row is held to.

/** Throughput rows: requests (or 5 MB results) per second, higher is better. */
export const THROUGHPUT = [
  { id: "stdio-seq", label: "stdio sequential round trips" },
  { id: "stdio-pipe", label: "stdio {pipe} pipelined" },
  { id: "stdio-big", label: "stdio {bigCount} × {bigMb} MB results" },
  { id: "http-json-seq", label: "HTTP JSON sequential" },
  { id: "http-json-pipe", label: "HTTP JSON {httpPipe} pipelined" },
  { id: "http-sse-seq", label: "HTTP SSE sequential" },
  { id: "http-sse-pipe", label: "HTTP SSE {httpPipe} pipelined" },
  { id: "http-big", label: "HTTP {bigCount} × {bigMb} MB results" },
];

/** Manager rows: milliseconds, lower is better. */
export const MANAGER = [
  { id: "manager-cold", label: "manager cold start, {servers} stdio servers × {initDelayMs} ms init" },
  { id: "manager-warm", label: "first tools from a warm cache" },
];

export const IMPL_ORDER = ["ours", "sdk1", "sdk2", "raw", "undici", "bound"];

/**
 * What a feature nobody turned on costs: ours on a scenario beside a variant of ours without the
 * feature's package, measured in the same rounds (right after ours), as the median of the rounds'
 * ratios. Target: within 3 % either way.
 */
export const FEATURE_OFF = [
  {
    id: "otel-off",
    scenario: "stdio-pipe",
    impl: "ours-no-otel",
    label: "stdio {pipe} pipelined: `@opentelemetry/api` installed, no tracer registered ÷ not installed",
  },
];

export const SIZES = {
  full: {
    rounds: 5,
    warmupRounds: 1,
    reps: 5,
    warmCalls: 300,
    warmReps: 4,
    seq: 2000,
    pipe: 5000,
    httpSeq: 1000,
    httpPipe: 1000,
    pipeBursts: 3,
    bigCount: 10,
    bigBytes: 5 * 1024 * 1024,
    bigReps: 4,
    servers: 10,
    initDelayMs: 1000,
    managerReps: 1,
  },
  smoke: {
    rounds: 1,
    warmupRounds: 0,
    reps: 1,
    warmCalls: 5,
    warmReps: 1,
    seq: 20,
    pipe: 50,
    httpSeq: 20,
    httpPipe: 50,
    pipeBursts: 1,
    bigCount: 2,
    bigBytes: 64 * 1024,
    bigReps: 1,
    servers: 3,
    initDelayMs: 50,
    managerReps: 1,
  },
};

/** The options a worker gets for one scenario (HTTP rows use their own counts). */
export function workerOptions(sizes, scenario, baseUrl) {
  const http = scenario.startsWith("http");
  return { ...sizes, seq: http ? sizes.httpSeq : sizes.seq, pipe: http ? sizes.httpPipe : sizes.pipe, baseUrl };
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function labelOf(row, sizes) {
  return row.label.replace(/\{(\w+)\}/g, (_, key) =>
    key === "bigMb" ? String(sizes.bigBytes / 1024 / 1024) : Number(sizes[key]).toLocaleString("en-US"),
  );
}

/** The targets. Each returns true (met), false (missed) or undefined (not applicable). */
export const TARGETS = {
  // Over HTTP the raw baseline is raw undici \`Pool.request\` (what ours is built on) as well as node:http.
  throughput: {
    text: "≥ 0.85× raw (and raw undici) and ≥ each SDK",
    check: (v) =>
      v.ours / v.raw >= 0.85 && (v.undici == null || v.ours / v.undici >= 0.85) && v.ours >= v.sdk1 && v.ours >= v.sdk2,
  },
  rss: { text: "below each SDK", check: (v) => v.ours < v.sdk1 && v.ours < v.sdk2 },
  "manager-cold": {
    text: "≤ 1,500 ms",
    check: (v, sizes) => (sizes.initDelayMs === 1000 && sizes.servers === 10 ? v.ours <= 1500 : undefined),
  },
  "manager-warm": { text: "≤ 300 ms", check: (v) => v.ours <= 300 },
  bundle: { text: "≤ 25 % of SDK 1.x", check: (v) => v.ours <= 0.25 * v.sdk1 },
  featureOff: { text: "within 3 %", check: (ratio) => Math.abs(ratio - 1) <= 0.03 },
  installed: { text: "≤ 5 % of SDK 1.x", check: (v) => v.ours <= 0.05 * v.sdk1 },
};
