// EndpointTransport and createLinkedPair: two of our JSON-RPC peers joined in memory, each end a
// full endpoint (ids, answers, the peer's requests and notifications, progress, close).
import { describe, expect, it } from "vitest";
import {
  createLinkedPair,
  EndpointTransport,
  MethodNotFoundError,
  RpcError,
  TransportClosedError,
  type JsonRpcMessage,
  type SendContext,
} from "../src/index.js";

describe("createLinkedPair", () => {
  it("a request on one end is answered by the other's onRequest; notifications and progress cross too", async () => {
    const [client, server] = createLinkedPair();
    const seen: unknown[] = [];
    server.onRequest = async (method, params) => {
      if (method !== "add") throw new MethodNotFoundError(`no ${method}`);
      const { a, b, _meta } = params as { a: number; b: number; _meta: { progressToken: string | number } };
      await server.notify("notifications/progress", { progressToken: _meta.progressToken, progress: 1, total: 2 });
      return { sum: a + b };
    };
    client.onNotification = (method, params) => seen.push([method, params]);
    const progress: number[] = [];
    await expect(
      client.request("add", { a: 2, b: 3 }, { onProgress: (p) => progress.push(p.progress) }),
    ).resolves.toEqual({ sum: 5 });
    expect(progress).toEqual([1]);
    const refused = await client.request("nope").catch((error: unknown) => error);
    expect(RpcError.isInstance(refused) && refused.code).toBe(-32601);
    await server.notify("notifications/message", { level: "info", data: "hi" });
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(seen).toEqual([["notifications/message", { level: "info", data: "hi" }]]);
    await client.close();
  });

  it("closing one end closes both: what is in flight rejects with TransportClosedError, onClose runs once on each", async () => {
    const [client, server] = createLinkedPair();
    let closes = 0;
    client.onClose = () => closes++;
    server.onClose = () => closes++;
    server.onRequest = () => new Promise(() => {}); // never answers
    const pending = client.request("slow");
    await server.close();
    await expect(pending).rejects.toBeInstanceOf(TransportClosedError);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect([client.connected, server.connected, closes]).toEqual([false, false, 2]);
    await expect(client.request("after")).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("the ends share no object: a message is a JSON copy", async () => {
    const [client, server] = createLinkedPair();
    const params = { nested: { n: 1 } };
    let received: unknown;
    server.onRequest = async (_method, p) => ((received = p), {});
    await client.request("x", params);
    expect(received).toEqual(params);
    expect(received).not.toBe(params);
    await client.close();
  });
});

describe("EndpointTransport", () => {
  it("a subclass writes only send; text that is not JSON is a ParseError to onError, not a throw", async () => {
    const sent: JsonRpcMessage[] = [];
    class Loop extends EndpointTransport {
      protected send(message: JsonRpcMessage): void {
        sent.push(message);
      }
      feed(text: string): void {
        this.receiveText(text);
      }
    }
    const loop = new Loop({ source: "loop", timeout: 1000 });
    const errors: Error[] = [];
    loop.onError = (error) => errors.push(error);
    const answer = loop.request("ping");
    expect(sent).toEqual([{ jsonrpc: "2.0", id: expect.anything() as unknown, method: "ping" }]);
    loop.feed("{not json");
    expect(errors.map((error) => error.name)).toEqual(["ParseError"]);
    loop.feed(JSON.stringify({ jsonrpc: "2.0", id: (sent[0] as { id: number }).id, result: { ok: true } }));
    await expect(answer).resolves.toEqual({ ok: true });
    expect(loop.pendingRequests).toBe(0);
    await loop.close();
    expect(loop.connected).toBe(false);
  });

  it("a subclass with a lifecycle of its own: refused with its closedReason while not connected; requestSignals gives each request an abort handle", async () => {
    const contexts: SendContext[] = [];
    class Staged extends EndpointTransport {
      open = false;
      override get connected(): boolean {
        return this.open;
      }
      protected override closedReason(): Error {
        return new TransportClosedError({ detail: "not open yet" });
      }
      protected send(_message: JsonRpcMessage, context: SendContext): void {
        contexts.push(context);
      }
      shut(): void {
        this.endpoint.close(new TransportClosedError({ detail: "shut" }));
      }
    }
    const staged = new Staged({ requestSignals: true, timeout: 50 });
    const early = await staged.request("ping").catch((error: unknown) => error);
    expect(TransportClosedError.isInstance(early) && early.message).toMatch(/not open yet/);
    await expect(staged.notify("notifications/x")).rejects.toThrow(/not open yet/);
    expect(contexts).toEqual([]);
    staged.open = true;
    const timedOut = staged.request("slow").catch((error: unknown) => error);
    const aborted = new Promise<void>((resolve) => contexts[0]!.abort!.onAbort(() => resolve()));
    await aborted; // the request timed out: its exchange is told to end
    expect((await timedOut) as Error).toHaveProperty("name", "RequestTimeoutError");
    const inFlight = staged.request("other").catch((error: unknown) => error);
    staged.shut();
    expect(((await inFlight) as Error).message).toMatch(/shut/);
  });
});
