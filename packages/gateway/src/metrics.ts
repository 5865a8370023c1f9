// Prometheus metrics of a gateway, counted from its audit entries (so a gateway without metrics
// counts nothing) and written in the Prometheus text format (version 0.0.4) when scraped.

import type { MCPManager } from "@mcp/manager";
import type { AuditEntry } from "./audit.js";

/** The upper bounds (seconds) of the request latency histogram's buckets. */
export const LATENCY_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The most distinct label values kept for a label callers choose (a tool name, a method): the rest count as `other`. */
const MAX_LABEL_VALUES = 500;

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

/** A label value as the text format writes it: backslash, quote and newline escaped. */
function label(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** The states a server may be in, each written for every server (1 for its state, 0 for the others). */
const STATES = ["idle", "connecting", "connected", "reconnecting", "failed", "disabled", "not-approved"] as const;

/** The help line of each gauge of what a gateway holds (`GatewayStats` and more). */
const HOLDS: Record<string, string> = {
  sessions: "2025-era sessions held here.",
  lanes: "Callers' own upstream connections, open or opening.",
  connections: "Server instances with a connection of their own (stdio connections and 2025 sessions).",
  rounds: "2026-07-28 upstream requests waiting for their caller to come back with an answer.",
  in_flight: "Requests in flight upstream now, of every caller.",
  exchanged_tokens: "Users' own upstream tokens kept (token exchange).",
};

/** What a gateway counts: fed its audit entries by {@link GatewayMetrics.record}, written by {@link GatewayMetrics.render}. */
export class GatewayMetrics {
  readonly #requests = new Map<string, number>();
  readonly #errors = new Map<string, number>();
  readonly #latency = new Map<string, Histogram>();
  readonly #seen = new Set<string>();
  readonly #limited = new Map<string, number>();

  /** Counts one audit entry (an `AuditSink`). */
  readonly record = (entry: AuditEntry): void => {
    if (entry.decision === "held") return;
    const method = this.#bounded(`method:${entry.method ?? "none"}`, entry.method ?? "none");
    if (entry.decision === "rate-limited")
      this.#limited.set(`method="${label(method)}"`, (this.#limited.get(`method="${label(method)}"`) ?? 0) + 1);
    const outcome = entry.outcome ?? "none";
    const key = `method="${label(method)}",decision="${entry.decision}",outcome="${outcome}"`;
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1);
    const failed = entry.decision !== "allowed" || (outcome !== "ok" && outcome !== "cancelled");
    if (failed) {
      const reason = entry.decision === "allowed" ? outcome : entry.decision;
      const errorKey = `method="${label(method)}",reason="${reason}"`;
      this.#errors.set(errorKey, (this.#errors.get(errorKey) ?? 0) + 1);
    }
    if (entry.decision !== "allowed" || entry.tool === undefined) return;
    const tool = this.#bounded(`tool:${entry.tool}`, entry.tool);
    let histogram = this.#latency.get(tool);
    if (!histogram) this.#latency.set(tool, (histogram = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    const seconds = entry.durationMs / 1000;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) histogram.buckets[i]!++;
    histogram.sum += seconds;
    histogram.count++;
  };

  /** `value`, or `other` once {@link MAX_LABEL_VALUES} distinct values were seen (callers choose them). */
  #bounded(key: string, value: string): string {
    if (this.#seen.has(key)) return value;
    if (this.#seen.size >= MAX_LABEL_VALUES) return "other";
    this.#seen.add(key);
    return value;
  }

  /** The metrics in the Prometheus text format: the counts, each upstream's state, and what the gateway holds now. */
  render(manager: MCPManager, holds: Record<string, number>): string {
    const lines: string[] = [];
    const counter = (name: string, help: string, values: Map<string, number>): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [labels, value] of values) lines.push(`${name}{${labels}} ${value}`);
    };
    counter(
      "mcp_gateway_requests_total",
      "Requests handled, by JSON-RPC method, decision and outcome.",
      this.#requests,
    );
    counter("mcp_gateway_errors_total", "Requests refused or failed, by JSON-RPC method and reason.", this.#errors);
    counter(
      "mcp_gateway_rate_limited_total",
      "Requests refused by a caller's rate limit, by JSON-RPC method.",
      this.#limited,
    );
    lines.push(
      "# HELP mcp_gateway_tool_call_duration_seconds Latency of allowed tool calls, by tool (<server>__<tool>).",
      "# TYPE mcp_gateway_tool_call_duration_seconds histogram",
    );
    for (const [tool, h] of this.#latency) {
      const t = `tool="${label(tool)}"`;
      LATENCY_BUCKETS.forEach((le, i) =>
        lines.push(`mcp_gateway_tool_call_duration_seconds_bucket{${t},le="${le}"} ${h.buckets[i]}`),
      );
      lines.push(
        `mcp_gateway_tool_call_duration_seconds_bucket{${t},le="+Inf"} ${h.count}`,
        `mcp_gateway_tool_call_duration_seconds_sum{${t}} ${h.sum}`,
        `mcp_gateway_tool_call_duration_seconds_count{${t}} ${h.count}`,
      );
    }
    lines.push(
      "# HELP mcp_gateway_upstream_state Each upstream server's state (1 for the state it is in).",
      "# TYPE mcp_gateway_upstream_state gauge",
    );
    for (const status of manager.getStatuses()) {
      for (const state of STATES)
        lines.push(
          `mcp_gateway_upstream_state{server="${label(status.name)}",state="${state}"} ${status.state === state ? 1 : 0}`,
        );
    }
    lines.push(
      "# HELP mcp_gateway_upstream_tools Tools each upstream server offers.",
      "# TYPE mcp_gateway_upstream_tools gauge",
    );
    for (const status of manager.getStatuses())
      lines.push(`mcp_gateway_upstream_tools{server="${label(status.name)}"} ${status.toolCount}`);
    lines.push(
      "# HELP mcp_gateway_held_tools Tools held for approval (their definition changed since approved, or new): served to nobody.",
      "# TYPE mcp_gateway_held_tools gauge",
      `mcp_gateway_held_tools ${manager.pins.held().length}`,
    );
    for (const [name, value] of Object.entries(holds)) {
      lines.push(
        `# HELP mcp_gateway_${name} ${HOLDS[name] ?? `What the gateway holds now: ${name}.`}`,
        `# TYPE mcp_gateway_${name} gauge`,
        `mcp_gateway_${name} ${value}`,
      );
    }
    return `${lines.join("\n")}\n`;
  }
}
