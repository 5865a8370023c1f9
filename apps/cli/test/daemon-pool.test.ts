// `mcp daemon stdio <server>` and `mcp ps`: hosts start the shim as they start any stdio server
// (through the official SDK's stdio client and through our own @mcp/client), the shims start one
// daemon between them, and each configured server runs once for all of them.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { callTool, connectToServer, disconnectServer } from "@mcp/client";
import { processTree } from "@mcp/pool";
import { buildChildEnv } from "@mcp/transport-stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bin, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

const filesystemEntry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/dist/index.js");

interface PsJson {
  running: boolean;
  servers: {
    name: string;
    pid: number;
    sharing: string;
    calls: number;
    rssBytes?: number;
    source?: string;
    hosts: { info: { shimPid: number; parentPid: number } }[];
  }[];
}

async function ps(box: Sandbox): Promise<PsJson> {
  const run = await mcp(box, ["--json", "ps"]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as PsJson;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A host on the official SDK: the shim as its server's command. */
async function sdkHost(box: Sandbox, server: string, roots?: string[]): Promise<Client> {
  const client = new Client(
    { name: "sdk-host", version: "1.0.0" },
    { capabilities: roots ? { roots: { listChanged: true } } : {} },
  );
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((path) => ({ uri: `file://${path}`, name: path })),
    }));
  // The environment our client gives the shim (its safe base, the sandbox's folders on top), so both
  // hosts are the same user's: the server's environment is part of its fingerprint, and a host with
  // another USER or PATH gets another process.
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, "daemon", "stdio", server],
      env: buildChildEnv(box.env, false),
      cwd: box.project,
      stderr: "pipe",
    }),
  );
  return client;
}

/** A host on our own client, with the SDK client's two methods the tests use. */
async function ourHost(box: Sandbox, server: string): Promise<Pick<Client, "callTool" | "close">> {
  const connection = await connectToServer(server, {
    command: process.execPath,
    args: [bin, "daemon", "stdio", server],
    env: box.env,
    cwd: box.project,
    timeout: 30_000,
  });
  return {
    callTool: ((params: { name: string; arguments?: Record<string, unknown> }) =>
      callTool(connection, params.name, params.arguments ?? {})) as unknown as Client["callTool"],
    close: () => disconnectServer(connection),
  };
}

const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]?.text ?? "";

describe.skipIf(process.platform !== "linux")("mcp daemon stdio and mcp ps", () => {
  let box: Sandbox;
  let shared: string;
  beforeEach(() => {
    box = sandbox();
    shared = join(box.home, "shared");
    mkdirSync(shared);
    userConfig(box, {
      ev: { command: process.execPath, args: [everythingEntry, "stdio"] },
      fs: { command: process.execPath, args: [filesystemEntry, shared] },
    });
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("serves three hosts per server from one process each, answers each its own calls, and leaves no process once they and the idle time are gone", async () => {
    const env = { MCP_POOL_IDLE_MS: "300" };
    Object.assign(box.env, env);
    // Three hosts' worth of sessions per server, started at once: one daemon between them.
    const hosts = await Promise.all([
      sdkHost(box, "ev"),
      ourHost(box, "ev"),
      sdkHost(box, "ev"),
      sdkHost(box, "fs"),
      ourHost(box, "fs"),
      sdkHost(box, "fs"),
    ]);
    const [evA, evB, evC, fsA, fsB, fsC] = hosts;
    const echoes = await Promise.all([
      evA.callTool({ name: "echo", arguments: { message: "A" } }),
      evB.callTool({ name: "echo", arguments: { message: "B" } }),
      evC.callTool({ name: "echo", arguments: { message: "C" } }),
    ]);
    expect(echoes.map(textOf)).toEqual(["Echo: A", "Echo: B", "Echo: C"]);
    const dirs = await Promise.all([
      fsA.callTool({ name: "list_allowed_directories", arguments: {} }),
      fsB.callTool({ name: "list_allowed_directories", arguments: {} }),
      fsC.callTool({ name: "list_allowed_directories", arguments: {} }),
    ]);
    for (const dir of dirs) expect(textOf(dir)).toContain(realpathSync(shared));

    const status = await ps(box);
    expect(status.servers.map((s) => [s.name, s.hosts.length, s.sharing]).sort()).toEqual([
      ["ev", 3, "shared"],
      ["fs", 3, "shared"],
    ]);
    const ev = status.servers.find((s) => s.name === "ev")!;
    expect(ev.calls).toBeGreaterThanOrEqual(3);
    expect(ev.rssBytes).toBeGreaterThan(1_000_000);
    expect(ev.source).toContain("mcp-client.json");
    for (const host of ev.hosts) expect(alive(host.info.shimPid) && host.info.parentPid === process.pid).toBe(true);
    const text = await mcp(box, ["ps"]);
    expect(text.stdout).toMatch(/^SERVER\s+PID\s+STATE\s+SHARING\s+HOSTS\s+CALLS\s+RSS\s+CPU\s+IDLE\s+SOURCE$/m);
    expect(text.stdout).toMatch(/shim pid \d+ \(parent \d+\)/);

    const upstreams = status.servers.flatMap((s) => processTree(s.pid));
    const shims = status.servers.flatMap((s) => s.hosts.map((h) => h.info.shimPid));
    await Promise.all([evA.close(), evB.close(), evC.close(), fsA.close(), fsB.close(), fsC.close()]);
    // The hosts closed stdin: every shim has exited, and the servers go after the idle time.
    // (A host's close may return before its child is reaped, and the pool lists a server as gone
    // once it has told it to end, before the process has exited: wait for each pid, never guess.)
    for (const pid of shims) await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
    await expect.poll(async () => (await ps(box)).servers.length, { timeout: 15_000, interval: 100 }).toBe(0);
    for (const pid of upstreams)
      await expect.poll(() => alive(pid), { message: `pid ${pid}`, timeout: 15_000, interval: 50 }).toBe(false);
  }, 90_000);

  it("gives each host that declares roots a server of its own that asks only that host", async () => {
    const a = join(box.home, "a");
    const b = join(box.home, "b");
    mkdirSync(a);
    mkdirSync(b);
    const [hostA, hostB, plain] = await Promise.all([
      sdkHost(box, "fs", [a]),
      sdkHost(box, "fs", [b]),
      sdkHost(box, "fs"),
    ]);
    // server-filesystem takes its folders from the host's roots: each host sees its own.
    await expect
      .poll(async () => textOf(await hostA.callTool({ name: "list_allowed_directories", arguments: {} })))
      .toContain(realpathSync(a));
    await expect
      .poll(async () => textOf(await hostB.callTool({ name: "list_allowed_directories", arguments: {} })))
      .toContain(realpathSync(b));
    const seenByA = textOf(await hostA.callTool({ name: "list_allowed_directories", arguments: {} }));
    expect(seenByA).not.toContain(realpathSync(b));
    expect(textOf(await plain.callTool({ name: "list_allowed_directories", arguments: {} }))).toContain(
      realpathSync(shared),
    );
    const status = await ps(box);
    expect(status.servers.map((s) => s.sharing).sort()).toEqual(["dedicated", "dedicated", "shared"]);
    await Promise.all([hostA.close(), hostB.close(), plain.close()]);
  }, 60_000);

  it("refuses a project server that is not approved, with the approval check's reason, and an unknown server", async () => {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      join(box.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [everythingEntry, "stdio"] } } }),
    );
    const refused = await mcp(box, ["daemon", "stdio", "proj"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /project server "proj" is not served: .*not approved.*Approve it with: mcp config approve proj/s,
    );
    const unknown = await mcp(box, ["daemon", "stdio", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no server named "nope"');
    // Nothing was started for either.
    expect((await ps(box)).servers).toEqual([]);
  }, 60_000);

  it("stops a server over --pool-max-rss (MCP_POOL_MAX_RSS_MB) and its host's shim says why", async () => {
    const shim = spawn(process.execPath, [bin, "daemon", "stdio", "ev"], {
      cwd: box.project,
      env: { ...box.env, MCP_POOL_MAX_RSS_MB: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    shim.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    shim.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`,
    );
    const code = await new Promise<number | null>((resolve) => shim.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /mcp daemon stdio ev: the pooled server "ev" used \d+ MB, over the pool's memory cap of 1 MB: it was stopped/,
    );
    expect((await ps(box)).servers).toEqual([]);
  }, 60_000);

  it("serves an entry as mcp hosts pool rewrote it (daemon stdio <name> --from <host>:<scope> -- <command>…): the original runs", async () => {
    const cursor = join(box.home, ".cursor", "mcp.json");
    mkdirSync(join(box.home, ".cursor"));
    writeFileSync(
      cursor,
      JSON.stringify({ mcpServers: { cur: { command: process.execPath, args: [everythingEntry, "stdio"] } } }, null, 2),
    );
    const pooled = await mcp(box, ["hosts", "pool", "cursor", "--scope", "user"]);
    expect(pooled.code, pooled.stderr).toBe(0);
    const entry = (
      JSON.parse(readFileSync(cursor, "utf8")) as { mcpServers: { cur: { command: string; args: string[] } } }
    ).mcpServers.cur;
    expect(entry.args.slice(0, 5)).toEqual(["daemon", "stdio", "cur", "--from", "cursor:user"]);
    // The host runs the entry's command line (`mcp` is this repository's bin here).
    const client = new Client({ name: "cursor", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, ...entry.args],
        env: buildChildEnv(box.env, false),
        cwd: box.project,
        stderr: "pipe",
      }),
    );
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "pooled" } }))).toBe("Echo: pooled");
    const [server] = (await ps(box)).servers;
    expect(server).toMatchObject({ name: "cur", hosts: [{ info: { from: "cursor:user" } }] });
    await client.close();
  }, 60_000);

  it("mcp ps --kill ends a pooled server and tells its hosts", async () => {
    const host = await sdkHost(box, "ev");
    let closed!: () => void;
    const wasClosed = new Promise<void>((resolve) => (closed = resolve));
    host.onclose = () => closed();
    const { pid } = (await ps(box)).servers[0]!;
    const killed = await mcp(box, ["ps", "--kill", "ev"]);
    expect(killed.stdout).toContain("stopped 1 process of ev");
    await wasClosed;
    expect(alive(pid)).toBe(false);
    expect((await mcp(box, ["ps", "--kill", "ev"])).stderr).toContain('no pooled server named "ev"');
  }, 60_000);
});
