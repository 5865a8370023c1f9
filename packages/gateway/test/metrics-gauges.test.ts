// /metrics covers what the gateway holds and refuses, read back with a Prometheus text parser:
// 2025 sessions, requests in flight upstream, held tools (gauges), rate-limit refusals (a counter).
import { createRequire } from "node:module";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

interface Family {
  name: string;
  type: string;
  help: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

const TOKEN = "gauge-caller-token-0123456789";
const LIMITED = "gauge-limited-token-0123456789";
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

describe("/metrics: sessions, in flight, held tools, rate-limit refusals", () => {
  let upstream: V2HttpServer;
  let front: OidcGateway;

  beforeAll(async () => {
    upstream = await startV2HttpServer({ legacy: "stateless" });
    const tokens = new Map([
      [TOKEN, { id: "caller", name: "caller" }],
      [
        LIMITED,
        { id: "limited", name: "limited", rates: [{ pattern: "*", perSecond: 0.001, burst: 1, text: "1/1000s" }] },
      ],
    ]);
    front = await oidcGateway(upstream.url, () => ({ tokens, operations: { metrics: true } }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
  });

  const scrape = async (): Promise<(name: string) => Family> => {
    const families = parsePrometheus(await (await fetch(`${front.origin}/metrics`)).text());
    return (name) => families.find((f) => f.name === name) ?? { name, type: "missing", help: "", metrics: [] };
  };
  const gauge = (family: Family): string | undefined => family.metrics[0]?.value;

  it("counts a caller's rate-limit refusals", async () => {
    expect((await callAdd(front.url, LIMITED)).status).toBe(200);
    await (await callAdd(front.url, LIMITED)).body?.cancel();
    await (await callAdd(front.url, LIMITED)).body?.cancel();
    // Audit entries reach the metrics off the request's path: wait until both refusals are counted.
    await vi.waitFor(async () => {
      const family = await scrape();
      expect(family("mcp_gateway_rate_limited_total")).toMatchObject({
        type: "COUNTER",
        metrics: [{ labels: { method: "tools/call" }, value: "2" }],
      });
    });
  });

  it("shows requests in flight upstream while a call runs, and none after", async () => {
    const slow = fetch(front.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "up__slow",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "up__slow", arguments: { ms: 1500 }, _meta: META },
      }),
    });
    // The upstream has the call: it is in flight.
    await vi.waitFor(
      () =>
        expect(
          upstream.requests.some((r) => r.headers["mcp-method"] === "tools/call" && r.body.includes('"name":"slow"')),
        ).toBe(true),
      { timeout: 10_000 },
    );
    const during = await scrape();
    expect(during("mcp_gateway_in_flight")).toMatchObject({ type: "GAUGE", metrics: [{ value: "1" }] });
    await (await slow).text();
    expect(gauge((await scrape())("mcp_gateway_in_flight"))).toBe("0");
  });

  it("shows 2025-era sessions held, and held tools", async () => {
    const before = await scrape();
    expect(gauge(before("mcp_gateway_held_tools"))).toBe("0");
    expect(before("mcp_gateway_held_tools").type).toBe("GAUGE");
    const response = await fetch(front.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    expect(response.headers.get("mcp-session-id")).toBeTruthy();
    await response.text();
    expect(gauge((await scrape())("mcp_gateway_sessions"))).toBe(
      String(Number(gauge(before("mcp_gateway_sessions"))) + 1),
    );
  });
});
