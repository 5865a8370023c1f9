// One host session floods a pooled server with large requests as fast as it can write while the server
// answers slowly (server-everything's trigger-long-running-operation): the daemon holds at most the
// pool's mark of that session's requests in service (plus the one that crossed it), then holds at most
// a second bound of them unstarted, and reads no more of it until they drain (backpressure, nothing dropped); a second session sharing the server is answered meanwhile,
// and every flooded request is answered once the flood has gone through. Through both shims (the light
// shim's loopback relay and the Node shim's Unix socket); real processes: bash, cat, the CLI, the
// daemon and server-everything. What is held is what the pool reports (`mcp ps --json`'s
// hosts[].queuedBytes, heldBytes and their peaks), not the daemon's RSS.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bin, type Sandbox } from "./helpers.js";
import { initialize, poolSandbox, psJson, script } from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

const FLOOD = 40;
const PADDING = 256 * 1024;

interface Host {
  child: ChildProcessWithoutNullStreams;
  /** The answers by id. */
  answers: Map<number, string>;
  /** Resolves once the answer to `id` came. */
  answered(id: number): Promise<void>;
}

function host(box: Sandbox, shim: "light" | "node"): Host {
  const child =
    shim === "light"
      ? spawn(shimBash, [script, "daemon", "stdio", "ev"], { cwd: box.project, env: box.env, stdio: "pipe" })
      : spawn(process.execPath, [bin, "daemon", "stdio", "ev"], { cwd: box.project, env: box.env, stdio: "pipe" });
  child.stderr.resume();
  const answers = new Map<number, string>();
  const waiting = new Map<number, () => void>();
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      const line = text.slice(0, end);
      text = text.slice(end + 1);
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id !== "number") continue;
      answers.set(id, line);
      waiting.get(id)?.();
    }
  });
  return {
    child,
    answers,
    answered: (id) =>
      answers.has(id) ? Promise.resolve() : new Promise((resolve) => waiting.set(id, () => resolve())),
  };
}

const call = (id: number, name: string, args: Record<string, unknown>): string =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })}\n`;

interface Ps {
  maxQueuedBytes: number;
  maxHeldBytes: number;
  servers: {
    hosts: {
      info: { shimPid: number };
      queuedBytes: number;
      peakQueuedBytes: number;
      heldBytes: number;
      peakHeldBytes: number;
    }[];
  }[];
}

describe.skipIf(process.platform !== "linux")("a host session flooding a pooled server", () => {
  const box = poolSandbox();

  it.each(["light", "node"] as const)(
    "through the %s shim: is read no further than the pool's mark, while another session is answered",
    async (shim) => {
      const flooder = host(box(), shim);
      const other = host(box(), shim);
      for (const h of [flooder, other]) h.child.stdin.write(initialize(1));
      await Promise.all([flooder.answered(1), other.answered(1)]);
      // As fast as it can write: FLOOD requests of 256 KB each, each answered after a second.
      const line = call(2, "trigger-long-running-operation", { duration: 1, steps: 1, padding: "x".repeat(PADDING) });
      for (let id = 2; id < 2 + FLOOD; id++) flooder.child.stdin.write(line.replace('"id":2,', `"id":${id},`));
      // The other session, once the flood is under way: answered while the flood still waits.
      await flooder.answered(2);
      other.child.stdin.write(call(2, "echo", { message: "still served" }));
      await other.answered(2);
      const floodAnsweredByThen = flooder.answers.size - 1;
      expect(other.answers.get(2)).toContain("still served");
      expect(floodAnsweredByThen).toBeLessThan(FLOOD);
      // Every flooded request is answered, none dropped.
      await Promise.all(Array.from({ length: FLOOD }, (_, i) => flooder.answered(2 + i)));
      for (let id = 2; id < 2 + FLOOD; id++)
        expect(flooder.answers.get(id), `answer ${id}`).toContain("Long running operation completed");
      // What the pool held of the flooder's requests: in service at most its mark and the request that
      // crossed it, and the mark was reached (the flood did press on it); held unstarted past it, at
      // most the second bound and the request that crossed that; nothing is held once all are answered.
      const ps = await psJson<Ps>(box());
      const held = ps.servers[0]!.hosts.find((h) => h.info.shimPid === flooder.child.pid)!;
      expect(held, JSON.stringify(ps.servers[0]?.hosts)).toBeDefined();
      expect(held.peakQueuedBytes).toBeGreaterThan(ps.maxQueuedBytes);
      expect(held.peakQueuedBytes).toBeLessThanOrEqual(ps.maxQueuedBytes + Buffer.byteLength(line) + 16);
      expect(held.queuedBytes).toBe(0);
      expect(held.peakHeldBytes).toBeGreaterThan(ps.maxHeldBytes);
      expect(held.peakHeldBytes).toBeLessThanOrEqual(ps.maxHeldBytes + Buffer.byteLength(line) + 16);
      expect(held.heldBytes).toBe(0);
      const exits = [flooder, other].map((h) => new Promise((resolve) => h.child.once("exit", resolve)));
      for (const h of [flooder, other]) h.child.stdin.end();
      await Promise.all(exits);
    },
    120_000,
  );
});
