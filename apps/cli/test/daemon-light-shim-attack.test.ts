// The light shim (shim/mcp-shim) under attack: what a host or another process can do to the script,
// the two `cat`s it leaves (U: the host's stdin to the daemon, in the background; D: the daemon to the
// host's stdout, the pid the host waits on) and the daemon's loopback listener. Real processes only:
// the built CLI, bash, cat, the daemon and server-everything.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { mcp, type Sandbox } from "./helpers.js";
import {
  alive,
  hosts,
  initialize,
  lightShim as shim,
  names,
  poolSandbox,
  rawConnection as raw,
  script,
  tree,
} from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

describe.skipIf(process.platform !== "linux")("the light shim under attack", () => {
  const sandboxNow = poolSandbox();
  let box: Sandbox;
  beforeEach(() => (box = sandboxNow()));

  it("the host SIGKILLs the shim's pid: D closes, the daemon ends the session, and no process is left", async () => {
    const { child } = await shim(box);
    const pids = await tree(child.pid!);
    expect(pids.length).toBe(2); // the two cats, no bash
    expect(await hosts(box)).toBe(1);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    // The test does not touch the pipes: Node lets go of a child's stdin when it exits, which ends the other cat.
    for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
    await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it("the background cat (U) SIGKILLed: the daemon ends the session, the shim's stdout ends and it exits", async () => {
    const { child } = await shim(box);
    const [pid, up] = await tree(child.pid!);
    expect(up).toBeDefined();
    const ended = new Promise((resolve) => child.stdout.once("end", resolve));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    process.kill(up!, "SIGKILL");
    await ended;
    expect(await exited).toBe(0);
    expect(alive(pid!)).toBe(false);
    await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it("several hosts on one pooled upstream, the same request ids, random interleavings: each gets only its own answers", async () => {
    const seed = Number(process.env["MCP_TEST_SEED"] ?? Date.now() % 100_000);
    // mulberry32: the interleaving is reproducible from the seed in the failure message.
    let state = seed;
    const random = (): number => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const shims = await Promise.all([0, 1, 2].map(() => shim(box)));
    for (const { child } of shims)
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const ids = [2, 3, 4, 5, 6, 7, 8, 9];
    // Every (host, id) pair, written in a random order, a random number of event-loop turns apart.
    const sends = shims.flatMap((_, host) => ids.map((id) => ({ host, id })));
    for (let i = sends.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [sends[i], sends[j]] = [sends[j]!, sends[i]!];
    }
    for (const { host, id } of sends) {
      const call = {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "echo", arguments: { message: `host${host}-id${id}` } },
      };
      shims[host]!.child.stdin.write(`${JSON.stringify(call)}\n`);
      for (let turns = Math.floor(random() * 3); turns > 0; turns--)
        await new Promise((resolve) => setImmediate(resolve));
    }
    const answers = (host: number): Map<number, string> => {
      const got = new Map<number, string>();
      for (const line of shims[host]!.out().split("\n")) {
        if (line.trim() === "") continue;
        const message = JSON.parse(line) as { id?: number; result?: { content?: { text?: string }[] } };
        if (typeof message.id === "number" && message.id > 1)
          got.set(message.id, message.result?.content?.[0]?.text ?? line);
      }
      return got;
    };
    for (let host = 0; host < shims.length; host++) {
      await expect.poll(() => answers(host).size, { timeout: 30_000, message: `seed ${seed}` }).toBe(ids.length);
      const got = answers(host);
      for (const id of ids)
        expect(got.get(id), `seed ${seed}, host ${host}, id ${id}`).toContain(`host${host}-id${id}`);
      // Nothing of another host's, anywhere in this host's output.
      for (let other = 0; other < shims.length; other++)
        if (other !== host) expect(shims[host]!.out(), `seed ${seed}`).not.toContain(`host${other}-`);
    }
    expect(await hosts(box)).toBe(3);
    for (const { child } of shims) child.stdin.end();
    await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(0);
  }, 120_000);

  // The daemon died between the ticket and the connection and another user bound its port: a race no
  // real daemon can be made to lose on demand, so a stand-in `dist/bin.js` beside a copy of the script
  // plays the ticket child (it names the impostor's port, proof P…) and the Node shim (it says it ran).
  // Each case: what the impostor answers on the script's first connection (U) and on its second (D).
  const proof = "P".repeat(43);
  const pair = "Q".repeat(43);
  it.each([
    ["answers a wrong proof", ["x".repeat(43)], 1],
    ["closes after the ticket", [undefined], 0],
    // Not a whole line within 10 s: nothing said (bash 3.2 drops a timed-out read's partial line), so
    // the Node shim serves the host over the private socket.
    ["sends part of a line and nothing more", ["partial"], 0],
    ["sends part of a line and closes", ["partial, closed"], 0],
    // A daemon from before the pairing answers with the proof alone: the Node shim serves the host.
    ["answers the proof alone", [proof], 0],
    [
      "answers U with the proof and a pairing secret, then D with a wrong proof",
      [`${proof} ${pair}`, "x".repeat(43)],
      1,
    ],
    ["answers U with the proof and a pairing secret, then closes D", [`${proof} ${pair}`, undefined], 0],
    ["answers U with the proof and a malformed pairing secret", [`${proof} ${"Q".repeat(42)}!`], 0],
  ] as const)(
    "an impostor on the port that %s reads nothing of the host but the ticket (and the pairing secret it gave)",
    async (_, replies, code) => {
      // What each connection sent, in the order they came.
      const got: string[] = [];
      const sockets = new Set<Socket>();
      const impostor = createServer((socket) => {
        const index = sockets.size;
        sockets.add(socket);
        got[index] = "";
        socket.on("error", () => {});
        socket.once("data", () => {
          const reply = replies[index];
          if (reply === undefined) socket.end();
          else if (reply === "partial, closed") socket.end("abc");
          else socket.write(reply === "partial" ? "abc" : `${reply}\n`);
        });
        socket.on("data", (chunk: Buffer) => (got[index] += chunk.toString()));
      });
      await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
      const port = (impostor.address() as AddressInfo).port;
      const ticket = "T".repeat(43);
      mkdirSync(join(box.home, "pkg", "shim"), { recursive: true });
      mkdirSync(join(box.home, "pkg", "dist"), { recursive: true });
      copyFileSync(script, join(box.home, "pkg", "shim", "mcp-shim"));
      writeFileSync(
        join(box.home, "pkg", "dist", "bin.js"),
        `if (process.argv[3] === "ticket") console.log("${port} ${ticket} ${proof}");\nelse console.log("NODE SHIM " + process.argv.slice(2).join(" "));\n`,
      );
      const child = spawn(shimBash, [join(box.home, "pkg", "shim", "mcp-shim"), "daemon", "stdio", "ev"], {
        cwd: box.project,
        env: box.env,
        stdio: "pipe",
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      // The host writes at once, as hosts do: its request must not reach the impostor.
      child.stdin.write(initialize(1));
      const exit = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => impostor.close(resolve));
      // D is opened only after a well-formed pairing secret, and says only that.
      expect(got).toEqual(replies.length === 2 ? [`${ticket}\n`, `${pair}\n`] : [`${ticket}\n`]);
      expect(exit, err).toBe(code);
      if (code === 0) expect(out).toBe("NODE SHIM daemon stdio ev\n");
      else {
        expect(out).toBe("");
        expect(err).toContain(`127.0.0.1:${port} did not answer as your mcp daemon; not relaying`);
      }
    },
    60_000,
  );

  it("the daemon SIGKILLed mid-session: the shim's stdout ends, it exits, and leaves no process", async () => {
    const { child } = await shim(box);
    const pids = await tree(child.pid!);
    expect(pids.length).toBe(2);
    const status = await mcp(box, ["--json", "daemon", "status"]);
    const daemon = (JSON.parse(status.stdout) as { pid: number }).pid;
    const ended = new Promise((resolve) => child.stdout.once("end", resolve));
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    process.kill(daemon, "SIGKILL");
    await ended;
    // A cat that reads to the end exits 0 and says nothing (the Node shim says why and exits 1).
    expect(await exit).toBe(0);
    for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
  }, 90_000);

  it("the host closes stdin in the middle of a line: the script exits 0, leaving no process and no session", async () => {
    const { child } = await shim(box);
    const pids = await tree(child.pid!);
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.end('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ec');
    expect(await exit).toBe(0);
    for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
    await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it("a flood of connections that never say hello (another user, a web page) keeps the listener full: the script is served by the Node shim instead", async () => {
    const first = await mcp(box, ["daemon", "ticket", "ev"]);
    expect(first.code, first.stderr).toBe(0);
    const port = Number(first.stdout.split(" ")[0]);
    // The attacker opens a new connection whenever the daemon closes one (its hello deadline).
    let flooding = true;
    const open = new Set<Socket>();
    const flood = (): void => {
      if (!flooding) return;
      const socket = connect(port, "127.0.0.1");
      open.add(socket);
      socket.on("error", () => {});
      socket.once("close", () => {
        open.delete(socket);
        flood();
      });
    };
    for (let i = 0; i < 40; i++) flood();
    try {
      const { child } = await shim(box);
      // Served, by the Node shim: its process is node, not bash and cats.
      expect(await names(await tree(child.pid!))).not.toContain("cat");
      const exit = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exit;
    } finally {
      flooding = false;
      for (const socket of open) socket.destroy();
    }
  }, 90_000);

  it("a web page's requests (a POST with a JSON-RPC body, a WebSocket upgrade) and a slow-loris are closed without a word; the real ticket still works", async () => {
    const out = await mcp(box, ["daemon", "ticket", "ev"]);
    expect(out.code, out.stderr).toBe(0);
    const [portText, ticket, proof] = out.stdout.trim().split(" ");
    const port = Number(portText);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "pwned" } },
    });
    const post = raw(port);
    post.socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const upgrade = raw(port);
    upgrade.socket.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    // A slow-loris: one byte of a ticket-shaped hello a second, never the newline; the hello
    // deadline counts from the connection, not from the last byte.
    const loris = raw(port);
    const drip = setInterval(() => loris.socket.write("A"), 1_000);
    const started = Date.now();
    try {
      expect(await post.closed).toBe("");
      expect(await upgrade.closed).toBe("");
      expect(await loris.closed).toBe("");
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      clearInterval(drip);
    }
    expect(await hosts(box)).toBe(0);
    const good = raw(port);
    good.socket.write(`${ticket}\n`);
    let got = "";
    good.socket.on("data", (chunk: Buffer) => (got += chunk.toString()));
    await expect.poll(() => got, { timeout: 20_000 }).toContain(proof);
    good.socket.destroy();
  }, 60_000);

  it("tracing inherited from the host's environment (SHELLOPTS=xtrace) does not print the ticket, the proof or the pairing secret on the host's stderr", async () => {
    const child = spawn(shimBash, [script, "daemon", "stdio", "ev"], {
      cwd: box.project,
      env: { ...box.env, SHELLOPTS: "xtrace" },
      stdio: "pipe",
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdin.write(initialize(1));
    await expect.poll(() => out, { timeout: 30_000 }).toContain('"id":1');
    const exit = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end();
    await exit;
    // A ticket, a proof and a pairing secret are 43 base64url characters.
    expect(err).not.toMatch(/[A-Za-z0-9_-]{43}/);
  }, 60_000);

  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)(
    "the shim's pid sent %s mid-session ends, and so do the other cat and the session",
    async (signal) => {
      const { child } = await shim(box);
      const pids = await tree(child.pid!);
      expect(pids.length).toBe(2);
      const exit = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, by) => resolve(by)));
      child.kill(signal);
      expect(await exit).toBe(signal);
      for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
      await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(0);
    },
    90_000,
  );
});
