// The light relay (light-relay.ts) and a host that stops reading its stdout while it keeps writing:
// the pool's answers must not pile up in the daemon's memory (one such host would grow the daemon
// shared by every host without bound); U is read no more until D drains, so the host's requests wait
// in its own pipe. The pool is a stand-in here that answers every line at once with 64 KB: what a
// real server cannot be made to do on cue. U and D are raw TCP connections, as the script's bash opens them.
import { connect, type Socket } from "node:net";
import { afterEach, expect, it } from "vitest";
import { LightRelay } from "../src/light-relay.js";

const ANSWER = "y".repeat(64 * 1024);
let relay: LightRelay<string> | undefined;

afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

async function open(port: number): Promise<Socket> {
  const socket = connect({ host: "127.0.0.1", port });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.on("error", () => {});
  return socket;
}

/** The first line `socket` is sent (paused after it). */
function firstLine(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\n");
      if (end < 0) return;
      socket.off("data", onData);
      socket.pause();
      resolve(text.slice(0, end));
    };
    socket.on("data", onData);
  });
}

it("a host that does not read its stdout is not read either: the answers held in the daemon stay bounded, and all arrive in order once it reads", async () => {
  let received = 0;
  // What the relay told the session of its host's reading (false: D full, its requests to wait unstarted).
  const reads: boolean[] = [];
  relay = new LightRelay<string>((_params, host) => ({
    session: {
      hostReads: (value) => void reads.push(value),
      receive: (message) => {
        received++;
        host.send({ jsonrpc: "2.0", id: (message as { id: number }).id, result: { text: ANSWER } });
      },
      close: () => {},
    },
    approved: Promise.resolve(),
  }));
  const { port, ticket, proof } = await relay.issue("server");
  const up = await open(port);
  const upSaid = firstLine(up);
  up.write(`${ticket}\n`);
  const [gotProof, secret] = (await upSaid).split(" ");
  expect(gotProof).toBe(proof);
  const down = await open(port);
  const downSaid = firstLine(down);
  down.write(`${secret}\n`);
  expect(await downSaid).toBe(proof);
  // D is not read from here on; the host writes 2,000 requests (128 MB of answers if all were read).
  const total = 2_000;
  for (let id = 1; id <= total; id++) up.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`);
  await expect.poll(() => relay!.held, { timeout: 30_000 }).toBe(1);
  const heldAt = received;
  expect(heldAt).toBeLessThan(total / 4);
  expect(reads).toEqual([false]);
  // The host reads again: every answer arrives, in order, and U is read again.
  let text = "";
  let lines = 0;
  let next = 1;
  const done = new Promise<void>((resolve, reject) => {
    down.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
        const id = (JSON.parse(text.slice(0, end)) as { id: number }).id;
        text = text.slice(end + 1);
        if (id !== next++) reject(new Error(`answer ${id} out of order`));
        if (++lines === total) resolve();
      }
    });
  });
  down.resume();
  await done;
  expect(received).toBe(total);
  expect(relay.held).toBe(0);
  expect(reads[0]).toBe(false);
  expect(reads.at(-1)).toBe(true);
  expect(reads.filter((r) => !r)).toHaveLength(reads.filter((r) => r).length);
  up.destroy();
  down.destroy();
}, 60_000);
