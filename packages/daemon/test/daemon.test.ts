// The daemon in-process, as an embedder starts it: its socket (mode 600 in a 700 folder), its
// answers to requests of the wrong shape, a call run by the embedder's handler on a real
// server-everything, a host attached to the pool through the Node shim's relay, and a clean close.
// (The light shim's loopback listener: light-relay.test.ts.)
import { statSync, existsSync } from "node:fs";
import { createConnection } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createInterface } from "node:readline";
import { beforeEach, describe, expect, it } from "vitest";
import {
  CALL_METHOD,
  DaemonError,
  daemonRequest,
  DaemonUnavailable,
  probeDaemon,
  relayStdio,
  startDaemon,
  type AttachParams,
  type CallHandler,
  type DaemonStatus,
  type PoolStatus,
  type RunningDaemon,
} from "../src/index.js";
import { daemonSandbox, everything } from "./helpers.js";

const box = daemonSandbox("mcp-daemon-");
let dir: string;
let socket: string;
beforeEach(() => void ({ dir, socket } = box));

function start(call?: CallHandler): Promise<RunningDaemon> {
  return box.start({ call });
}

/** The answers to `lines` sent raw on one connection, until the daemon closes it. */
function raw(lines: string[]): Promise<{ id: number; error?: { message: string; exitCode: number } }[]> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    const answers: { id: number; error?: { message: string; exitCode: number } }[] = [];
    createInterface({ input: connection }).on("line", (line) => answers.push(JSON.parse(line)));
    connection.once("error", reject);
    connection.once("close", () => resolve(answers));
    connection.once("connect", () => connection.write(lines.join("\n") + "\n"));
  });
}

/** A call of `words` as a client sends it: one stdio server, its config as its shell runs it. */
function callOf(words: string[]): Record<string, unknown> {
  return {
    configs: { everything: { ...everything, cwd: dir } },
    servers: {},
    environment: {},
    words,
    cwd: dir,
  };
}

describe("startDaemon", () => {
  it("listens on a socket of mode 600 in a folder of mode 700, answers status, and removes the socket when closed", async () => {
    const running = await start();
    expect(statSync(join(dir, "run")).mode & 0o777).toBe(0o700);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    const status = (await daemonRequest(socket, "status", {})) as DaemonStatus;
    expect(status).toMatchObject({ pid: process.pid, version: "9.9.9", socket, calls: 0, servers: [] });
    expect(await probeDaemon(socket)).toBe("live");
    // A second daemon on the same socket is refused, naming it; the first goes on.
    await expect(startDaemon({ socket, home: join(dir, "home") })).rejects.toThrow(
      new DaemonError(`an mcp daemon already answers on ${socket}`),
    );
    expect(await probeDaemon(socket)).toBe("live");
    await running.close();
    box.daemon = undefined;
    expect(existsSync(socket)).toBe(false);
    expect(await probeDaemon(socket)).toBe("absent");
  });

  it("a client's stop closes it", async () => {
    const running = await start();
    expect(await daemonRequest(socket, "stop", {})).toEqual({ stopping: true });
    await running.closed;
    box.daemon = undefined;
    expect(existsSync(socket)).toBe(false);
  });

  it("refuses a line that is not a message, naming what it was, and ends only that connection", async () => {
    await start();
    for (const [line, problem] of [
      ["null", "a message that is not a JSON object (null)"],
      ["[1]", "a message that is not a JSON object (an array)"],
      ["{nope", "a line that is not JSON"],
      ['{"method":"status"}', "a message without a whole-number id"],
    ] as const) {
      expect(await raw([line])).toEqual([
        { id: 0, error: { message: `the mcp daemon refused ${problem}`, exitCode: 2 } },
      ]);
    }
    // An unknown method and a call of the wrong shape are usage errors (exit code 2).
    await expect(daemonRequest(socket, "nope", {})).rejects.toMatchObject({
      name: "DaemonError",
      message: "unknown method nope",
      exitCode: 2,
    });
    await expect(daemonRequest(socket, CALL_METHOD, { ...callOf(["x"]), words: "x" })).rejects.toMatchObject({
      message: "the daemon's call: params.words must be a list of strings",
      exitCode: 2,
    });
    expect(((await daemonRequest(socket, "status", {})) as DaemonStatus).pid).toBe(process.pid);
  });

  it("declines a call when started without a call handler: nothing ran, the client may run it itself", async () => {
    await start();
    const error = await daemonRequest(socket, CALL_METHOD, callOf(["echo"])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DaemonUnavailable);
    expect((error as Error).message).toBe("it does not take this call: this daemon was started without a call handler");
    expect(((await daemonRequest(socket, "status", {})) as DaemonStatus).calls).toBe(0);
  });

  it("runs a call through the embedder's handler on server-everything, kept running for the next call of the same configuration", async () => {
    const handler: CallHandler = {
      async run(params, context) {
        await context.register();
        await context.manager.startServers(undefined, context.signal);
        const echo = context.manager.getTools().find((tool) => tool.toolName === "echo")!;
        context.calling(`${echo.serverName}.${echo.toolName}`);
        context.progress({ progress: 1, total: 2 });
        const result = await echo.call({ message: params.words.join(" ") }, { signal: context.signal });
        context.used(echo.serverName);
        return result;
      },
    };
    await start(handler);
    const progress: unknown[] = [];
    const first = await daemonRequest(socket, CALL_METHOD, callOf(["hello", "there"]), {
      onProgress: (p) => progress.push(p),
    });
    expect(first).toMatchObject({ content: [{ type: "text", text: "Echo: hello there" }] });
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    const status = (await daemonRequest(socket, "status", {})) as DaemonStatus;
    expect(status.calls).toBe(1);
    expect(status.servers).toEqual([expect.objectContaining({ name: "everything", state: "connected" })]);
    await daemonRequest(socket, CALL_METHOD, callOf(["again"]));
    const after = (await daemonRequest(socket, "status", {})) as DaemonStatus;
    expect(after.calls).toBe(2);
    expect(after.servers).toHaveLength(1); // the same configuration: the same server
  });

  it("an error the handler throws is answered with its message and exit code, as a DaemonError", async () => {
    await start({
      run: () => Promise.reject(Object.assign(new Error("no tool named nope"), { exitCode: 2 })),
    });
    await expect(daemonRequest(socket, CALL_METHOD, callOf(["nope"]))).rejects.toMatchObject({
      name: "DaemonError",
      message: "no tool named nope",
      exitCode: 2,
    });
  });
});

describe("relayStdio (the Node shim's relay)", () => {
  it("attaches a host to the pool's server-everything, relays its lines both ways, and ends when the host closes its input", async () => {
    await start();
    const input = new PassThrough();
    const output = new PassThrough();
    // The answer to request `id` (notifications the server sends in between are passed over).
    const lines = createInterface({ input: output });
    const answerTo = (id: number | null): Promise<any> =>
      new Promise((resolve) => {
        const onLine = (line: string): void => {
          const message = JSON.parse(line);
          if (message.id !== id || message.method !== undefined) return;
          lines.off("line", onLine);
          resolve(message);
        };
        lines.on("line", onLine);
      });
    const params: AttachParams = {
      server: "everything",
      config: { ...everything, cwd: dir },
      project: dir,
      shimPid: process.pid,
      parentPid: process.ppid,
    };
    const problems: string[] = [];
    const relayed = relayStdio({ socket, params, input, output, onProblem: (m) => problems.push(m) });
    const initialized = answerTo(1);
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test-host", version: "1" } } })}\n`,
    );
    expect((await initialized).result.serverInfo.name).toMatch(/everything/i);
    input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const listed = answerTo(2);
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    expect((await listed).result.tools.map((t: { name: string }) => t.name)).toContain("echo");
    // A line that is not JSON is answered by the relay itself, as a server would.
    const parse = answerTo(null);
    input.write("not json\n");
    expect((await parse).error.code).toBe(-32700);
    const pool = (await daemonRequest(socket, "pool/status", {})) as PoolStatus;
    expect(pool.servers).toEqual([expect.objectContaining({ name: "everything", hosts: [expect.anything()] })]);
    input.end();
    expect(await relayed).toBe(0);
    expect(problems).toEqual([]);
  });

  it("refuses a socket that is not there, saying so, before sending anything", async () => {
    await expect(
      relayStdio({
        socket: join(dir, "nothing", "daemon.sock"),
        params: { server: "x", config: everything, shimPid: 1, parentPid: 1 },
      }),
    ).rejects.toThrow(`not using ${join(dir, "nothing", "daemon.sock")}: no daemon socket`);
  });
});
