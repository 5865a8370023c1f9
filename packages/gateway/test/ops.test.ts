// The operations endpoints: `/healthz` and `/readyz` for probes (unauthenticated, saying nothing
// more), `/metrics` in the Prometheus text format (read back with a Prometheus text parser) behind
// its own token or to loopback only, and none of them served unless turned on.
import { createRequire } from "node:module";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

interface Family {
  name: string;
  type: string;
  metrics: {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }[];
}
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

const TOKEN = "caller-token-0123456789";
const METRICS_TOKEN = "metrics-token-0123456789";
const tokens = new Map([[TOKEN, { id: "caller", name: "caller", deny: ["up__slow"] }]]);

describe("operations endpoints", () => {
  let upstream: V2HttpServer;
  let withToken: OidcGateway;
  let loopbackOnly: OidcGateway;
  let plain: OidcGateway;

  beforeAll(async () => {
    upstream = await startV2HttpServer({ legacy: "reject" });
    [withToken, loopbackOnly, plain] = await Promise.all([
      oidcGateway(upstream.url, () => ({ tokens, operations: { probes: true, metrics: { token: METRICS_TOKEN } } })),
      oidcGateway(upstream.url, () => ({ tokens, operations: { probes: true, metrics: true } })),
      oidcGateway(upstream.url, () => ({ tokens })),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([withToken?.stop(), loopbackOnly?.stop(), plain?.stop()]);
    await upstream?.stop();
  });

  it("answers /healthz and /readyz without a token, saying nothing more", async () => {
    const health = await fetch(`${withToken.origin}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
    const ready = await fetch(`${withToken.origin}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, "ready\n"]);
  });

  it("is not ready while an upstream is not connected (alive all the same), and says nothing of which", async () => {
    const gone = await startV2HttpServer({ legacy: "reject" });
    await gone.stop();
    const partial = await oidcGateway(upstream.url, () => ({ tokens, operations: { probes: true } }), {
      gone: { type: "http", url: gone.url },
    });
    try {
      expect(partial.manager.getConnectionStatus("gone")?.state).toBe("failed");
      const down = await fetch(`${partial.origin}/readyz`);
      expect([down.status, await down.text()]).toEqual([503, "not ready\n"]);
      expect((await fetch(`${partial.origin}/healthz`)).status).toBe(200);
    } finally {
      await partial.stop();
    }
  });

  it("counts requests, refusals and tool latency, and states each upstream's state, in Prometheus text", async () => {
    expect((await callAdd(withToken.url, TOKEN)).status).toBe(200);
    expect((await callAdd(withToken.url, TOKEN)).status).toBe(200);
    expect((await callAdd(withToken.url, "wrong-token-0123456789")).status).toBe(401);
    const response = await fetch(`${withToken.origin}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    // The audit entries reach the metrics off the request's path: wait until both calls are counted.
    let text = await response.text();
    for (let i = 0; i < 50 && !text.includes('mcp_gateway_tool_call_duration_seconds_count{tool="up__add"} 2\n'); i++) {
      await new Promise((resolve) => setImmediate(resolve));
      text = await (
        await fetch(`${withToken.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
    }
    const families = parsePrometheus(text);
    const family = (name: string): Family =>
      families.find((f) => f.name === name) ?? { name, type: "missing", metrics: [] };
    expect(family("mcp_gateway_requests_total").type).toBe("COUNTER");
    expect(family("mcp_gateway_requests_total").metrics).toEqual(
      expect.arrayContaining([{ labels: { method: "tools/call", decision: "allowed", outcome: "ok" }, value: "2" }]),
    );
    expect(family("mcp_gateway_errors_total").metrics).toEqual(
      expect.arrayContaining([{ labels: { method: "none", reason: "unauthenticated" }, value: "1" }]),
    );
    // The parser reads a histogram's buckets but not its labels: the per-tool lines are read as written.
    expect(family("mcp_gateway_tool_call_duration_seconds").type).toBe("HISTOGRAM");
    expect(text).toContain('mcp_gateway_tool_call_duration_seconds_bucket{tool="up__add",le="+Inf"} 2\n');
    expect(text).toContain('mcp_gateway_tool_call_duration_seconds_count{tool="up__add"} 2\n');
    expect(text).toMatch(/^mcp_gateway_tool_call_duration_seconds_sum\{tool="up__add"\} \d+(\.\d+)?(e-\d+)?$/m);
    expect(family("mcp_gateway_upstream_state").metrics).toEqual(
      expect.arrayContaining([
        { labels: { server: "up", state: "connected" }, value: "1" },
        { labels: { server: "up", state: "failed" }, value: "0" },
      ]),
    );
    expect(family("mcp_gateway_sessions").type).toBe("GAUGE");
  });

  it("serves /metrics only with its token (the callers' tokens are not it)", async () => {
    expect((await fetch(`${withToken.origin}/metrics`)).status).toBe(401);
    expect((await fetch(`${withToken.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      401,
    );
  });

  it("serves /metrics without a token to loopback only, and by a loopback name only", async () => {
    expect((await fetch(`${loopbackOnly.origin}/metrics`)).status).toBe(200);
    // A page rebinding its own name to 127.0.0.1 sends that name as Host.
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      request(
        `${loopbackOnly.origin}/metrics`,
        { headers: { host: "attacker.example" } },
        (res) => (res.resume(), resolve(res.statusCode ?? 0)),
      )
        .on("error", reject)
        .end();
    });
    expect(status).toBe(403);
  });

  it("serves none of them unless turned on: those paths are the gateway's as before (401 before anything)", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics", "/.well-known/oauth-protected-resource"])
      expect((await fetch(`${plain.origin}${path}`)).status).toBe(401);
  });
});
