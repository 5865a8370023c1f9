// A request that says `Connection: close` (RFC 9112 §9.6): the server must close the connection after
// its answer, and should say `connection: close` in it. The gateway's event-stream answers (an
// initialize, a call) set `connection: keep-alive` themselves, which makes node:http keep the
// connection open against the caller's word, and the keep-alive grace then holds it idle for the
// stated time and 5 s more. A real served gateway (startGatewayServer), a raw loopback caller.
import { connect } from "node:net";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { afterEach, expect, it } from "vitest";
import { createGateway, gatewayHandlers, startGatewayServer } from "../src/index.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const TOKEN = "alice-token-0123456789";

it("closes the connection after answering a request that says Connection: close, and says so", async () => {
  const handlers = gatewayHandlers();
  const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, ...handlers, cache: false });
  await manager.connectServers({});
  const gateway = createGateway(manager, { handlers, tokens: new Map([[TOKEN, { id: "alice", name: "alice" }]]) });
  const served = await startGatewayServer(gateway);
  stops.push(async () => {
    await served.close();
    await gateway.close();
    await manager.disconnectAll();
  });
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "closer", version: "1" } },
  });
  const request = (extra: string): string =>
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
  const socket = connect(served.port, "127.0.0.1");
  socket.on("error", () => {});
  let text = "";
  const answered = new Promise<void>((resolve) =>
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('"serverInfo"')) resolve();
    }),
  );
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(request("Connection: close\r\n"));
  await answered;
  const head = text.slice(0, text.indexOf("\r\n\r\n")).toLowerCase();
  // A second request on the same connection: a server that closed as asked never answers it.
  socket.write(request(""));
  await closed;
  expect(head).toMatch(/\r\nconnection: close(\r\n|$)/);
  expect(text.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
}, 60_000);
