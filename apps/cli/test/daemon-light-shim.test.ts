// The light shim (shim/mcp-shim: two `cat`s and no bash once connected, through the daemon's loopback
// listener with a single-use ticket and a pairing secret): a host on the official SDK's stdio client served through it from the pool, the
// listener refusing connections without the ticket, with a wrong one and that never say hello, an
// unapproved project server refused as the Node shim refuses it, and nothing left when the host leaves.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildChildEnv } from "@mcp/transport-stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { everythingEntry } from "mcp-test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { mcp, run, type Sandbox } from "./helpers.js";
import { alive, names, poolSandbox, psJson, rawConnection, script, tree } from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

interface PsJson {
  servers: { name: string; pid: number; hosts: { info: { shimPid: number; parentPid: number } }[] }[];
}

const ps = (box: Sandbox): Promise<PsJson> => psJson<PsJson>(box);

/** What each descriptor of `pid` points at (Linux /proc), by descriptor number. */
function descriptors(pid: number): string[] {
  const held: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      held[Number(fd)] = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      // closed between the listing and the look
    }
  }
  // Sparse: held[fd].
  return held;
}

/** Every TCP socket on the machine (Linux /proc/net/tcp*), as /proc/<pid>/fd names them: `socket:[inode]`. */
function tcpSockets(): Set<string> {
  const found = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    // The inode is the 10th column.
    for (const line of text.trim().split("\n").slice(1)) found.add(`socket:[${line.trim().split(/\s+/)[9]}]`);
  }
  return found;
}

/** A host on the official SDK with the light shim as its server's command. */
async function lightHost(box: Sandbox, server: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = new Client({ name: "sdk-host", version: "1.0.0" }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: shimBash,
    args: [script, "daemon", "stdio", server],
    env: buildChildEnv(box.env, false),
    cwd: box.project,
    stderr: "pipe",
  });
  await client.connect(transport);
  return { client, transport };
}

/** A ticket as the script gets it: `<port> <ticket> <proof>`. */
async function ticket(box: Sandbox, server: string): Promise<{ port: number; ticket: string; proof: string }> {
  const out = await mcp(box, ["daemon", "ticket", server]);
  expect(out.code, out.stderr).toBe(0);
  const [port, t, proof] = out.stdout.trim().split(" ");
  return { port: Number(port), ticket: t!, proof: proof! };
}

const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]?.text ?? "";

describe.skipIf(process.platform !== "linux")("the light shim (mcp-shim)", () => {
  const sandboxNow = poolSandbox();
  let box: Sandbox;
  beforeEach(() => (box = sandboxNow()));

  it("serves two SDK hosts from one pooled server-everything, as two cats and no bash, and leaves no process when they close stdin", async () => {
    const a = await lightHost(box, "ev");
    const b = await lightHost(box, "ev");
    expect(a.client.getServerVersion()?.name).toBeTruthy();
    expect(textOf(await a.client.callTool({ name: "echo", arguments: { message: "from a" } }))).toContain("from a");
    expect(textOf(await b.client.callTool({ name: "echo", arguments: { message: "from b" } }))).toContain("from b");
    // One upstream for both; each host is attached with the script's pid.
    const status = await ps(box);
    expect(status.servers).toHaveLength(1);
    const shimPids = status.servers[0]!.hosts.map((h) => h.info.shimPid).sort();
    expect(shimPids).toEqual([a.transport.pid!, b.transport.pid!].sort());
    // What stays with each host: two cats (the pid it waits on and one under it), no bash, no Node.
    const kept: number[] = [];
    for (const { transport } of [a, b]) {
      const pids = await tree(transport.pid!);
      kept.push(...pids);
      const commands = await names(pids);
      expect(commands, JSON.stringify({ pids, commands })).toEqual(["cat", "cat"]);
      // Each holds one connection and nothing of the other's: D (and the host's stdout) the pid the
      // host waits on, U (and the host's stdin) the one under it. A copy of U or of the stdin pipe
      // in the other cat would keep the session open after the host closed stdin.
      const [down, up] = pids.map(descriptors);
      const tcp = tcpSockets();
      const connections = (held: string[]): string[] => held.filter((target) => tcp.has(target));
      expect(connections(down!), JSON.stringify(down)).toHaveLength(1);
      expect(connections(up!), JSON.stringify(up)).toHaveLength(1);
      expect(connections(down!)[0]).not.toBe(connections(up!)[0]);
      expect(down![0]).toBe(connections(down!)[0]);
      expect(up![1]).toBe(connections(up!)[0]);
      // The host's stdin (a socket pair Node made) only in U's cat.
      const stdin = up![0]!;
      expect(down!.filter((target) => target === stdin)).toEqual([]);
    }
    // The hosts close stdin: the scripts and their cats exit, and the daemon sees both sessions end.
    await Promise.all([a.client.close(), b.client.close()]);
    for (const pid of kept) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
    await expect.poll(async () => (await ps(box)).servers[0]?.hosts.length ?? 0, { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it("closes a connection without a ticket, with a wrong ticket, with an over-long hello, and one that never says hello; a ticket works once", async () => {
    const good = await ticket(box, "ev");
    // Never says hello: closed by the daemon (its hello deadline), having been told nothing.
    const silent = rawConnection(good.port);
    // A wrong ticket of the right shape, and a line that is not a ticket: closed at once, told nothing.
    const wrong = rawConnection(good.port);
    wrong.socket.write(`${"A".repeat(43)}\n`);
    const junk = rawConnection(good.port);
    junk.socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" })}\n`);
    const long = rawConnection(good.port);
    long.socket.write("B".repeat(100));
    expect(await wrong.closed).toBe("");
    expect(await junk.closed).toBe("");
    expect(await long.closed).toBe("");
    expect(await silent.closed).toBe("");
    // The good ticket: the daemon proves itself, then serves.
    const used = rawConnection(good.port);
    used.socket.write(`${good.ticket}\n`);
    let usedGot = "";
    used.socket.on("data", (chunk: Buffer) => (usedGot += chunk.toString()));
    await expect.poll(() => usedGot, { timeout: 20_000 }).toContain(good.proof);
    // The same ticket again: refused.
    const again = rawConnection(good.port);
    again.socket.write(`${good.ticket}\n`);
    expect(await again.closed).toBe("");
    used.socket.destroy();
  }, 90_000);

  it("lets at most 16 connections wait for their hello: the next is closed unread even with a good ticket", async () => {
    const first = await ticket(box, "ev");
    const silent = Array.from({ length: 16 }, () => rawConnection(first.port));
    await Promise.all(silent.map(({ socket }) => new Promise((resolve) => socket.once("connect", resolve))));
    const turnedAway = rawConnection(first.port);
    turnedAway.socket.write(`${first.ticket}\n`);
    expect(await turnedAway.closed).toBe("");
    // The silent ones are closed by the daemon at their hello deadline.
    expect(await Promise.all(silent.map(({ closed }) => closed))).toEqual(Array(16).fill(""));
    // Turned away before it was read, the ticket is still good once there is room.
    const later = rawConnection(first.port);
    later.socket.write(`${first.ticket}\n`);
    let got = "";
    later.socket.on("data", (chunk: Buffer) => (got += chunk.toString()));
    await expect.poll(() => got, { timeout: 20_000 }).toContain(first.proof);
    later.socket.destroy();
  }, 90_000);

  it("refuses an unapproved project server as the Node shim does, and starts nothing", async () => {
    writeFileSync(
      join(box.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [everythingEntry, "stdio"] } } }),
    );
    const refused = await run([shimBash, script, "daemon", "stdio", "proj"], box.project, box.env, 60_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /project server "proj" is not served: .*not approved.*Approve it with: mcp config approve proj/s,
    );
    expect((await ps(box)).servers).toEqual([]);
  }, 60_000);

  it("when the pool's server is killed the daemon ends the session: the shim's stdout ends and it exits, leaving no process", async () => {
    const shim = spawn(shimBash, [script, "daemon", "stdio", "ev"], {
      cwd: box.project,
      env: box.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    shim.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    shim.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`,
    );
    let out = "";
    shim.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await expect.poll(() => out, { timeout: 30_000 }).toContain('"id":1');
    const pids = await tree(shim.pid!);
    expect(pids.length).toBe(2);
    // The pool's server is killed (mcp ps --kill): the daemon ends the session and closes D, the cat
    // the host waits on ends (a cat says nothing: the reason is in mcp ps and the daemon's log).
    const ended = new Promise((resolve) => shim.stdout.once("end", resolve));
    const exited = new Promise<number | null>((resolve) => shim.once("exit", (code) => resolve(code)));
    expect((await mcp(box, ["ps", "--kill", "ev"])).code).toBe(0);
    await ended;
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
    // The other cat ends too: the host let go of its stdin when its server exited (Node does).
    for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
    await expect.poll(async () => (await ps(box)).servers.flatMap((s) => s.hosts).length, { timeout: 20_000 }).toBe(0);
  }, 90_000);
});
