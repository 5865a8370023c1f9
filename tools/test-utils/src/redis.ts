// A real redis-server (Debian's package, /usr/bin/redis-server or $REDIS_SERVER_PATH) on a free
// loopback port, with no persistence, for the Redis store and gateway replica tests.
import { spawn } from "node:child_process";
import { createConnection } from "node:net";
import { freePort } from "./index.js";

export interface TestRedis {
  url: string;
  port: number;
  /** The redis-server process's id. */
  pid: number;
  /** Stops the process (SIGSTOP): connections stay open, nothing is answered (a blocked Redis). */
  pause(): void;
  /** Lets a paused process go on (SIGCONT). */
  resume(): void;
  stop(): Promise<void>;
}

/** Whether a Redis server answers PING on the port. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, "127.0.0.1");
    let reply = "";
    const end = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (c: Buffer) => {
      reply += c.toString();
      if (reply.includes("\r\n")) end(reply.startsWith("+PONG"));
    });
    socket.once("error", () => end(false));
  });
}

/** Starts redis-server on 127.0.0.1 and resolves once it accepts connections. */
export async function startRedis(): Promise<TestRedis> {
  const binary = process.env["REDIS_SERVER_PATH"] ?? "/usr/bin/redis-server";
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      binary,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    let exited = false;
    child.once("exit", () => (exited = true));
    child.once("error", () => (exited = true));
    let ready = false;
    for (const deadline = Date.now() + 10_000; !ready && !exited && Date.now() < deadline;) {
      ready = await pong(port);
      if (!ready) await new Promise((r) => setTimeout(r, 25));
    }
    if (ready) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        pid: child.pid!,
        pause: () => void child.kill("SIGSTOP"),
        resume: () => void child.kill("SIGCONT"),
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            // A paused server would not act on SIGTERM until it runs again.
            child.kill("SIGCONT");
            child.kill("SIGTERM");
          }),
      };
    }
    child.kill("SIGKILL");
    // The port was taken between the probe and the start: try another.
    if (attempt >= 3 || !/Address already in use/i.test(output))
      throw new Error(`redis-server did not start (${binary}): ${output.trim() || "no output"}`);
  }
}
