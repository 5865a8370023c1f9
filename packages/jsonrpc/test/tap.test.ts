// onMessage (every message both ways, as it goes) and redactJson (a message fit for a recording).
import { describe, expect, it } from "vitest";
import { JsonRpcEndpoint, type JsonRpcMessage, type MessageDirection } from "../src/index.js";
import { REDACTED, redactJson } from "../src/internal.js";

function endpoint() {
  const sent: JsonRpcMessage[] = [];
  const seen: [MessageDirection, unknown][] = [];
  const errors: Error[] = [];
  const host: ConstructorParameters<typeof JsonRpcEndpoint>[0]["handlers"] = {
    onError: (e) => errors.push(e),
    onMessage: (message, direction) => seen.push([direction, structuredClone(message)]),
    onRequest: async () => ({ answered: true }),
  };
  const ep = new JsonRpcEndpoint({ send: (m) => void sent.push(m), handlers: host, defaultTimeout: 1000 });
  return { ep, sent, seen, errors, host };
}

describe("onMessage", () => {
  it("sees every message both ways, in order: requests, notifications, answers, cancellations, batches once", async () => {
    const { ep, sent, seen } = endpoint();
    const call = ep.request("tools/call", { name: "x" }, { onProgress: () => undefined });
    ep.receive({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    ep.receive([
      { jsonrpc: "2.0", id: 1, result: { ok: 1 } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
    ]);
    await call;
    await ep.notify("notifications/initialized");
    ep.receive({ jsonrpc: "2.0", id: "s1", method: "roots/list" });
    await new Promise<void>((resolve) => queueMicrotask(() => setImmediate(resolve)));
    const aborted = new AbortController();
    const cancelled = ep.request("tools/call", { name: "slow" }, { signal: aborted.signal });
    aborted.abort(new Error("stop"));
    await expect(cancelled).rejects.toThrow("stop");
    expect(seen).toEqual([
      ["out", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", _meta: { progressToken: 1 } } }],
      ["in", { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }],
      [
        "in",
        [
          { jsonrpc: "2.0", id: 1, result: { ok: 1 } },
          { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
        ],
      ],
      ["out", { jsonrpc: "2.0", method: "notifications/initialized" }],
      ["in", { jsonrpc: "2.0", id: "s1", method: "roots/list" }],
      ["out", { jsonrpc: "2.0", id: "s1", result: { answered: true } }],
      ["out", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } }],
      ["out", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "stop" } }],
    ]);
    // What was seen is what was sent.
    expect(seen.filter(([d]) => d === "out").map(([, m]) => m)).toEqual(sent);
  });

  it("a listener that throws is reported, and the message goes on", async () => {
    const { ep, sent, errors, host } = endpoint();
    host.onMessage = () => {
      throw new Error("listener broke");
    };
    const call = ep.request("ping");
    ep.receive({ jsonrpc: "2.0", id: 1, result: {} });
    await expect(call).resolves.toEqual({});
    expect(sent).toHaveLength(1);
    expect(errors.map((e) => e.message)).toEqual(["listener broke", "listener broke"]);
  });
});

describe("redactJson", () => {
  it("hides credential-named values and URL secrets, keeps shapes, bookkeeping and the input", () => {
    const message = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "deploy",
        arguments: {
          apiKey: "k-123",
          password: 42,
          tokens: ["a", "b"],
          note: "hook at https://ada:hunter2@example.com/h?access_token=t0k&x=1 then http://plain.example",
          site: "https://example.com",
        },
        _meta: { progressToken: "p-1" },
      },
      result: { inputSchema: { properties: { token: { type: "string" } }, required: ["token"] } },
    };
    const before = structuredClone(message);
    const redacted = redactJson(message) as typeof message;
    expect(message).toEqual(before);
    expect(redacted.params.arguments).toEqual({
      apiKey: REDACTED,
      password: REDACTED,
      tokens: [REDACTED, REDACTED],
      note: "hook at https://ada:%5Bredacted%5D@example.com/h?access_token=%5Bredacted%5D&x=1 then http://plain.example",
      site: "https://example.com",
    });
    expect(redacted.params._meta).toEqual({ progressToken: "p-1" });
    expect(redacted.result).toEqual(message.result);
    expect(JSON.stringify(redacted)).not.toMatch(/hunter2|t0k|k-123/);
  });

  it("keeps a parsed __proto__ key as data and bounds the depth", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = redactJson(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
    let deep: unknown = "leaf";
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(() => redactJson(deep)).not.toThrow();
  });
});
