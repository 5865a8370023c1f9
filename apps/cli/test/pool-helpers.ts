// What the pool's suites (the light shim's, the shims under attack, the flood and the session ends)
// share: a sandbox with server-everything as `ev` and the daemon stopped after each test, the
// light shim started as a host starts it, and what is left of a process (Linux /proc).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, beforeEach, expect } from "vitest";
import { mcp, run, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { shimBash } from "./shim-bash.js";

/** The light shim script (apps/cli/shim/mcp-shim). */
export const script = fileURLToPath(new URL("../shim/mcp-shim", import.meta.url));

/** server-everything over stdio, as a user's config names it. */
export const everything = { command: process.execPath, args: [everythingEntry, "stdio"] };

/**
 * Each test of the calling suite gets a fresh sandbox with `servers` (default: `ev`, server-everything)
 * in the user's config; after it, the daemon is stopped and the sandbox removed. Returns the current sandbox.
 */
export function poolSandbox(servers: Record<string, unknown> = { ev: everything }): () => Sandbox {
  let box: Sandbox | undefined;
  beforeEach(() => {
    box = sandbox();
    userConfig(box, servers);
  });
  afterEach(async () => {
    if (box === undefined) return;
    await mcp(box, ["daemon", "stop"]);
    box.remove();
    box = undefined;
  });
  return () => box!;
}

/** A 2025 `initialize` line with request id `id`. */
export const initialize = (id: number): string =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`;

/** Whether `pid` runs: a zombie (exited, not yet reaped by whoever adopted it) holds nothing and does not count. */
export function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0] !== "Z";
  } catch {
    return false;
  }
}

/** The pids under `pid` (Linux /proc), the process itself first. */
export async function tree(pid: number): Promise<number[]> {
  const out = await run(["ps", "-e", "-o", "pid=,ppid="], "/", { PATH: process.env["PATH"] });
  const pairs = out.stdout
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found = [pid];
  for (let i = 0; i < found.length; i++)
    for (const [child, parent] of pairs) if (parent === found[i]) found.push(child);
  return found;
}

/** The command name of each pid (`ps -o comm=`). */
export function names(pids: number[]): Promise<string[]> {
  return Promise.all(
    pids.map(async (pid) =>
      (await run(["ps", "-o", "comm=", "-p", String(pid)], "/", { PATH: process.env["PATH"] })).stdout.trim(),
    ),
  );
}

/** `mcp --json ps`, parsed. */
export async function psJson<T = { servers: { hosts: unknown[] }[] }>(box: Sandbox): Promise<T> {
  const out = await mcp(box, ["--json", "ps"]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as T;
}

/** How many hosts the first pooled server has attached. */
export async function hosts(box: Sandbox): Promise<number> {
  return (await psJson(box)).servers[0]?.hosts.length ?? 0;
}

/** The light shim for `server` run as a host runs it (stdio pipes), with an opened session (initialize answered). */
export async function lightShim(
  box: Sandbox,
  server = "ev",
): Promise<{ child: ChildProcessWithoutNullStreams; out: () => string }> {
  const child = spawn(shimBash, [script, "daemon", "stdio", server], { cwd: box.project, env: box.env, stdio: "pipe" });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.resume();
  child.stdin.write(initialize(1));
  await expect.poll(() => out, { timeout: 30_000 }).toContain('"id":1');
  return { child, out: () => out };
}

/** A raw connection to the daemon's light listener; resolves with what it was sent once the daemon closed it. */
export function rawConnection(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  let got = "";
  socket.on("data", (chunk: Buffer) => (got += chunk.toString()));
  socket.on("error", () => {});
  return { socket, closed: new Promise((resolve) => socket.once("close", () => resolve(got))) };
}
