// Hostile hosts on `mcp daemon stdio`: raw shims (real processes) fed bytes no SDK would send.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { buildChildEnv } from "@mcp/transport-stdio";
import { everythingEntry } from "mcp-test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { bin, mcp, userConfig, type Sandbox } from "./helpers.js";
import { initialize as init, poolSandbox } from "./pool-helpers.js";

interface RawHost {
  child: ChildProcessWithoutNullStreams;
  write(text: string | Buffer): void;
  next(match: (message: any) => boolean): Promise<any>;
  stderr(): string;
  exited: Promise<number | null>;
}

function rawHost(box: Sandbox, server: string, env: Record<string, string> = {}): RawHost {
  const child = spawn(process.execPath, [bin, "daemon", "stdio", server], {
    env: { ...buildChildEnv(box.env, false), ...env },
    cwd: box.project,
  });
  const seen: any[] = [];
  const waiters: { match: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    const at = waiters.findIndex((w) => w.match(message));
    if (at >= 0) waiters.splice(at, 1)[0]!.resolve(message);
    else seen.push(message);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    write: (text) => child.stdin.write(text),
    next: (match) => {
      const at = seen.findIndex(match);
      if (at >= 0) return Promise.resolve(seen.splice(at, 1)[0]);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    stderr: () => err,
    exited,
  };
}

describe.skipIf(process.platform !== "linux")("hostile hosts on mcp daemon stdio", () => {
  const sandboxNow = poolSandbox();
  let box: Sandbox;
  beforeEach(() => (box = sandboxNow()));

  it("bad bytes, forged answers, odd ids and an over-long line from one host end at most that host; the other's calls go on", async () => {
    const good = rawHost(box, "ev");
    good.write(init(1));
    expect((await good.next((m) => m.id === 1)).result.serverInfo).toBeDefined();
    const bad = rawHost(box, "ev");
    bad.write(init(1));
    await bad.next((m) => m.id === 1);
    bad.write(Buffer.from([0xff, 0xfe, 0x0a]));
    bad.write("[]\n[1,2]\nnull\n{}\n");
    bad.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { forged: true } })}\n`);
    bad.write(`${JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" })}\n`);
    bad.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "bad" } } })}\n`,
    );
    bad.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "dup" } } })}\n`,
    );
    bad.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } })}\n`);
    bad.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "x".repeat(17 * 1024 * 1024) } } })}\n`,
    );
    good.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "good" } } })}\n`,
    );
    const answer = await good.next((m) => m.id === 2);
    expect(JSON.stringify(answer.result)).toContain("good");
    expect(JSON.stringify(answer)).not.toContain("bad");
    bad.child.stdin.end();
    await bad.exited;
    good.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "still" } } })}\n`,
    );
    expect(JSON.stringify((await good.next((m) => m.id === 3)).result)).toContain("still");
    good.child.stdin.end();
    expect(await good.exited).toBe(0);
  }, 60_000);

  it("the daemon a shim starts does not keep the entry's env (a server's token, its NODE_OPTIONS) for everyone after", async () => {
    // A host gives the shim the entry's env, as it would give the server.
    const secret = { GH_TOKEN: "s3cret-of-ev", NODE_OPTIONS: "--max-old-space-size=123" };
    userConfig(box, { ev: { command: process.execPath, args: [everythingEntry, "stdio"], env: secret } });
    const h = rawHost(box, "ev", secret);
    h.write(init(1));
    expect((await h.next((m) => m.id === 1)).result.serverInfo).toBeDefined();
    const status = await mcp(box, ["--json", "daemon", "status"]);
    const pid = (JSON.parse(status.stdout) as { pid: number }).pid;
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
    expect(environ).toContain(`HOME=${box.home}`);
    expect(environ).not.toContain("s3cret-of-ev");
    expect(environ).not.toContain("--max-old-space-size=123");
    // The server itself still gets them.
    h.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get-env", arguments: {} } })}\n`,
    );
    expect(JSON.stringify(await h.next((m) => m.id === 2))).toContain("s3cret-of-ev");
    h.child.stdin.end();
    await h.exited;
  }, 60_000);

  it("a client on the daemon's socket that skips the shim's check is still refused an unapproved project server: the pool checks", async () => {
    writeFileSync(
      join(box.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [everythingEntry, "stdio"] } } }),
    );
    expect((await mcp(box, ["daemon", "start"])).code).toBe(0);
    const { socket } = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { socket: string };
    // What a shim would send, had it not checked: the project's entry, for that project.
    const connection = createConnection(socket);
    const lines = createInterface({ input: connection });
    const answer = new Promise<any>((resolve) => lines.once("line", (line) => resolve(JSON.parse(line))));
    const params = {
      server: "proj",
      config: { command: process.execPath, args: [everythingEntry, "stdio"], cwd: box.project },
      project: box.project,
      shimPid: process.pid,
      parentPid: process.ppid,
    };
    connection.write(`${JSON.stringify({ id: 1, method: "pool/attach", params })}\n`);
    const refused = await answer;
    expect(refused.id).toBe(1);
    expect(refused.error.message).toMatch(
      /project server "proj" is not served: not approved yet\. Approve it with: mcp config approve proj/,
    );
    await new Promise((resolve) => connection.once("close", resolve));
    const ps = JSON.parse((await mcp(box, ["--json", "ps"])).stdout) as { servers: unknown[] };
    expect(ps.servers).toEqual([]);

    // The same entry to run in the project, said to be for another folder (one with no project files): refused too.
    for (const project of [box.home, "/"]) {
      const other = createConnection(socket);
      const reply = new Promise<any>((resolve) =>
        createInterface({ input: other }).once("line", (line) => resolve(JSON.parse(line))),
      );
      other.write(`${JSON.stringify({ id: 1, method: "pool/attach", params: { ...params, project } })}\n`);
      expect((await reply).error?.message).toMatch(/project server "proj" is not served: not approved yet/);
      await new Promise((resolve) => other.once("close", resolve));
    }
    expect((JSON.parse((await mcp(box, ["--json", "ps"])).stdout) as { servers: unknown[] }).servers).toEqual([]);
  }, 60_000);
  it("a pool/attach with a config of the wrong shape is refused naming the field; the daemon goes on", async () => {
    expect((await mcp(box, ["daemon", "start"])).code).toBe(0);
    const { socket } = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { socket: string };
    const base = { server: "x", shimPid: 1, parentPid: 1, project: box.project };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ config: { command: "node", cwd: 5 } }, /params\.config\.cwd must be a string/],
      [{ config: { command: "node", args: "-e 1" } }, /params\.config\.args must be an array of strings/],
      [{ config: { command: "node", args: [1] } }, /params\.config\.args must be an array of strings/],
      [{ config: { command: "node", env: { A: {} } } }, /params\.config\.env must be an object of strings/],
      [{ config: { command: "node", env: 5 } }, /params\.config\.env must be an object of strings/],
      [
        { config: { command: "node", parentEnv: { PATH: 5 } } },
        /params\.config\.parentEnv must be an object of strings/,
      ],
      [{ config: { command: "node", inheritEnv: "yes" } }, /params\.config\.inheritEnv must be true or false/],
      [{ config: { command: "node" }, vars: { A: 1 } }, /params\.vars must be an object of strings/],
    ];
    for (const [params, message] of cases) {
      const connection = createConnection(socket);
      const reply = new Promise<any>((resolve) =>
        createInterface({ input: connection }).once("line", (line) => resolve(JSON.parse(line))),
      );
      connection.write(`${JSON.stringify({ id: 1, method: "pool/attach", params: { ...base, ...params } })}\n`);
      const answer = await reply;
      expect(answer, JSON.stringify(params)).toMatchObject({ id: 1, error: { exitCode: 2 } });
      expect(answer.error.message).toMatch(message);
      connection.destroy();
    }
    const ps = JSON.parse((await mcp(box, ["--json", "ps"])).stdout) as { running: boolean; servers: unknown[] };
    expect(ps).toMatchObject({ running: true, servers: [] });
  }, 60_000);
});
