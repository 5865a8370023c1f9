// Two hosts share one pooled server (a fixture that records every message it receives). One host's
// call holds it over the pool's mark, so its next calls are held unstarted; it cancels two of them,
// and cancels ids that are only the other host's. The other host, using the very same ids, is answered
// meanwhile with its own answers only. Once the first call is cancelled, the held calls run in order:
// the two cancelled never reach the server nor are answered, every other call reaches the server and is
// answered exactly once. Real processes: the shims, the CLI's daemon, the fixture server.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bin, userConfig, type Sandbox } from "./helpers.js";
import { initialize, poolSandbox, psJson, script } from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

const recorder = fileURLToPath(new URL("./fixtures/recorder.mjs", import.meta.url));
const IDS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const CANCELLED = [4, 7];

interface Host {
  child: ChildProcessWithoutNullStreams;
  answers: Map<number, string[]>;
  answered(id: number): Promise<void>;
  write(message: unknown): void;
}

function host(box: Sandbox, shim: "light" | "node"): Host {
  const child =
    shim === "light"
      ? spawn(shimBash, [script, "daemon", "stdio", "rec"], { cwd: box.project, env: box.env, stdio: "pipe" })
      : spawn(process.execPath, [bin, "daemon", "stdio", "rec"], { cwd: box.project, env: box.env, stdio: "pipe" });
  child.stderr.resume();
  const answers = new Map<number, string[]>();
  const waiting = new Map<number, () => void>();
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      const line = text.slice(0, end);
      text = text.slice(end + 1);
      const { id, method } = JSON.parse(line) as { id?: unknown; method?: unknown };
      if (typeof id !== "number" || method !== undefined) continue;
      answers.set(id, [...(answers.get(id) ?? []), line]);
      waiting.get(id)?.();
    }
  });
  return {
    child,
    answers,
    answered: (id) =>
      answers.has(id) ? Promise.resolve() : new Promise((resolve) => waiting.set(id, () => resolve())),
    write: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
  };
}

const tag = (id: number, value: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "tag", arguments: { tag: value } },
});
const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } });

interface Ps {
  servers: { hosts: { info: { shimPid: number }; queuedBytes: number; heldBytes: number }[] }[];
}

describe.skipIf(process.platform !== "linux")("held requests cancelled, two hosts on one server", () => {
  let record = "";
  const box = poolSandbox();
  const recorded = (): string[] => {
    try {
      return readFileSync(record, "utf8").trim().split("\n");
    } catch {
      return [];
    }
  };

  it.each(["node", "light"] as const)(
    "through the %s shim: a cancelled held call never reaches the server nor is answered; the other host is served meanwhile",
    async (shim) => {
      const b = box();
      record = join(b.project, "received.txt");
      // The config names the fixture with its record file (in this sandbox).
      userConfig(b, { rec: { command: process.execPath, args: [recorder, record] } });
      const [a, other] = [host(b, shim), host(b, shim)];
      for (const h of [a, other]) h.child.stdin.write(initialize(1));
      await Promise.all([a.answered(1), other.answered(1)]);
      // A call over the pool's mark by itself (1.1 MiB), which the server never answers.
      a.write({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "hold", arguments: { pad: "x".repeat(1.1 * 1024 * 1024) } },
      });
      await expect.poll(() => recorded().includes("tools/call hold"), { timeout: 60_000 }).toBe(true);
      // Behind it, held: ten calls; two cancelled while held; and cancellations of ids only the other host has.
      for (const id of IDS) a.write(tag(id, `a${id}`));
      for (const id of CANCELLED) a.write(cancel(id));
      for (const id of [100, 101]) a.write(cancel(id));
      const ps = async () => (await psJson<Ps>(b)).servers[0]!.hosts.find((h) => h.info.shimPid === a.child.pid);
      await expect.poll(async () => (await ps())?.heldBytes, { timeout: 60_000 }).toBeGreaterThan(0);
      // The other host, with the same ids and two of its own the first cancelled: answered, its own answers only.
      for (const id of [...IDS, 100, 101]) other.write(tag(id, `b${id}`));
      await Promise.all([...IDS, 100, 101].map((id) => other.answered(id)));
      for (const id of [...IDS, 100, 101]) {
        expect(other.answers.get(id), `b${id}`).toHaveLength(1);
        expect(other.answers.get(id)![0]).toContain(`"b${id}"`);
      }
      expect(IDS.filter((id) => a.answers.has(id))).toEqual([]);
      // The first call cancelled: what was held runs, in order, but not what was cancelled.
      a.write(cancel(2));
      const served = IDS.filter((id) => !CANCELLED.includes(id));
      await Promise.all(served.map((id) => a.answered(id)));
      // A ping behind them all: once it is answered, nothing held is left to start.
      a.write({ jsonrpc: "2.0", id: 13, method: "ping" });
      await a.answered(13);
      for (const id of served) {
        expect(a.answers.get(id), `a${id}`).toHaveLength(1);
        expect(a.answers.get(id)![0]).toContain(`"a${id}"`);
      }
      for (const id of [2, ...CANCELLED]) expect(a.answers.has(id), `answer to ${id}`).toBe(false);
      const calls = recorded().filter((line) => line.startsWith("tools/call "));
      for (const id of CANCELLED) expect(calls).not.toContain(`tools/call a${id}`);
      for (const id of served) expect(calls.filter((line) => line === `tools/call a${id}`)).toHaveLength(1);
      for (const id of [...IDS, 100, 101]) expect(calls.filter((line) => line === `tools/call b${id}`)).toHaveLength(1);
      expect(await ps()).toMatchObject({ queuedBytes: 0, heldBytes: 0 });
      const exits = [a, other].map((h) => new Promise((resolve) => h.child.once("exit", resolve)));
      for (const h of [a, other]) h.child.stdin.end();
      await Promise.all(exits);
    },
    180_000,
  );
});
