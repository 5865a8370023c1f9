// An idle connection kept alive stays open past the time the gateway's `Keep-Alive: timeout=` states:
// a caller that reuses it inside that time (as fetch does, up to two seconds before) gets its answer
// even when the event loop is late, instead of a reset from Node closing it one second after that
// time with the request unread. A raw loopback caller against the gateway mounted in a test server
// whose idle timeout is one second; the late loop is made by blocking it (Atomics.wait) right after
// the caller's request is written, as a busy host does at random.
import { once } from "node:events";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CreateGatewayOptions } from "../src/index.js";
import { mountProbe, TOKEN } from "./probe-mount.js";
import { envelope } from "./raw-call.js";

const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The test server's idle timeout: its answers state `Keep-Alive: timeout=1`. */
const KEEP_ALIVE_MS = 1_000;
/** How late the loop is: past Node's own second after the stated time, well inside the gateway's grace (5 s). */
const LATE_MS = KEEP_ALIVE_MS + 1_000 + 1_000;

/** The gateway in a test server with a one-second idle timeout, and the server side of each connection. */
async function mount(options: Partial<CreateGatewayOptions> = {}) {
  const { url, app, accepted } = await mountProbe(stops, options);
  app.keepAliveTimeout = KEEP_ALIVE_MS;
  return { url, accepted };
}

/** A 2026-07-28 `tools/list` as raw bytes. */
function listRequest(url: URL, id: number): string {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: envelope() } });
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** A caller on one connection: each answer (a head and a `Content-Length` body) as it is read whole; its error and its close. */
async function caller(url: URL) {
  const socket = connect({ port: Number(url.port), host: "127.0.0.1" });
  stops.push(() => void socket.destroy());
  let buffered = "";
  let error: string | undefined;
  const answers: Answer[] = [];
  const waiting: ((answer: Answer) => void)[] = [];
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    for (;;) {
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffered.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
      if (buffered.length < end + 4 + length) return;
      const answer = { status: Number(head.split(" ")[1]), head, body: buffered.slice(end + 4, end + 4 + length) };
      buffered = buffered.slice(end + 4 + length);
      answers.push(answer);
      waiting.shift()?.(answer);
    }
  });
  socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await once(socket, "connect");
  /** The `n`th answer (from 0), or the connection's end first (undefined). */
  const answer = (n: number): Promise<Answer | undefined> =>
    answers[n]
      ? Promise.resolve(answers[n])
      : Promise.race([new Promise<Answer>((resolve) => waiting.push(resolve)), closed.then(() => undefined)]);
  return { socket, closed, answer, error: () => error };
}

/** Blocks this thread's event loop for `ms`, as a busy host's scheduler does. */
const blockLoop = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe("an idle connection kept alive", () => {
  it("answers a request sent inside the stated time even when the loop is late past Node's own margin", async () => {
    const { url, accepted } = await mount();
    const c = await caller(url);
    c.socket.write(listRequest(url, 1));
    const first = await c.answer(0);
    expect(first?.status).toBe(200);
    expect(first?.head).toMatch(/\r\nKeep-Alive: timeout=1(\r\n|$)/i);
    // At once, well inside the stated second, the next request on the same connection; then the loop
    // is late. After a check-phase callback, due timers run before the next poll reads the request.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        c.socket.write(listRequest(url, 2));
        blockLoop(LATE_MS);
        resolve();
      }),
    );
    const second = await c.answer(1);
    expect(c.error()).toBeUndefined();
    expect(second?.status).toBe(200);
    expect(JSON.parse(second!.body)).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    expect(accepted).toHaveLength(1);
  });

  it("is still closed once idle for the stated time and the grace", async () => {
    const graceMs = 1_500;
    const { url, accepted } = await mount({ keepAliveGraceMs: graceMs });
    const c = await caller(url);
    // Before the request: the answer, and the idle time after it, come later.
    const sent = performance.now();
    c.socket.write(listRequest(url, 1));
    expect((await c.answer(0))?.status).toBe(200);
    // The answer is finished (the caller has read it): the server's idle timeout is the stated time and the grace.
    expect(accepted[0]!.timeout).toBe(KEEP_ALIVE_MS + graceMs);
    await c.closed;
    expect(performance.now() - sent).toBeGreaterThanOrEqual(KEEP_ALIVE_MS + graceMs);
    expect(c.error()).toBeUndefined();
  });

  it("a refusal still closes its connection at once", async () => {
    const { url } = await mount();
    const c = await caller(url);
    c.socket.write(listRequest(url, 1).replace(`Bearer ${TOKEN}`, "Bearer not-a-token"));
    const refused = await c.answer(0);
    expect(refused?.status).toBe(401);
    expect(refused?.head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    await c.closed;
    expect(c.error()).toBeUndefined();
  });
});
