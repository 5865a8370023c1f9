// The pid line a light shim says on D (its reading cat, which the daemon SIGTERMs when it ends the
// session: light-holder.ts) under attack from another host of the same user: a raw client takes a
// ticket as the script does, pairs U and D, names a pid that is not its own U's holder, then closes
// D (the daemon ends that session and looks at the pid). Real processes: the built CLI, the light
// shim a victim host runs, the daemon and server-everything.
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { mcp, type Sandbox } from "./helpers.js";
import { alive, hosts, initialize, lightShim, poolSandbox, tree } from "./pool-helpers.js";

/** The first line `socket` is sent. */
function line(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\n");
      if (end < 0) return;
      socket.off("data", onData);
      resolve(text.slice(0, end));
    };
    socket.on("data", onData);
  });
}

async function open(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await once(socket, "connect");
  return socket;
}

describe.skipIf(process.platform !== "linux")("the light shim's pid line, lied about by another host", () => {
  const sandboxNow = poolSandbox();
  let box: Sandbox;
  beforeEach(() => (box = sandboxNow()));

  it.each([
    ["the victim's reading cat", "victim"],
    ["the daemon's own pid", "daemon"],
    ["the victim's cat, said twice and after a first line of junk", "twice"],
    ["1", "1"],
    ["-1", "-1"],
  ] as const)(
    "a pid line naming %s: nobody is signalled and the victim is still served",
    async (_, kind) => {
      const victim = await lightShim(box);
      const [, victimUp] = await tree(victim.child.pid!);
      expect(victimUp).toBeDefined();
      const status = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { pid: number };
      const ticketRun = await mcp(box, ["daemon", "ticket", "ev"], { MCP_SHIM_PIDS: `${process.pid} ${process.pid}` });
      expect(ticketRun.code, ticketRun.stderr).toBe(0);
      const [port, ticket, proof] = ticketRun.stdout.trim().split(" ");
      const up = await open(Number(port));
      const upSaid = line(up);
      up.write(`${ticket}\n`);
      const [gotProof, secret] = (await upSaid).split(" ");
      expect(gotProof).toBe(proof);
      const down = await open(Number(port));
      const downSaid = line(down);
      down.write(`${secret}\n`);
      expect(await downSaid).toBe(proof);
      const pid =
        kind === "victim"
          ? `${victimUp}\n`
          : kind === "daemon"
            ? `${status.pid}\n`
            : kind === "twice"
              ? `x\n${victimUp}\n${victimUp}\n`
              : `${kind}\n`;
      down.write(pid);
      // A session is listed once its host said initialize.
      up.write(initialize(1));
      await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(2);
      const closed = once(up, "close");
      down.destroy();
      await closed;
      await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(1);
      expect(alive(victimUp!)).toBe(true);
      expect(alive(status.pid)).toBe(true);
      victim.child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "still here" } } })}\n`,
      );
      await expect.poll(victim.out, { timeout: 30_000 }).toContain("still here");
      victim.child.stdin.end();
      await expect.poll(() => hosts(box), { timeout: 20_000 }).toBe(0);
    },
    120_000,
  );
});
