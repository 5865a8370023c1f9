// A refusal's answer reaches a caller still sending its body (a lingering close): the gateway
// half-closes after the answer and drops what still comes, instead of destroying the socket with
// unread bytes (the kernel then resets the connection, and a caller that has not read the answer
// yet loses it). Raw loopback sockets against the gateway mounted in a test server; every wait is
// on an event of the server's socket or the caller's.
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { guardConnections, type CreateGatewayOptions } from "../src/index.js";
import { mountProbe, TOKEN } from "./probe-mount.js";

const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const MiB = 1024 * 1024;

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>(
      (_, reject) => void setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms).unref(),
    ),
  ]);

/** Resolves when `socket` has closed (an 'error' before it, as a reset, is not a rejection). */
const closedOf = (socket: Socket): Promise<void> =>
  socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once("close", () => resolve()));

/** The gateway in a test server behind the connection guard, with the server side of each connection it accepts, in order. */
async function mount(options: Partial<CreateGatewayOptions> = {}) {
  const { url, app, serverSide, requests } = await mountProbe(stops, options);
  const guard = guardConnections(app);
  stops.push(() => guard.close());
  return { url, guard, serverSide, requests };
}

/** A caller that reads nothing until told to, then keeps what it reads; its errors are kept, not thrown. */
async function caller(url: URL) {
  // Half-open allowed: the caller, not Node, decides when it ends its side after the gateway's FIN.
  const socket = connect({ port: Number(url.port), host: "127.0.0.1", allowHalfOpen: true });
  stops.push(() => void socket.destroy());
  socket.pause();
  let text = "";
  let error: string | undefined;
  socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  const closed = closedOf(socket);
  await once(socket, "connect");
  return {
    socket,
    closed,
    /** Starts reading: what the gateway sent, as text. */
    read: () => void socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1"))),
    text: () => text,
    error: () => error,
  };
}

/** A POST's head: its body's length declared, or chunked (`undefined`, the length learnt only by reading it). */
const head = (url: URL, length: number | undefined, token = TOKEN) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${length === undefined ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`}\r\n\r\n`;

/** Writes `mib` MiB (forever when undefined) as fast as the socket takes it, as chunks when `chunked`; stops when it closes. */
function pump(socket: Socket, mib?: number, chunked = false): { sent: () => number } {
  const spaces = Buffer.alloc(MiB, 32);
  const chunk = chunked ? Buffer.concat([Buffer.from(`${MiB.toString(16)}\r\n`), spaces, Buffer.from("\r\n")]) : spaces;
  let sent = 0;
  const more = (): void => {
    while (!socket.destroyed && socket.writable && (mib === undefined || sent < mib)) {
      sent++;
      if (!socket.write(chunk)) return void socket.once("drain", more);
    }
  };
  more();
  return { sent: () => sent };
}

/** Resolves when the server's socket has ended its write side, or is gone (whichever first). */
const answered = (server: Socket): Promise<unknown> =>
  server.writableFinished || server.destroyed
    ? Promise.resolve()
    : new Promise((resolve) => server.once("finish", resolve).once("close", resolve));

/** The caller reads at last, ends its side once the gateway has ended its own, and the connection closes. */
async function readToTheEnd(c: Awaited<ReturnType<typeof caller>>): Promise<void> {
  c.read();
  c.socket.resume();
  // The caller's end lets a lingering gateway close; a reset connection is closed already.
  c.socket.once("end", () => c.socket.end());
  await within(c.closed, 20_000, "the connection closed");
}

describe("a refusal while the caller still sends its body", () => {
  it.each([
    ["declared", 64 * MiB],
    ["chunked (read past the limit)", undefined],
  ])(
    "reaches a caller that reads it only after the gateway is done writing: 413, not a reset (body length %s)",
    async (_, length) => {
      const { url, serverSide } = await mount();
      const c = await caller(url);
      c.socket.write(head(url, length));
      pump(c.socket, 64, length === undefined);
      // The answer and the gateway's side of the connection are done before the caller reads a byte.
      await within(answered(await serverSide(0)), 20_000, "the gateway's socket finished");
      await readToTheEnd(c);
      expect(c.error()).toBeUndefined();
      expect(c.text()).toMatch(/^HTTP\/1\.1 413 /);
      expect(c.text()).toContain(`larger than ${4 * MiB} bytes`);
    },
  );

  it("a 401 before the body is read also reaches a caller that reads late", async () => {
    const { url, serverSide } = await mount();
    const c = await caller(url);
    c.socket.write(head(url, 64 * MiB, "not-a-token"));
    pump(c.socket, 64);
    await within(answered(await serverSide(0)), 20_000, "the gateway's socket finished");
    await readToTheEnd(c);
    expect(c.error()).toBeUndefined();
    expect(c.text()).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("a caller that sends forever is cut after lingerMs: the connection closes", async () => {
    const { url, guard, serverSide } = await mount({ lingerMs: 500 });
    const c = await caller(url);
    c.socket.write(head(url, 1024 * 1024 * MiB));
    c.read();
    c.socket.resume();
    const sending = pump(c.socket);
    const server = await serverSide(0);
    await within(closedOf(server), 20_000, "the endless sender cut");
    await within(c.closed, 5_000, "the caller's socket closed");
    expect(c.text()).toMatch(/^HTTP\/1\.1 413 /);
    // It went on sending past the answer (it was read and dropped), and was cut all the same.
    expect(sending.sent()).toBeGreaterThan(8);
    await expect.poll(() => guard.open).toBe(0);
  });

  it("a caller that closes once it has read the answer leaves no socket open", async () => {
    const { url, guard, serverSide } = await mount();
    const c = await caller(url);
    c.socket.write(head(url, 64 * MiB));
    pump(c.socket, 8);
    c.read();
    c.socket.resume();
    await expect.poll(() => c.text()).toMatch(/^HTTP\/1\.1 413 [^]*\r\n\r\n\{.*\}$/);
    const server = await serverSide(0);
    c.socket.end();
    await within(closedOf(server), 20_000, "the gateway's socket closed");
    await within(c.closed, 5_000, "the caller's socket closed");
    // The gateway read on to the caller's end (what it sent after the answer was dropped, not left to reset).
    expect(server.readableEnded).toBe(true);
    expect(c.error()).toBeUndefined();
    expect(guard.open).toBe(0);
  });

  it("a request sent after the refusal, on the connection closing, is neither served nor answered", async () => {
    const { url, serverSide, requests } = await mount();
    const c = await caller(url);
    c.read();
    c.socket.resume();
    // Refused (no valid token) before its body is read; the rest of the body comes after the answer.
    c.socket.write(`${head(url, 1000, "not-a-token")}{"a":`);
    await within(new Promise((resolve) => c.socket.once("end", resolve)), 20_000, "the answer and the gateway's end");
    expect(c.text()).toMatch(/^HTTP\/1\.1 401 /);
    c.socket.write(`${" ".repeat(994)}}${head(url, 2)}{}`);
    c.socket.end();
    await within(closedOf(await serverSide(0)), 20_000, "the gateway's socket closed");
    await within(c.closed, 5_000, "the caller's socket closed");
    // The second request reached the server, but the gateway wrote nothing for it.
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headersSent).toBe(false);
    expect(c.text().match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(c.error()).toBeUndefined();
  });
});
