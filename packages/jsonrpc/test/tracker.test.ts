import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  JsonRpcEndpoint,
  RequestTimeoutError,
  RpcError,
  TransportClosedError,
  type JsonRpcMessage,
} from "../src/index.js";
import { PendingRequests } from "../src/internal.js";

/**
 * The timers a test's own code has alive: the test runs with fake timers, so the count is exact and
 * no timer of the test runner (which may end at any moment on a loaded machine) is counted.
 */
function liveTimers(): number {
  return vi.getTimerCount();
}

/** Fake `setTimeout`/`clearTimeout` only (clocks stay real), so {@link liveTimers} counts this code's timers. */
function countTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("PendingRequests", () => {
  it("times out with the exact message and asks once for a cancellation", async () => {
    vi.useFakeTimers();
    const cancels: unknown[][] = [];
    const tracker = new PendingRequests({ onCancel: (...args) => cancels.push(args) });
    const promise = tracker.track(1, "tools/call", { timeout: 250 });
    vi.advanceTimersByTime(249);
    expect(tracker.has(1)).toBe(true);
    vi.advanceTimersByTime(1);
    await expect(promise).rejects.toBeInstanceOf(RequestTimeoutError);
    await expect(promise).rejects.toHaveProperty("message", "Request timeout after 250ms");
    expect(cancels).toEqual([[1, "Request timeout after 250ms", "tools/call"]]);
    expect(tracker.size).toBe(0);
  });

  it("uses the default timeout (30000 ms) unless configured", async () => {
    vi.useFakeTimers();
    const tracker = new PendingRequests();
    const promise = tracker.track(1, "x");
    vi.advanceTimersByTime(30_000);
    await expect(promise).rejects.toThrow("Request timeout after 30000ms");
    const custom = new PendingRequests({ defaultTimeout: 5 });
    const second = custom.track(1, "x");
    vi.advanceTimersByTime(5);
    await expect(second).rejects.toThrow("Request timeout after 5ms");
  });

  it("an abort rejects with the caller's own reason and asks once for a cancellation", async () => {
    const cancels: unknown[][] = [];
    const tracker = new PendingRequests({ onCancel: (...args) => cancels.push(args) });
    const controller = new AbortController();
    const reason = new Error("user pressed escape");
    const promise = tracker.track(7, "tools/call", { signal: controller.signal });
    controller.abort(reason);
    controller.abort(new Error("again"));
    await expect(promise).rejects.toBe(reason);
    expect(cancels).toEqual([[7, "user pressed escape", "tools/call"]]);
  });

  it("an already-aborted signal rejects at once with its reason (default AbortError)", async () => {
    const cancels: unknown[] = [];
    const tracker = new PendingRequests({ onCancel: (id) => cancels.push(id) });
    const promise = tracker.track(1, "x", { signal: AbortSignal.abort() });
    await expect(promise).rejects.toMatchObject({ name: "AbortError" });
    expect(tracker.size).toBe(0);
    expect(cancels).toEqual([]);
  });

  it("never asks for a cancellation for a completed or failed request", async () => {
    vi.useFakeTimers();
    const cancels: unknown[] = [];
    const tracker = new PendingRequests({ onCancel: (id) => cancels.push(id) });
    const controller = new AbortController();
    const ok = tracker.track(1, "a", { signal: controller.signal, timeout: 100 });
    const bad = tracker.track(2, "b", { signal: controller.signal, timeout: 100 });
    const closed = tracker.track(3, "c", { signal: controller.signal, timeout: 100 });
    tracker.handleResponse({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    tracker.handleResponse({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad", data: 1 } });
    tracker.rejectAll(new TransportClosedError());
    await expect(ok).resolves.toEqual({ ok: true });
    await expect(bad).rejects.toMatchObject({ code: -32602, data: 1, message: "MCP error -32602: bad" });
    await expect(bad).rejects.toBeInstanceOf(RpcError);
    await expect(closed).rejects.toBeInstanceOf(TransportClosedError);
    controller.abort();
    vi.advanceTimersByTime(1000);
    expect(cancels).toEqual([]);
  });

  it("ignores responses for unknown ids", () => {
    const tracker = new PendingRequests();
    expect(tracker.handleResponse({ jsonrpc: "2.0", id: 99, result: {} })).toBe(false);
  });

  it("progress reaches its request and resets the clock when asked; maxTotalTimeout still ends it", async () => {
    vi.useFakeTimers();
    const seen: unknown[] = [];
    const tracker = new PendingRequests();
    const promise = tracker.track(5, "long", {
      timeout: 100,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 250,
      onProgress: (p) => seen.push(p),
    });
    vi.advanceTimersByTime(90);
    expect(tracker.handleProgress({ progressToken: 5, progress: 1, total: 3, message: "one" })).toBe(true);
    vi.advanceTimersByTime(90); // 180 ms in: alive only because progress reset the clock
    expect(tracker.has(5)).toBe(true);
    tracker.handleProgress({ progressToken: 5, progress: 2 });
    vi.advanceTimersByTime(69); // 249 ms in
    expect(tracker.has(5)).toBe(true);
    vi.advanceTimersByTime(1); // the total budget, not the reset clock, ends it
    await expect(promise).rejects.toThrow("Request timeout after 250ms");
    expect(seen).toEqual([{ progress: 1, total: 3, message: "one" }, { progress: 2 }]);
  });

  it("without resetTimeoutOnProgress, progress does not extend the timeout", async () => {
    vi.useFakeTimers();
    const tracker = new PendingRequests();
    const promise = tracker.track(5, "long", { timeout: 100, onProgress: () => undefined });
    vi.advanceTimersByTime(90);
    tracker.handleProgress({ progressToken: 5, progress: 1 });
    vi.advanceTimersByTime(10);
    await expect(promise).rejects.toThrow("Request timeout after 100ms");
  });

  it("progress with an unknown token, or for a request that did not ask, is not consumed", () => {
    const tracker = new PendingRequests();
    void tracker.track(1, "x", { timeout: 50 }).catch(() => undefined);
    expect(tracker.handleProgress({ progressToken: 1, progress: 1 })).toBe(false);
    expect(tracker.handleProgress({ progressToken: 2, progress: 1 })).toBe(false);
    expect(tracker.handleProgress(null)).toBe(false);
    tracker.rejectAll(new Error("done"));
  });

  it("requests sharing a timeout duration each time out at their own deadline", async () => {
    vi.useFakeTimers();
    const tracker = new PendingRequests();
    const a = tracker.track(1, "a", { timeout: 100 });
    vi.advanceTimersByTime(50);
    const b = tracker.track(2, "b", { timeout: 100 });
    const c = tracker.track(3, "c", { timeout: 30 });
    const bDone = b.catch((e: unknown) => e);
    const cDone = c.catch((e: unknown) => e);
    tracker.resolve(1, "early"); // the head of the 100 ms queue leaves before its deadline
    await expect(a).resolves.toBe("early");
    vi.advanceTimersByTime(29);
    expect(tracker.has(3)).toBe(true);
    vi.advanceTimersByTime(1);
    await expect(cDone).resolves.toMatchObject({ message: "Request timeout after 30ms" });
    vi.advanceTimersByTime(69); // 99 ms since b started
    expect(tracker.has(2)).toBe(true);
    vi.advanceTimersByTime(1);
    await expect(bDone).resolves.toMatchObject({ message: "Request timeout after 100ms" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ids are unique and increasing", () => {
    const tracker = new PendingRequests();
    const ids = Array.from({ length: 1000 }, () => tracker.nextId());
    expect(new Set(ids).size).toBe(1000);
    expect(ids[999]! > ids[0]!).toBe(true);
  });

  it("100,000 requests aborted through one shared AbortSignal leave zero listeners and zero live timers", async () => {
    const controller = new AbortController();
    countTimers();
    const tracker = new PendingRequests({ onCancel: () => undefined });
    const timersBefore = liveTimers();
    const promises: Promise<unknown>[] = [];
    for (let i = 0; i < 100_000; i++)
      promises.push(tracker.track(tracker.nextId(), "x", { signal: controller.signal, timeout: 60_000 }));
    // One listener per signal, not one per request.
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    // Requests with the same timeout share one timer.
    expect(liveTimers() - timersBefore).toBe(1);
    controller.abort(new Error("stop"));
    const results = await Promise.allSettled(promises);
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(liveTimers() - timersBefore).toBe(0);
    expect(tracker.size).toBe(0);
  });

  it("a request tracked by a hook while its bucket's requests time out leaves one timer, gone when all settle", async () => {
    vi.useFakeTimers();
    const tracker = new PendingRequests({ onCancel: () => undefined });
    let retried: Promise<unknown> | undefined;
    // The first request's settle hook tracks another with the same timeout (a retry), synchronously,
    // while the shared timer's callback is still timing out that bucket's requests.
    const first = tracker.track(
      1,
      "x",
      { timeout: 100 },
      {
        onSettled: (answered) => {
          if (!answered) retried = tracker.track(2, "x", { timeout: 100 });
        },
      },
    );
    vi.advanceTimersByTime(50);
    const third = tracker.track(3, "x", { timeout: 100 });
    vi.advanceTimersByTime(50);
    await expect(first).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(retried).toBeDefined();
    expect(vi.getTimerCount()).toBe(1);
    tracker.resolve(3, "three");
    tracker.resolve(2, "two");
    await expect(third).resolves.toBe("three");
    await expect(retried).resolves.toBe("two");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("100,000 requests completed normally on one long-lived signal leave no listeners behind", async () => {
    const controller = new AbortController();
    countTimers();
    const tracker = new PendingRequests();
    const timersBefore = liveTimers();
    const promises: Promise<unknown>[] = [];
    for (let i = 0; i < 100_000; i++) {
      const id = tracker.nextId();
      promises.push(tracker.track(id, "x", { signal: controller.signal }));
      tracker.resolve(id, i);
    }
    await Promise.all(promises);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(liveTimers() - timersBefore).toBe(0);
  });
});

describe("JsonRpcEndpoint", () => {
  function endpoint(handlers: Partial<Parameters<typeof JsonRpcEndpoint.prototype.receive>[0]> & object = {}) {
    const sent: JsonRpcMessage[] = [];
    const errors: Error[] = [];
    const notifications: [string, unknown][] = [];
    const host = {
      onError: (e: Error) => errors.push(e),
      onNotification: (m: string, p: unknown) => notifications.push([m, p]),
      ...handlers,
    } as ConstructorParameters<typeof JsonRpcEndpoint>[0]["handlers"];
    const ep = new JsonRpcEndpoint({ send: async (m) => void sent.push(m), handlers: host, defaultTimeout: 1000 });
    return { ep, sent, errors, notifications, host };
  }

  it("sends a request with a fresh id and resolves with the matching response", async () => {
    const { ep, sent } = endpoint();
    const promise = ep.request("tools/list", { cursor: "c" });
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "c" } }]);
    ep.receive({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    await expect(promise).resolves.toEqual({ tools: [] });
  });

  it("adds _meta.progressToken only when onProgress is given, keeping existing _meta", async () => {
    const { ep, sent } = endpoint();
    const progress: unknown[] = [];
    const promise = ep.request(
      "tools/call",
      { name: "x", _meta: { keep: 1 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(sent[0]).toMatchObject({ params: { name: "x", _meta: { keep: 1, progressToken: 1 } } });
    ep.receive({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 50, total: 100 },
    });
    ep.receive({ jsonrpc: "2.0", id: 1, result: {} });
    await promise;
    expect(progress).toEqual([{ progress: 50, total: 100 }]);
  });

  it("sends notifications/cancelled on abort, never for initialize", async () => {
    const { ep, sent } = endpoint();
    const c1 = new AbortController();
    const first = ep.request("tools/call", {}, { signal: c1.signal });
    c1.abort(new Error("bye"));
    await expect(first).rejects.toThrow("bye");
    const c2 = new AbortController();
    const init = ep.request("initialize", {}, { signal: c2.signal });
    c2.abort();
    await expect(init).rejects.toMatchObject({ name: "AbortError" });
    expect(sent.filter((m) => "method" in m && m.method === "notifications/cancelled")).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "bye" } },
    ]);
  });

  it("answers ping without a handler and -32601 for anything else", () => {
    const { ep, sent } = endpoint();
    ep.receive({ jsonrpc: "2.0", id: "s1", method: "ping" });
    ep.receive({ jsonrpc: "2.0", id: "s2", method: "roots/list" });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: "s1", result: {} },
      { jsonrpc: "2.0", id: "s2", error: { code: -32601, message: "Method not found: roots/list" } },
    ]);
  });

  it("dispatches server requests to onRequest and answers with the result or a typed error", async () => {
    const { ep, sent } = endpoint({
      onRequest: async (method: string) => {
        if (method === "roots/list") return { roots: [{ uri: "file:///tmp" }] };
        if (method === "sampling/createMessage") throw new RpcError(-1, "declined", { why: "user" });
        throw new Error("kaput");
      },
    });
    ep.receive({ jsonrpc: "2.0", id: 1, method: "roots/list" });
    ep.receive({ jsonrpc: "2.0", id: 2, method: "sampling/createMessage" });
    ep.receive({ jsonrpc: "2.0", id: 3, method: "elicitation/create" });
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 1, result: { roots: [{ uri: "file:///tmp" }] } },
      { jsonrpc: "2.0", id: 2, error: { code: -1, message: "declined", data: { why: "user" } } },
      { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "kaput" } },
    ]);
  });

  it("a server's notifications/cancelled aborts the handler and suppresses the response", async () => {
    let seenSignal: AbortSignal | undefined;
    const { ep, sent } = endpoint({
      onRequest: (_m: string, _p: unknown, ctx: { signal: AbortSignal }) => {
        seenSignal = ctx.signal;
        return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ late: true })));
      },
    });
    ep.receive({ jsonrpc: "2.0", id: 9, method: "sampling/createMessage" });
    ep.receive({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 9, reason: "changed my mind" },
    });
    expect(seenSignal?.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect(sent).toEqual([]);
  });

  it("routes notifications, handles batches, reports invalid messages, ignores unknown ids", () => {
    const { ep, errors, notifications } = endpoint();
    ep.receive([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", id: 12345, result: {} },
      { nonsense: true },
    ]);
    expect(notifications).toEqual([["notifications/tools/list_changed", undefined]]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "invalid_message" });
  });

  it("close rejects everything with Transport closed and refuses new requests", async () => {
    const { ep } = endpoint();
    const inflight = ep.request("x");
    ep.close();
    await expect(inflight).rejects.toThrow("Transport closed");
    await expect(ep.request("y")).rejects.toBeInstanceOf(TransportClosedError);
    await expect(ep.notify("z")).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("a send failure fails only its own request", async () => {
    const ep = new JsonRpcEndpoint({
      send: async (m) => {
        if ("id" in m && m.id === 1) throw new Error("write failed");
      },
      handlers: {},
      defaultTimeout: 1000,
    });
    await expect(ep.request("a")).rejects.toThrow("write failed");
    const second = ep.request("b");
    ep.receive({ jsonrpc: "2.0", id: 2, result: 2 });
    await expect(second).resolves.toBe(2);
  });

  it("the per-request signal aborts when a request ends without its response, never after a response (result or error)", async () => {
    const signals = new Map<unknown, AbortSignal>();
    const ep = new JsonRpcEndpoint({
      send: (m, context) => {
        if ("id" in m) signals.set(m.id, context.signal!);
      },
      handlers: {},
      defaultTimeout: 1000,
      requestSignals: true,
    });
    const ok = ep.request("a");
    const rpcError = ep.request("b");
    const aborter = new AbortController();
    const aborted = ep.request("c", {}, { signal: aborter.signal });
    const timedOut = ep.request("d", {}, { timeout: 5 });
    ep.receive({ jsonrpc: "2.0", id: 1, result: 1 });
    ep.receive({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Prompt not found" } });
    aborter.abort(new Error("stop"));
    await expect(ok).resolves.toBe(1);
    await expect(rpcError).rejects.toBeInstanceOf(RpcError);
    await expect(aborted).rejects.toThrow("stop");
    await expect(timedOut).rejects.toBeInstanceOf(RequestTimeoutError);
    // An answered exchange is complete: aborting it would tear down a connection in use.
    expect([1, 2, 3, 4].map((id) => signals.get(id)?.aborted)).toEqual([false, false, true, true]);
  });

  it("a handler's error with a numeric JSON-RPC code keeps its code and data; other errors are -32603", async () => {
    const sent: JsonRpcMessage[] = [];
    class SdkStyleError extends Error {
      constructor(
        readonly code: number,
        message: string,
        readonly data?: unknown,
      ) {
        super(message);
      }
    }
    const failures: Record<string, unknown> = {
      sdk: new SdkStyleError(-32042, "URL elicitation required", { elicitations: [] }),
      plain: new Error("boom"),
      stringCode: Object.assign(new Error("odd"), { code: "ENOENT" }),
      thrownString: "just a string",
    };
    const ep = new JsonRpcEndpoint({
      send: (m) => void sent.push(m),
      handlers: { onRequest: (_method, params) => Promise.reject(failures[(params as { which: string }).which]) },
    });
    for (const [id, which] of Object.keys(failures).entries())
      ep.receive({ jsonrpc: "2.0", id, method: "sampling/createMessage", params: { which } });
    await expect.poll(() => sent.length).toBe(4);
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 0,
        error: { code: -32042, message: "URL elicitation required", data: { elicitations: [] } },
      },
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "odd" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "just a string" } },
    ]);
  });
});
