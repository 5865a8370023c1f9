// The light shim's loopback listener (light-relay.ts) in an in-process daemon, played by raw TCP
// connections as the script's bash opens them: the ticket on U, the proof and a pairing secret back,
// the pairing secret on D, the proof again; then the host's lines on U and the pool's on D. Strangers
// on the port (a wrong ticket, a wrong or replayed pairing secret, a second U) are closed without a
// word, and either connection closing ends the session and the other connection.
import { connect, type Socket } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { daemonRequest, requestTicket, type AttachParams, type PoolStatus } from "../src/index.js";
import { PAIR_DEADLINE_MS } from "../src/light-relay.js";
import { daemonSandbox, everything } from "./helpers.js";

const box = daemonSandbox("mcp-daemon-light-", true);
let dir: string;
let socket: string;
beforeEach(() => void ({ dir, socket } = box));

const params = (): AttachParams => ({
  server: "everything",
  config: { ...everything, cwd: dir },
  project: dir,
  shimPid: process.pid,
  parentPid: process.ppid,
});

const initialize = (id: number): string =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "light-host", version: "1" } } })}\n`;

/** A TCP connection to the daemon's loopback listener, as the light shim's bash opens it: what it is sent, and when it closes. */
async function tcp(port: number): Promise<{
  socket: Socket;
  received: () => string;
  /** Resolves once what was received meets `check`. */
  until: (check: (received: string) => boolean) => Promise<void>;
  closed: Promise<void>;
}> {
  const socket = connect({ host: "127.0.0.1", port });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.on("error", () => {});
  let text = "";
  const waiting = new Set<() => void>();
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (const check of waiting) check();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const until = (met: (received: string) => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (met(text)) {
          waiting.delete(check);
          resolve();
        }
      };
      waiting.add(check);
      check();
    });
  return { socket, received: () => text, until, closed };
}

type Connection = Awaited<ReturnType<typeof tcp>>;

/** U as the script opens it: the ticket said, `<proof> <pair>` read back. */
async function openUp(port: number, ticket: string, proof: string): Promise<{ up: Connection; pair: string }> {
  const up = await tcp(port);
  up.socket.write(`${ticket}\n`);
  await up.until((text) => text.includes("\n"));
  const [said, pair] = up.received().trim().split(" ");
  expect(said).toBe(proof);
  expect(pair).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { up, pair: pair! };
}

/** The answer to request `id` among a connection's lines (notifications the server sends first are passed over). */
function answer(connection: Connection, id: number): Record<string, unknown> | undefined {
  for (const line of connection.received().split("\n").slice(1, -1)) {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (message["id"] === id) return message;
  }
  return undefined;
}

async function hosts(): Promise<number> {
  const status = (await daemonRequest(socket, "pool/status", {})) as PoolStatus;
  return status.servers.reduce((sum, server) => sum + server.hosts.length, 0);
}

describe("requestTicket and the light shim's loopback listener", () => {
  it("a wrong ticket is closed without a word; the right one gets the proof and a pairing secret, D paired gets the proof, the host's lines on U are answered on D; a ticket works once", async () => {
    const { port, ticket, proof } = await requestTicket(socket, params());
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const stranger = await tcp(port);
    stranger.socket.write(`${"A".repeat(43)}\n`);
    await stranger.closed;
    expect(stranger.received()).toBe("");

    const { up, pair } = await openUp(port, ticket, proof);
    const down = await tcp(port);
    down.socket.write(`${pair}\n`);
    await down.until((text) => text.includes("\n"));
    expect(down.received()).toBe(`${proof}\n`);
    up.socket.write(initialize(1));
    await down.until(() => answer(down, 1) !== undefined);
    expect(answer(down, 1)).toMatchObject({ id: 1, result: { serverInfo: expect.anything() } });
    // U carries nothing back after its first line.
    expect(up.received()).toBe(`${proof} ${pair}\n`);

    // The same ticket again: closed unanswered.
    const replay = await tcp(port);
    replay.socket.write(`${ticket}\n`);
    await replay.closed;
    expect(replay.received()).toBe("");
    up.socket.destroy();
    await Promise.all([up.closed, down.closed]);
  });

  it("a stranger's second connection (a wrong pairing secret, the ticket again) and a replayed pairing secret are closed without a word and get nothing of the session", async () => {
    const { port, ticket, proof } = await requestTicket(socket, params());
    const { up, pair } = await openUp(port, ticket, proof);
    // While U waits for its D: a secret of the right shape that is not its pair, and the ticket U used.
    const wrongPair = await tcp(port);
    wrongPair.socket.write(`${"B".repeat(43)}\n`);
    const ticketAgain = await tcp(port);
    ticketAgain.socket.write(`${ticket}\n`);
    await Promise.all([wrongPair.closed, ticketAgain.closed]);
    expect(wrongPair.received()).toBe("");
    expect(ticketAgain.received()).toBe("");
    // The real D still pairs.
    const down = await tcp(port);
    down.socket.write(`${pair}\n`);
    await down.until((text) => text === `${proof}\n`);
    // The pairing secret again, once used: closed without a word, and U's lines still go to the first D only.
    const replayed = await tcp(port);
    replayed.socket.write(`${pair}\n`);
    await replayed.closed;
    expect(replayed.received()).toBe("");
    up.socket.write(initialize(7));
    await down.until(() => answer(down, 7) !== undefined);
    expect(await hosts()).toBe(1);
    up.socket.destroy();
    await down.closed;
  });

  it("a U whose D never comes is closed at the pairing deadline, and its pairing secret is no good after", async () => {
    const { port, ticket, proof } = await requestTicket(socket, params());
    const started = Date.now();
    const { up, pair } = await openUp(port, ticket, proof);
    await up.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(PAIR_DEADLINE_MS - 100);
    const late = await tcp(port);
    late.socket.write(`${pair}\n`);
    await late.closed;
    expect(late.received()).toBe("");
  });

  it.each(["U", "D"] as const)(
    "%s closing (its cat ended) ends the pool session and the other connection",
    async (which) => {
      const { port, ticket, proof } = await requestTicket(socket, params());
      const { up, pair } = await openUp(port, ticket, proof);
      const down = await tcp(port);
      down.socket.write(`${pair}\n`);
      await down.until((text) => text === `${proof}\n`);
      up.socket.write(initialize(1));
      await down.until(() => answer(down, 1) !== undefined);
      expect(await hosts()).toBe(1);
      // A cat that ends closes its connection (FIN): the daemon closes the other one.
      (which === "U" ? up : down).socket.end();
      await Promise.all([up.closed, down.closed]);
      await expect.poll(hosts, { timeout: 10_000 }).toBe(0);
    },
  );

  it("a hello over 64 bytes is closed unread; at most 16 connections wait for their hello, the next is closed unread even with a good ticket", async () => {
    const { port, ticket } = await requestTicket(socket, params());
    const long = await tcp(port);
    long.socket.write("x".repeat(65));
    await long.closed;
    expect(long.received()).toBe("");
    const waiting = await Promise.all(Array.from({ length: 16 }, () => tcp(port)));
    const late = await tcp(port);
    late.socket.write(`${ticket}\n`);
    await late.closed;
    expect(late.received()).toBe("");
    for (const connection of waiting) connection.socket.destroy();
  });

  it("a ticket request of the wrong shape is refused naming the field", async () => {
    await expect(
      requestTicket(socket, { server: "", config: everything, shimPid: 1, parentPid: 1 }),
    ).rejects.toMatchObject({
      name: "DaemonError",
      message: "pool/ticket: params.server must be a non-empty string",
      exitCode: 2,
    });
  });
});
