// W3C trace context through the gateway: a caller's traceparent/tracestate reach the HTTP upstream
// requests of that caller's tool call (an SDK v2 server that records the headers it gets) and the
// audit entry's traceId; a malformed traceparent is dropped; one caller's trace never reaches
// another caller's call.
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/index.js";
import { traceOf } from "../src/trace.js";
import { oidcGateway, type OidcGateway } from "./oidc-helpers.js";
import { postCall } from "./raw-call.js";

const PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("W3C trace context from a caller to the HTTP upstream of its call", () => {
  let upstream: V2HttpServer;
  let front: OidcGateway;
  const audit: AuditEntry[] = [];

  beforeAll(async () => {
    upstream = await startV2HttpServer({ legacy: "reject" });
    front = await oidcGateway(upstream.url, () => ({
      tokens: new Map([
        ["alice-token-0123456789", { id: "alice", name: "alice" }],
        ["bob-token-0123456789", { id: "bob", name: "bob" }],
      ]),
      audit: (entry) => audit.push(entry),
    }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
  });

  /** A tools/call of `up__add` by `token` with `headers`; returns the upstream tools/call requests it caused. */
  const call = async (token: string, headers: Record<string, string>, a: number) => {
    const before = upstream.requests.length;
    const got = await postCall({
      url: front.url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      name: "up__add",
      args: { a, b: 1 },
    });
    expect(got.status).toBe(200);
    expect(got.text).toContain(`"text":"${a + 1}"`);
    // Its own: concurrent calls are told apart by their arguments.
    return upstream.requests
      .slice(before)
      .filter((r) => r.body.includes('"method":"tools/call"') && r.body.includes(`"a":${a},`));
  };

  it("carries a caller's traceparent and tracestate to the upstream request and records the trace id", async () => {
    const sent = await call("alice-token-0123456789", { traceparent: PARENT, tracestate: "vendor=abc,other=1" }, 10);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers["traceparent"]).toBe(PARENT);
    expect(sent[0]!.headers["tracestate"]).toBe("vendor=abc,other=1");
    expect(audit.findLast((e) => e.method === "tools/call" && e.caller === "alice")).toMatchObject({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    });
  });

  it("drops a malformed traceparent (and its tracestate): nothing of it upstream or in the audit", async () => {
    for (const bad of [
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
      `${PARENT}\u0000`.slice(0, -1) + "x",
    ]) {
      const sent = await call("alice-token-0123456789", { traceparent: bad, tracestate: "vendor=abc" }, 20);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.headers["traceparent"]).toBeUndefined();
      expect(sent[0]!.headers["tracestate"]).toBeUndefined();
      expect(audit.findLast((e) => e.method === "tools/call")).not.toHaveProperty("traceId");
    }
  });

  it("gives nothing of one caller's trace to another caller's call, concurrent or after", async () => {
    const [alice, bob] = await Promise.all([
      call("alice-token-0123456789", { traceparent: PARENT }, 30),
      call("bob-token-0123456789", {}, 40),
    ]);
    expect(alice[0]!.headers["traceparent"]).toBe(PARENT);
    expect(bob[0]!.headers["traceparent"]).toBeUndefined();
    const later = await call("bob-token-0123456789", {}, 50);
    expect(later[0]!.headers["traceparent"]).toBeUndefined();
    expect(audit.filter((e) => e.caller === "bob" && e.traceId !== undefined)).toEqual([]);
  });
});

describe("traceOf", () => {
  it("keeps a valid traceparent, and a tracestate only with one and only when printable and short", () => {
    expect(traceOf({ traceparent: PARENT, tracestate: "a=1" })).toEqual({ traceparent: PARENT, tracestate: "a=1" });
    expect(traceOf({ tracestate: "a=1" })).toBeUndefined();
    expect(traceOf({ traceparent: PARENT, tracestate: "a=\u0007" })).toEqual({ traceparent: PARENT });
    expect(traceOf({ traceparent: PARENT, tracestate: `a=${"x".repeat(600)}` })).toEqual({ traceparent: PARENT });
    expect(traceOf({ traceparent: `${PARENT}-extra` })).toBeUndefined();
  });
});
