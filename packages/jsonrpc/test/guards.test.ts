import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyMessage } from "../src/internal.js";
import {
  isJsonRpcBatch,
  isJsonRpcErrorResponse,
  isJsonRpcMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isJsonRpcSuccessResponse,
} from "../src/index.js";

const guards = [
  isJsonRpcRequest,
  isJsonRpcNotification,
  isJsonRpcResponse,
  isJsonRpcSuccessResponse,
  isJsonRpcErrorResponse,
  isJsonRpcMessage,
  isJsonRpcBatch,
];

describe("classifyMessage", () => {
  it.each([
    [{ jsonrpc: "2.0", id: 1, method: "ping" }, "request"],
    [{ jsonrpc: "2.0", id: "a", method: "tools/list", params: {} }, "request"],
    [{ jsonrpc: "2.0", method: "notifications/initialized" }, "notification"],
    [{ jsonrpc: "2.0", id: null, method: "notifications/message", params: { level: "info" } }, "notification"],
    [{ jsonrpc: "2.0", id: 1, result: {} }, "response"],
    [{ jsonrpc: "2.0", id: 1, result: null }, "response"],
    [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, "response"],
    [[{ jsonrpc: "2.0", id: 1, result: {} }], "batch"],
  ])("accepts %j as %s", (value, kind) => {
    expect(classifyMessage(value).kind).toBe(kind);
  });

  it.each([
    [null, /expected an object, got null/],
    [undefined, /got undefined/],
    [42, /got number/],
    ["{}", /got string/],
    [[], /empty batch/],
    [{ id: 1, method: "ping" }, /jsonrpc/],
    [{ jsonrpc: "1.0", id: 1, method: "ping" }, /jsonrpc/],
    [{ jsonrpc: "2.0", id: 1, method: 5 }, /method/],
    [{ jsonrpc: "2.0", id: 1, method: "" }, /method/],
    [{ jsonrpc: "2.0", id: 1, method: "x", params: "str" }, /params/],
    [{ jsonrpc: "2.0", id: {}, method: "x" }, /request id/],
    [{ jsonrpc: "2.0", id: 1.5, method: "x" }, /request id/],
    [{ jsonrpc: "2.0", id: 2 ** 60, method: "x" }, /request id/],
    [{ jsonrpc: "2.0", id: Number.NaN, result: 1 }, /response id/],
    [{ jsonrpc: "2.0", id: true, result: 1 }, /response id/],
    [{ jsonrpc: "2.0", id: 1, result: 1, error: { code: 1, message: "m" } }, /both result and error/],
    [{ jsonrpc: "2.0", id: 1, error: { code: "x", message: "m" } }, /integer code/],
    [{ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } }, /integer code/],
    [{ jsonrpc: "2.0", id: 1, error: { code: 1 } }, /string message/],
    [{ jsonrpc: "2.0", id: 1 }, /neither/],
    [{ jsonrpc: "2.0" }, /neither/],
  ])("rejects %j with a reason", (value, reason) => {
    const result = classifyMessage(value);
    expect(result.kind).toBe("invalid");
    expect(result.kind === "invalid" && result.reason).toMatch(reason);
  });

  it("never throws on hostile objects", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
        has() {
          throw new Error("boom");
        },
      },
    );
    expect(classifyMessage(hostile)).toMatchObject({ kind: "invalid" });
    for (const guard of guards) expect(guard(hostile)).toBe(false);
  });

  it("an object that is a message satisfies exactly one single-message guard", () => {
    const one = (v: unknown) =>
      [isJsonRpcRequest(v), isJsonRpcNotification(v), isJsonRpcResponse(v)].filter(Boolean).length;
    expect(one({ jsonrpc: "2.0", id: 1, method: "a" })).toBe(1);
    expect(one({ jsonrpc: "2.0", method: "a" })).toBe(1);
    expect(one({ jsonrpc: "2.0", id: 1, result: 0 })).toBe(1);
  });
});

describe("guards, property-based", () => {
  it("never throw and agree with classifyMessage on arbitrary JSON-like values", () => {
    const shapes = fc.oneof(
      fc.anything(),
      fc.record(
        {
          jsonrpc: fc.oneof(fc.constant("2.0"), fc.string(), fc.integer()),
          id: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.boolean(), fc.object()),
          method: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
          params: fc.anything(),
          result: fc.anything(),
          error: fc.oneof(
            fc.anything(),
            fc.record({
              code: fc.oneof(fc.integer(), fc.double(), fc.string()),
              message: fc.oneof(fc.string(), fc.integer()),
            }),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(shapes, (value) => {
        const kind = classifyMessage(value).kind;
        for (const guard of guards) guard(value);
        expect(isJsonRpcRequest(value)).toBe(kind === "request");
        expect(isJsonRpcNotification(value)).toBe(kind === "notification");
        expect(isJsonRpcResponse(value)).toBe(kind === "response");
        expect(isJsonRpcBatch(value)).toBe(kind === "batch");
      }),
      { numRuns: 2000 },
    );
  });

  it("every well-formed request survives a JSON round trip as a request", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.maxSafeInteger()),
        fc.string({ minLength: 1 }),
        fc.option(fc.object(), { nil: undefined }),
        (id, method, params) => {
          const wire = JSON.parse(JSON.stringify({ jsonrpc: "2.0", id, method, params })) as unknown;
          expect(classifyMessage(wire).kind).toBe("request");
        },
      ),
    );
  });
});
