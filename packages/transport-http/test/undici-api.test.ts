import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, type Dispatcher } from "undici";

// Why the exchange handler (src/undici-response.ts) stays on undici's core callbacks: the
// controller API does not report that a request was written whole, which `mayHaveRun` rests on.
// When this test fails, undici's controller API has learnt to say so: move the handler to it.

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function callbacksSeen(handler: (seen: string[], done: () => void) => Dispatcher.DispatchHandler): Promise<string[]> {
  const agent = new Agent();
  const seen: string[] = [];
  return new Promise<void>((resolve) =>
    agent.dispatch({ origin, path: "/", method: "POST", body: "{}" }, handler(seen, resolve)),
  )
    .then(() => agent.close())
    .then(() => seen);
}

describe("undici's handler APIs, as the exchange uses them", () => {
  it("the core callbacks report a request written whole (onRequestSent) before its answer", async () => {
    const seen = await callbacksSeen((seen, done) => ({
      onConnect: () => void seen.push("connect"),
      onRequestSent: () => void seen.push("sent"),
      onHeaders: () => (seen.push("headers"), true),
      onData: () => true,
      onComplete: () => (seen.push("complete"), done()),
      onError: (error: Error) => (seen.push(`error ${error.message}`), done()),
    }));
    expect(seen).toEqual(["connect", "sent", "headers", "complete"]);
  });

  it("the controller API does not (undici 7): moving the handler to it would lose what mayHaveRun knows", async () => {
    const seen = await callbacksSeen((seen, done) => ({
      onRequestStart: () => void seen.push("start"),
      onRequestSent: () => void seen.push("sent"),
      onResponseStart: () => void seen.push("response"),
      onResponseData: () => undefined,
      onResponseEnd: () => (seen.push("end"), done()),
      onResponseError: (_controller: unknown, error: Error) => (seen.push(`error ${error.message}`), done()),
    }));
    expect(seen).toEqual(["start", "response", "end"]);
  });
});
