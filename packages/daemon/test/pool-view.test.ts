// readPoolStatus and hostLabel: a real daemon's pool, with a host attached through the Node shim's relay.
import { PassThrough } from "node:stream";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { hostLabel, killPooled, readPoolStatus } from "../src/client.js";
import { relayStdio, type AttachParams } from "../src/index.js";
import { daemonSandbox, everything } from "./helpers.js";

const box = daemonSandbox("mcp-pool-view-");

describe("readPoolStatus and killPooled", () => {
  it("say why when no daemon answers on the socket", async () => {
    const reading = await readPoolStatus(box.socket);
    expect(reading).toEqual({ running: false, why: expect.stringContaining(box.socket) });
    expect(await killPooled(box.socket, "everything")).toEqual(reading);
  });

  it("read the pool of a running daemon, label a host attached to it by its clientInfo, --from and pids, and stop its server by name", async () => {
    await box.start();
    expect(await readPoolStatus(box.socket)).toEqual({
      running: true,
      status: expect.objectContaining({ servers: [], maxConcurrentCalls: expect.any(Number) }),
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const answered = new Promise<void>((resolve) =>
      createInterface({ input: output }).on("line", (line) => {
        if (JSON.parse(line).id === 1) resolve();
      }),
    );
    const params: AttachParams = {
      server: "everything",
      config: { ...everything, cwd: box.dir },
      project: box.dir,
      from: "cursor:user",
      shimPid: 4101,
      parentPid: 4100,
    };
    const relayed = relayStdio({ socket: box.socket, params, input, output, onProblem: () => {} });
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "Test Host", version: "1.2" } } })}\n`,
    );
    await answered;
    const reading = await readPoolStatus(box.socket);
    if (!reading.running) throw new Error(reading.why);
    const [server] = reading.status.servers;
    expect(server?.name).toBe("everything");
    expect(server!.hosts.map(hostLabel)).toEqual(["Test Host 1.2 from cursor:user, shim pid 4101 (parent 4100)"]);
    expect(await killPooled(box.socket, "nothing-by-this-name")).toEqual({ running: true, killed: 0 });
    expect(await killPooled(box.socket, "everything")).toEqual({ running: true, killed: 1 });
    expect(await readPoolStatus(box.socket)).toMatchObject({ running: true, status: { servers: [] } });
    input.end();
    await relayed;
  });
});

describe("hostLabel", () => {
  it("says `a host` without a clientInfo name, leaves out a version or --from that is not a string", () => {
    expect(hostLabel({ clientInfo: undefined, info: { shimPid: 7, parentPid: 1 } })).toBe(
      "a host, shim pid 7 (parent 1)",
    );
    expect(hostLabel({ clientInfo: { name: "h", version: 2 }, info: { shimPid: 7, parentPid: 1, from: 3 } })).toBe(
      "h, shim pid 7 (parent 1)",
    );
  });
});
