// The endpoint fed mutated valid messages (responses, progress, server requests, batches) while
// requests are in flight: receive() never throws, every problem goes to onError, a request ends
// resolved, rejected with a typed error, or still pending until close() rejects it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonRpcEndpoint, McpError, RpcError, type JsonRpcMessage } from "../src/index.js";

const KEYS = [
  "jsonrpc",
  "id",
  "method",
  "params",
  "result",
  "error",
  "code",
  "message",
  "data",
  "progressToken",
  "progress",
  "total",
  "_meta",
  "__proto__",
  "constructor",
];

/** A valid message of each kind the endpoint routes, aimed at requests 1 and 2. */
const valid = fc.oneof(
  fc.constantFrom(1, 2).map((id) => ({ jsonrpc: "2.0", id, result: { content: [] } })),
  fc.constantFrom(1, 2).map((id) => ({ jsonrpc: "2.0", id, error: { code: -32602, message: "bad" } })),
  fc.constantFrom(1, 2).map((id) => ({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: id, progress: 1, total: 2 },
  })),
  fc.constant({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }),
  fc.constant({ jsonrpc: "2.0", id: "s1", method: "roots/list", params: {} }),
  fc.constant({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "s1" } }),
);

/** One mutation: a key (known or random) set to any JSON value, or deleted, at the top or one level down. */
const mutation = fc.record({
  key: fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })),
  deep: fc.boolean(),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
});

function mutate(
  message: Record<string, unknown>,
  mutations: { key: string; deep: boolean; value: unknown }[],
): unknown {
  const copy = structuredClone<Record<string, unknown>>(message);
  for (const { key, deep, value } of mutations) {
    const target = deep
      ? (Object.values(copy).find((v): v is Record<string, unknown> => typeof v === "object" && v !== null) ?? copy)
      : copy;
    if (value === undefined) delete target[key];
    else Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  }
  return copy;
}

const input = fc.array(fc.tuple(valid, fc.array(mutation, { maxLength: 3 }), fc.boolean()), {
  minLength: 1,
  maxLength: 12,
});

describe("JsonRpcEndpoint under mutated messages", () => {
  it("never throws from receive(), reports problems, and leaves nothing pending after close()", async () => {
    await fc.assert(
      fc.asyncProperty(input, async (items) => {
        const sent: JsonRpcMessage[] = [];
        const errors: Error[] = [];
        const endpoint = new JsonRpcEndpoint({
          send: (message) => {
            sent.push(message);
          },
          handlers: {
            onError: (error) => errors.push(error),
            onNotification: () => undefined,
            onRequest: () => Promise.resolve({ roots: [] }),
          },
          defaultTimeout: 60_000,
        });
        const settled: ("resolved" | "rejected")[] = [];
        const requests = [1, 2].map(() =>
          endpoint.request("tools/call", {}, { onProgress: () => undefined }).then(
            () => settled.push("resolved"),
            (error: unknown) => {
              // Every rejection is typed: an RPC error from the server, or a local McpError.
              expect(RpcError.isInstance(error) || McpError.isInstance(error), String(error)).toBe(true);
              settled.push("rejected");
            },
          ),
        );
        for (const [message, mutations, asBatch] of items) {
          const value = mutate(message, mutations);
          expect(() => endpoint.receive(asBatch ? [value] : value)).not.toThrow();
        }
        for (const error of errors) expect(error).toBeInstanceOf(Error);
        endpoint.close();
        await Promise.all(requests);
        expect(settled).toHaveLength(2);
        expect(endpoint.pending.size).toBe(0);
      }),
      { numRuns: 400 },
    );
  });
});
