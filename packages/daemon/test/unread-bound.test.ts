// A host that never reads its stdout, with requests in service whose answers are large (real
// server-everything's tools/list, ~7 KB each): past the socket's buffer the daemon reads no more of
// it, but the answers of the requests already in service still come. They must not pile up in the
// daemon: past `poolMaxUnreadBytes` unread on that host's connection its session is ended and said
// in `pool/status` (`ended`), while another host on the same server is served. Both connections a
// shim can have: the Node shim's Unix socket (`pool/attach`) and the light shim's D (a TCP
// connection). The hosts are real sockets, paused (they read nothing).
import { connect, type Socket } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { daemonRequest, requestTicket, type AttachParams, type PoolStatus } from "../src/index.js";
import { daemonSandbox, everything } from "./helpers.js";

const LIMIT = 1024 * 1024;
/** 5,000 tools/list in service at once: ~35 MB of answers, 35 times the bound. */
const FLOOD = 5000;

const box = daemonSandbox("mcp-daemon-unread-");
beforeEach(async () => void (await box.start({ poolMaxUnreadBytes: LIMIT })));

const params = (shimPid: number): AttachParams => ({
  server: "everything",
  config: { ...everything, cwd: box.dir },
  project: box.dir,
  shimPid,
  parentPid: process.pid,
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "unread-host", version: "1" } },
};
const toolsList = (id: number): object => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
/** Whether `line` (a host's message, wrapped as `{ id: 0, mcp }` on the Node shim's wire) answers tools/list `id`. */
const listed =
  (id: number) =>
  (line: string): boolean => {
    if (!line.startsWith("{")) return false; // the light shim's D says the daemon's proof first
    const message = JSON.parse(line) as { mcp?: unknown };
    const mcp = (message.mcp ?? message) as { id?: unknown; result?: { tools?: unknown } };
    return mcp.id === id && Array.isArray(mcp.result?.tools);
  };

/** A socket's lines as they come, and a way to wait for one. */
function lines(socket: Socket): {
  until: (check: (line: string) => boolean) => Promise<string>;
  closed: Promise<void>;
} {
  let text = "";
  const seen: string[] = [];
  const waiting = new Set<() => void>();
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      seen.push(text.slice(0, end));
      text = text.slice(end + 1);
    }
    for (const check of waiting) check();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const until = (met: (line: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      const check = (): void => {
        const found = seen.find(met);
        if (found === undefined) return;
        waiting.delete(check);
        resolve(found);
      };
      waiting.add(check);
      check();
    });
  return { until, closed };
}

async function open(to: { path: string } | { host: string; port: number }): Promise<Socket> {
  const socket = connect(to);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return socket;
}

/** A host through the Node shim's wire: its socket, attached and opened; `send` writes one host message. */
async function nodeHost(shimPid: number) {
  const socket = await open({ path: box.socket });
  const read = lines(socket);
  socket.write(`${JSON.stringify({ id: 1, method: "pool/attach", params: params(shimPid) })}\n`);
  await read.until((line) => line.includes('"attached"'));
  const send = (mcp: object): boolean => socket.write(`${JSON.stringify({ id: 0, mcp })}\n`);
  send(initialize);
  await read.until((line) => line.includes('"serverInfo"'));
  return { socket, read, send, stopReading: () => socket.pause(), reading: socket };
}

/** A host through the light shim's two connections: U (its lines in), D (the pool's out), paired and opened. */
async function lightHost(shimPid: number) {
  const { port, ticket } = await requestTicket(box.socket, params(shimPid));
  const up = await open({ host: "127.0.0.1", port });
  const upRead = lines(up);
  up.write(`${ticket}\n`);
  const pair = (await upRead.until(() => true)).split(" ")[1]!;
  const down = await open({ host: "127.0.0.1", port });
  const read = lines(down);
  down.write(`${pair}\n`);
  await read.until(() => true);
  const send = (mcp: object): boolean => up.write(`${JSON.stringify(mcp)}\n`);
  send(initialize);
  await read.until((line) => line.includes('"serverInfo"'));
  return { socket: up, read, send, stopReading: () => down.pause(), reading: down };
}

const status = async (): Promise<PoolStatus> => (await daemonRequest(box.socket, "pool/status", {})) as PoolStatus;

describe.each([
  ["Node", nodeHost],
  ["light", lightHost],
] as const)("a host that never reads, through the %s shim's connection", (shim, attach) => {
  it("is ended once more than the bound waits unread for it; the daemon held at most the bound and one answer, and another host was served", async () => {
    const deaf = await attach(4001);
    const other = await attach(4002);
    // One answer's size on the wire, as the other host reads it.
    other.send(toolsList(2));
    const answer = await other.read.until(listed(2));
    deaf.stopReading();
    let flood = "";
    for (let id = 2; id < 2 + FLOOD; id++)
      flood += `${JSON.stringify(shim === "Node" ? { id: 0, mcp: toolsList(id) } : toolsList(id))}\n`;
    deaf.socket.write(flood);
    // Meanwhile the other host is served on the same server.
    other.send(toolsList(3));
    await other.read.until(listed(3));
    await expect
      .poll(async () => (await status()).ended.map((e) => e.shimPid), { timeout: 120_000, interval: 200 })
      .toContain(4001);
    const after = await status();
    const ended = after.ended.find((e) => e.shimPid === 4001)!;
    expect(ended.server).toBe("everything");
    expect(ended.reason).toMatch(/left \d+ bytes of answers unread .*over the daemon's limit of 1048576/);
    expect(ended.unreadBytes).toBeGreaterThan(LIMIT);
    // Never more than the bound and one message waited for any host in the daemon.
    expect(after.maxUnreadBytes).toBe(LIMIT);
    expect(after.peakUnreadBytes).toBeGreaterThan(LIMIT);
    // (one message: the answer the other host read, with its newline and an id up to 4 digits longer)
    expect(after.peakUnreadBytes).toBeLessThanOrEqual(LIMIT + Buffer.byteLength(answer) + 1 + 4);
    // Its connection is closed; the other host is still attached and still served.
    deaf.reading.resume();
    await deaf.read.closed;
    expect(after.ended.map((e) => e.shimPid)).not.toContain(4002);
    other.send(toolsList(4));
    await other.read.until(listed(4));
    const attached = async (): Promise<unknown[]> =>
      (await status()).servers.flatMap((server) => server.hosts.map((host) => host.info["shimPid"]));
    await expect.poll(attached).toEqual([4002]);
    other.socket.destroy();
  }, 180_000);
});

// The bound is on bytes, but a connection's `writableLength` counts a string written to it in UTF-16
// code units: an answer of CJK text (3 bytes a character in UTF-8) counts a third of what it holds.
// Four answers of ~5.4 MiB of CJK each wait unread (7.2 Mi code units in all, under the 8 MiB bound;
// 21.6 MiB, of which the loopback's kernel buffers take at most ~10), then a small answer comes: the
// bound must see the bytes and end the session. (Seen failing without the fix, both shims: every
// answer was written and nothing was ended.)
describe.each([
  ["Node", nodeHost],
  ["light", lightHost],
] as const)("a host that leaves non-ASCII answers unread, through the %s shim's connection", (shim, attach) => {
  it("is ended by the bytes it left unread, not by their UTF-16 length", async () => {
    const bound = 8 * LIMIT;
    await box.daemon?.close();
    // Every request in service at once (the default mark, 1 MiB, would hold all but the first).
    await box.start({ poolMaxUnreadBytes: bound, poolMaxQueuedBytes: 4 * bound });
    const chars = Math.floor(0.225 * bound);
    const deaf = await attach(4101);
    const echo = (id: number, message: string): object => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { message } },
    });
    deaf.stopReading();
    const wire = (mcp: object): string => `${JSON.stringify(shim === "Node" ? { id: 0, mcp } : mcp)}\n`;
    for (let id = 2; id < 6; id++) deaf.socket.write(wire(echo(id, "漢".repeat(chars))));
    deaf.socket.write(wire(echo(6, "x")));
    // Either the session was ended, or every answer was handed to its connection (none left in service).
    const mine = (now: PoolStatus) => now.servers.flatMap((s) => s.hosts).find((h) => h.info["shimPid"] === 4101);
    await expect
      .poll(
        async () => {
          const now = await status();
          const host = mine(now);
          return (
            now.ended.some((e) => e.shimPid === 4101) ||
            (host !== undefined && host.peakQueuedBytes > 4 * chars && host.queuedBytes === 0)
          );
        },
        { timeout: 120_000, interval: 200 },
      )
      .toBe(true);
    const after = await status();
    expect(after.ended.map((e) => e.shimPid)).toContain(4101);
    expect(after.ended.find((e) => e.shimPid === 4101)!.unreadBytes).toBeGreaterThan(bound);
    deaf.reading.resume();
    await deaf.read.closed;
  }, 180_000);
});
