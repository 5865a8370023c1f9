// What a connection to the gateway's front may hold: the count (in all, per address), the time to
// send a request head and a body, and nothing after a refusal. Raw loopback sockets against the
// gateway mounted in a test server (guardConnections on it), with small limits so the test is quick.
import { EventEmitter } from "node:events";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { connect, type Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/server";
import { buildProbe1x, startSdkServer, startV2HttpServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardConnections, type Caller, type ConnectionLimits, type CreateGatewayOptions } from "../src/index.js";
import { mountGateway } from "./app.js";

const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const ALICE: Caller = { id: "alice-id", name: "alice" };
const TOKEN = "alice-token-0123456789";

/** A tool answering `bytes` bytes of text: an answer bigger than the gateway lets wait unread. */
function buildBig(): McpServer {
  const server = new McpServer({ name: "big", version: "1" });
  server.registerTool(
    "big",
    { description: "Answers `bytes` bytes of text", inputSchema: z.object({ bytes: z.number().int() }) },
    ({ bytes }) => ({ content: [{ type: "text", text: "x".repeat(bytes) }] }),
  );
  server.registerTool(
    "wait",
    { description: "Answers after `ms`", inputSchema: z.object({ ms: z.number().int() }) },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: "text", text: `waited ${ms}` }] };
    },
  );
  return server;
}

async function mount(
  limits: ConnectionLimits,
  options: Partial<CreateGatewayOptions> = {},
): Promise<{ url: URL; guard: ReturnType<typeof guardConnections> }> {
  const upstream = await startSdkServer({ build: buildProbe1x });
  stops.push(() => upstream.stop());
  const big = await startV2HttpServer({ build: buildBig });
  stops.push(() => big.stop());
  const mounted = await mountGateway(
    { probe: { type: "http", url: upstream.url }, big: { type: "http", url: big.url } },
    { tokens: new Map([[TOKEN, ALICE]]), ...options },
  );
  stops.push(() => mounted.stop());
  const guard = guardConnections(mounted.app, limits);
  stops.push(() => guard.close());
  return { url: new URL(mounted.url), guard };
}

interface Raw {
  socket: Socket;
  /** What the server sent so far. */
  text: () => string;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

async function raw(url: URL, from = "127.0.0.1"): Promise<Raw> {
  const socket = connect({ port: Number(url.port), host: "127.0.0.1", localAddress: from });
  stops.push(() => void socket.destroy());
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) =>
    socket.once("connect", resolve).once("close", () => reject(new Error("closed before connecting"))),
  );
  return { socket, text: () => text, closed };
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>(
      (_, reject) => void setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms).unref(),
    ),
  ]);

describe("connections to the front", () => {
  it("are capped in all and per address: one more is closed at once, and the others still serve", async () => {
    const { url, guard } = await mount({ maxConnections: 6, maxPerAddress: 3 });
    const [one] = await Promise.all([raw(url), raw(url), raw(url)]);
    const fourth = await raw(url).catch(() => undefined);
    if (fourth) await within(fourth.closed, 5_000, "the 4th connection from 127.0.0.1 closed");
    await Promise.all([raw(url, "127.0.0.2"), raw(url, "127.0.0.2"), raw(url, "127.0.0.3")]);
    const seventh = await raw(url, "127.0.0.4").catch(() => undefined);
    if (seventh) await within(seventh.closed, 5_000, "the 7th connection closed");
    expect(guard.refused).toBe(2);
    expect(guard.open).toBe(6);
    // One goes: a caller's request is served again.
    one.socket.destroy();
    await expect.poll(() => guard.open).toBe(5);
    const answer = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(answer.status).not.toBe(401);
  });

  it("a connection that does not finish a request head in time is closed", async () => {
    const { url } = await mount({ headersTimeoutMs: 300 });
    const slow = await raw(url);
    slow.socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await within(slow.closed, 5_000, "the connection closed");
    expect(slow.text()).toBe("");
  });

  it("an unauthenticated request is answered 401 and its connection closed, its body neither read nor waited for", async () => {
    const { url } = await mount({});
    const c = await raw(url);
    c.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    await within(c.closed, 5_000, "the connection closed after the 401");
    expect(c.text()).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("a caller's body that comes too slowly is cut: 408, and the connection closed", async () => {
    const { url } = await mount({}, { bodyTimeoutMs: 300 });
    const c = await raw(url);
    c.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"jsonrpc"`,
    );
    await within(c.closed, 5_000, "the slow body cut");
    expect(c.text()).toMatch(/^HTTP\/1\.1 408 /);
  });

  // Node emits each pipelined request's "request" at once, its answer queued behind the one before:
  // the first answer's end must not start the head clock while the second is still being served.
  it("a pipelined request still being served when the one before it is answered is not cut by the head timeout", async () => {
    const { url } = await mount({ headersTimeoutMs: 300 });
    const c = await raw(url);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const post = (id: number, ms: number): string => {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "big__wait", arguments: { ms }, _meta: meta },
      });
      return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big__wait\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    c.socket.write(post(1, 0) + post(2, 1500));
    const both = new Promise<void>((resolve) =>
      c.socket.on("data", () => c.text().includes("waited 1500") && resolve()),
    );
    await within(Promise.race([both, c.closed]), 10_000, "the second answer or a close");
    expect(c.text()).toContain("waited 0");
    expect(c.text()).toContain("waited 1500");
  });

  it("a JSON answer the caller does not read is held only up to MAX_UNREAD_BYTES, and cut off when it reads nothing for unreadTimeoutMs", async () => {
    const { url, guard } = await mount({}, { unreadTimeoutMs: 300 });
    const size = 24 * 1024 * 1024;
    const socket = connect({ port: Number(url.port), host: "127.0.0.1" });
    stops.push(() => void socket.destroy());
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    // Nothing is read: no "data" listener until the gateway has cut the connection.
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "big__big", arguments: { bytes: size }, _meta: meta },
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big__big\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await expect.poll(() => guard.open, { timeout: 20_000 }).toBe(0);
    let received = 0;
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    await closed;
    // What reached the caller: what the sockets' buffers held when it was cut, far from the whole answer.
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(size / 2);
  });
});

describe("an initialize's size", () => {
  // Its params are saved for other replicas: the bound is on bytes, which is what is stored.
  it("is counted in bytes: 30,000 '€' (under 64 Ki characters, 90 KB) are refused with 400 and open no session", async () => {
    const { url } = await mount({});
    const params = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "€".repeat(30_000), version: "1" },
    };
    expect(JSON.stringify(params).length).toBeLessThan(64 * 1024);
    const answer = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }),
    });
    const text = await answer.text();
    expect(answer.status).toBe(400);
    expect(text).toContain("larger than 65536 bytes");
    expect(answer.headers.get("mcp-session-id")).toBeNull();
  });
});

// Loopback has one IPv6 address (::1), so a host holding a /64 — what any IPv6 site is given — is
// stood for by sockets that say they come from it: the guard sees only `remoteAddress`.
describe("the per-address cap over IPv6", () => {
  class FakeSocket extends EventEmitter {
    destroyed = false;
    constructor(readonly remoteAddress: string) {
      super();
    }
    destroy(): void {
      if (this.destroyed) return;
      this.destroyed = true;
      this.emit("close");
    }
  }
  const connectFrom = (server: HttpServer, addresses: string[]): FakeSocket[] =>
    addresses.map((address) => {
      const socket = new FakeSocket(address);
      server.emit("connection", socket);
      return socket;
    });

  it("counts the addresses of one /64 as one: the third of a cap of 2 is closed", () => {
    const server = createHttpServer();
    const guard = guardConnections(server, { maxPerAddress: 2, headersTimeoutMs: 60_000 });
    stops.push(() => guard.close());
    const sockets = connectFrom(server, ["2001:db8:0:1::1", "2001:db8:0:1:ffff::2", "2001:0db8:0000:0001:1:2:3:4"]);
    stops.push(() => sockets.forEach((s) => s.destroy()));
    expect(sockets.map((s) => s.destroyed)).toEqual([false, false, true]);
    expect(guard.refused).toBe(1);
    // Another /64 has its own count; a closed connection frees its place.
    const other = connectFrom(server, ["2001:db8:0:2::1"]);
    stops.push(() => other.forEach((s) => s.destroy()));
    expect(other[0]!.destroyed).toBe(false);
    sockets[0]!.destroy();
    expect(connectFrom(server, ["2001:db8:0:1::9"])[0]!.destroyed).toBe(false);
  });

  it("counts an IPv4 address mapped into IPv6 as the IPv4 one", () => {
    const server = createHttpServer();
    const guard = guardConnections(server, { maxPerAddress: 1, headersTimeoutMs: 60_000 });
    stops.push(() => guard.close());
    const sockets = connectFrom(server, ["127.0.0.1", "::ffff:127.0.0.1"]);
    stops.push(() => sockets.forEach((s) => s.destroy()));
    expect(sockets.map((s) => s.destroyed)).toEqual([false, true]);
  });
});
