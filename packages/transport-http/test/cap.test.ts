// The connection cap (64 per origin) against long and hung calls: what a call in flight may be
// waiting for (its cancellation) never queues behind the calls in flight, and a hung server does
// not keep connections for cancellations it will never answer.
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { POOL_LIMITS } from "../src/node-pool.js";
import { answer, open, rawServer, response } from "./raw-server.js";

const LONG = { timeout: 600_000 }; // outlives the test: these calls end when the transport closes

describe("the connection cap", () => {
  it("with every connection held by a call in flight, a cancellation is still sent at once", async () => {
    // Calls hang; a cancellation is accepted at once.
    const server = await rawServer((request, socket) => {
      if (request.json?.method === "notifications/cancelled") socket.write(response("", "", "202 Accepted"));
    });
    const transport = await open(server.url);
    const first = new AbortController();
    const cancelled = transport
      .request("tools/call", { name: "first" }, { signal: first.signal })
      .catch((e: unknown) => e);
    const rest = Array.from({ length: POOL_LIMITS.connections + 8 }, (_, i) =>
      transport.request("tools/call", { name: `long-${i}` }, LONG).catch(() => undefined),
    );
    await expect.poll(() => server.requests.length, { timeout: 20_000 }).toBe(POOL_LIMITS.connections);
    const id = server.requests.find((r) => r.json?.params?.["name"] === "first")!.json!.id;
    first.abort(new Error("the user gave up"));
    await expect(cancelled).resolves.toMatchObject({ message: "the user gave up" });
    // Its connection went to the next call in the queue; the cancellation did not wait for one.
    await expect
      .poll(
        () =>
          server.requests.some((r) => r.json?.method === "notifications/cancelled" && r.json.params?.requestId === id),
        { timeout: 10_000 },
      )
      .toBe(true);
    await transport.close();
    await Promise.all(rest);
  });

  it("with every connection held by a call whose server asks us something, our answers still go out and every call completes", async () => {
    // Each tools/call gets an event stream carrying a question (a ping); the call's result comes once its answer arrives.
    const streams = new Map<string, Socket>();
    const server = await rawServer((request, socket) => {
      const json = request.json as { id?: number | string; method?: string; result?: unknown } | undefined;
      if (json?.method === "tools/call") {
        streams.set(`q-${json.id}`, socket);
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: `q-${json.id}`, method: "ping" })}\n\n`,
        );
        return;
      }
      socket.write(response("", "", "202 Accepted"));
      const stream = streams.get(String(json?.id));
      if (stream && json?.result !== undefined)
        stream.end(
          `data: ${answer(Number(String(json.id).slice(2)), { content: [{ type: "text", text: "done" }] })}\n\n`,
        );
    });
    const transport = await open(server.url);
    const calls = Array.from({ length: POOL_LIMITS.connections }, (_, i) =>
      transport.request("tools/call", { name: `asks-${i}` }, { timeout: 20_000 }),
    );
    const results = await Promise.all(calls);
    expect(results).toHaveLength(POOL_LIMITS.connections);
    expect(server.requests.filter((r) => r.json?.method === undefined)).toHaveLength(POOL_LIMITS.connections); // one answer per question
  });

  it("after 100 calls time out against a server that answers nothing, every connection is released within the cancellation budget", async () => {
    const server = await rawServer(() => undefined);
    const transport = await open(server.url, { timeout: 30_000 }); // the transport's own clock: longer than the wait below
    const errors: Error[] = [];
    transport.onError = (error) => errors.push(error);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => transport.request("tools/call", { name: `hung-${i}` }, { timeout: 300 })),
    );
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
    await expect
      .poll(() => server.requests.filter((r) => r.json?.method === "notifications/cancelled").length, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    // Each cancellation has 5 s; none holds its connection for the transport's 30 s.
    await expect.poll(() => server.open(), { timeout: 15_000, interval: 200 }).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.message === "Notify timeout after 5000ms")).toBe(true);
  });
});
