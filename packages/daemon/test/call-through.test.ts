// callThroughDaemon against a real daemon on a real socket (and none): its answer when it runs the
// call; why nothing ran when there is no daemon, when it declines, or when it is of an earlier
// version that does not know the call (a socket that answers as such a daemon does: a real daemon
// of this version cannot be one).
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callThroughDaemon, type CallParams } from "../src/client.js";
import { send } from "../src/wire.js";
import { daemonSandbox, everything } from "./helpers.js";

const box = daemonSandbox("mcp-call-through-");
const params = (words: string[]): CallParams => ({
  configs: { everything: { ...everything, cwd: box.dir } },
  servers: {},
  configErrors: [],
  skipped: [],
  shadowed: [],
  embedded: false,
  environment: {},
  words,
  cwd: box.dir,
});

describe("callThroughDaemon", () => {
  it("no daemon: nothing ran, absent", async () => {
    expect(await callThroughDaemon(box.socket, params(["x"]))).toEqual({
      ran: false,
      why: "absent",
      message: `no mcp daemon socket at ${box.socket}`,
    });
  });

  it("a daemon that declines the call: nothing ran, and its words", async () => {
    await box.start();
    expect(await callThroughDaemon(box.socket, params(["x"]))).toEqual({
      ran: false,
      why: "unavailable",
      message: "it does not take this call: this daemon was started without a call handler",
    });
  });

  it("a daemon that runs it: its answer, with the call's progress on the way", async () => {
    await box.start({
      call: {
        async run(call, context) {
          context.calling("echo");
          context.progress({ progress: 1, total: 2 });
          return { said: call.words.join(" ") };
        },
      },
    });
    const progress: unknown[] = [];
    const outcome = await callThroughDaemon(box.socket, params(["hello", "there"]), {
      onProgress: (p) => progress.push(p),
    });
    expect(outcome).toEqual({ ran: true, answer: { said: "hello there" } });
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
  });

  it("the call's own failure is thrown, with its exit code", async () => {
    await box.start({
      call: {
        run: () => Promise.reject(Object.assign(new Error('unknown tool "x"'), { exitCode: 2 })),
      },
    });
    await expect(callThroughDaemon(box.socket, params(["x"]))).rejects.toMatchObject({
      name: "DaemonError",
      message: 'unknown tool "x"',
      exitCode: 2,
    });
  });

  it("a daemon of an earlier version (call/2 unknown to it): nothing ran, outdated", async () => {
    mkdirSync(join(box.dir, "run"), { recursive: true, mode: 0o700 });
    const earlier = createServer((socket) =>
      socket.once("data", () => send(socket, { id: 1, error: { message: "unknown method call/2", exitCode: 2 } })),
    );
    await new Promise<void>((resolve) => earlier.listen(box.socket, resolve));
    try {
      expect(await callThroughDaemon(box.socket, params(["x"]))).toEqual({
        ran: false,
        why: "outdated",
        message: "unknown method call/2",
      });
    } finally {
      await new Promise((resolve) => earlier.close(resolve));
    }
  });
});
