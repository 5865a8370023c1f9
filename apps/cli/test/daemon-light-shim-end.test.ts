// The daemon ends a light shim's session (mcp ps --kill, mcp daemon stop, the server crashing past its
// one restart) while its host keeps stdin open and writes nothing: the host sees its server exit (the
// cat it waits on) and no process of the shim is left (the cat reading the host's stdin, which a
// closed connection does not end, is signalled by the daemon once it checked that it holds the
// session's connection: packages/daemon/src/light-holder.ts). Real processes: bash, cat, the CLI,
// the daemon and server-everything; the host is this test, holding the write end of a FIFO that is
// the shim's stdin (a Node `ChildProcess` would close a child's stdin pipe when the child exits).
import { spawn } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcp, run, type Sandbox } from "./helpers.js";
import { alive, initialize, poolSandbox, psJson, script, tree } from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

type Server = { pid: number; restarts: number; state: string };

const serverOf = async (box: Sandbox): Promise<Server | undefined> =>
  (await psJson<{ servers: Server[] }>(box)).servers[0];

/** Ends the session from the daemon's side, as `how` says. */
async function endSession(box: Sandbox, how: string): Promise<void> {
  if (how === "mcp ps --kill") return void expect((await mcp(box, ["ps", "--kill", "ev"])).code).toBe(0);
  if (how === "mcp daemon stop") return void expect((await mcp(box, ["daemon", "stop"])).code).toBe(0);
  // The server crashes, is restarted once for the host still attached, and crashes again.
  const first = (await serverOf(box))!;
  process.kill(first.pid, "SIGKILL");
  await expect
    .poll(
      async () => {
        const now = await serverOf(box);
        return now?.restarts === 1 && now.state === "ready" && now.pid !== first.pid;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  process.kill((await serverOf(box))!.pid, "SIGKILL");
}

describe.skipIf(process.platform !== "linux")(
  "the daemon ends a light shim's session while its host keeps stdin open",
  () => {
    const box = poolSandbox();

    it.each(["mcp ps --kill", "mcp daemon stop", "the server crashing past its restart"])(
      "%s: the shim's pid exits and no process of it is left",
      async (how) => {
        const fifo = join(box().home, "host-stdin");
        expect((await run(["mkfifo", fifo], "/", { PATH: process.env["PATH"] })).code).toBe(0);
        // The host's end of the shim's stdin: open (read and write, so neither open waits) for the whole test, never written to after the calls.
        const host = openSync(fifo, "r+");
        const stdin = openSync(fifo, "r");
        const shim = spawn(shimBash, [script, "daemon", "stdio", "ev"], {
          cwd: box().project,
          env: box().env,
          stdio: [stdin, "pipe", "pipe"],
        });
        closeSync(stdin);
        try {
          let out = "";
          shim.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
          shim.stderr!.resume();
          const exited = new Promise<[number | null, string | null]>((resolve) =>
            shim.once("exit", (code, signal) => resolve([code, signal])),
          );
          writeSync(host, initialize(1));
          writeSync(
            host,
            `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } })}\n`,
          );
          await expect.poll(() => out, { timeout: 30_000 }).toContain('"id":2');
          const pids = await tree(shim.pid!);
          expect(pids).toHaveLength(2); // the cat the host waits on (D) and the one reading its stdin (U)
          await endSession(box(), how);
          // The host sees its server exit: a cat that read D to its end exits 0.
          expect(await exited).toEqual([0, null]);
          // And the cat reading the host's still open stdin is gone too.
          for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
        } finally {
          closeSync(host);
          if (shim.exitCode === null && shim.signalCode === null) shim.kill("SIGKILL");
        }
      },
      120_000,
    );
  },
);
