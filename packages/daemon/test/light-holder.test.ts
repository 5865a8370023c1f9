// Which pid the daemon signals when it ends a light shim's session (light-holder.ts): only one that holds
// the shim's end of the session's loopback connection now. Real processes and sockets: a child that
// was handed the connection's client end, and one that was not (a pid the script could have named wrongly,
// or one reused since).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { stopHolder, tcpInode } from "../src/light-holder.js";

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
let server: Server | undefined;
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const socket of sockets.splice(0)) socket.destroy();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** A loopback connection: the client end (the shim's) and the listener's port (the daemon's). */
async function connection(): Promise<{ client: Socket; daemonPort: number }> {
  server = createServer((accepted) => sockets.push(accepted.on("error", () => {})));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const daemonPort = (server.address() as AddressInfo).port;
  const client = connect(daemonPort, "127.0.0.1");
  await once(client, "connect");
  sockets.push(client);
  return { client, daemonPort };
}

/** A child that stays until signalled; `holding`: handed the socket as its fd 3. */
async function child(holding?: Socket): Promise<ChildProcess> {
  const started = spawn(process.execPath, ["-e", "process.stdout.write('up'); setInterval(() => {}, 1000)"], {
    stdio: ["ignore", "pipe", "ignore", ...(holding ? [holding] : [])],
  });
  children.push(started);
  await once(started.stdout!, "data");
  return started;
}

describe.skipIf(process.platform !== "linux")("stopHolder", () => {
  it("finds the client end's inode by the two ports, and not the other way round", async () => {
    const { client, daemonPort } = await connection();
    expect(tcpInode(client.localPort!, daemonPort)).toMatch(/^\d+$/);
    expect(tcpInode(daemonPort, client.localPort!)).not.toBe(tcpInode(client.localPort!, daemonPort));
    // No connection from the client's port to port 1.
    expect(tcpInode(client.localPort!, 1)).toBe(undefined);
  });

  it("signals a pid holding the connection's client end, and leaves alone one that does not", async () => {
    const { client, daemonPort } = await connection();
    const stranger = await child();
    const holder = await child(client);
    expect(stopHolder(stranger.pid!, client.localPort!, daemonPort)).toBe(false);
    const ended = once(holder, "exit");
    expect(stopHolder(holder.pid!, client.localPort!, daemonPort)).toBe(true);
    expect((await ended)[1]).toBe("SIGTERM");
    expect(stranger.exitCode).toBe(null);
    expect(stranger.signalCode).toBe(null);
  });
});
