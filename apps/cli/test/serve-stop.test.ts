// `mcp serve` stopping on SIGTERM and Ctrl-C (issue 58), over stdio and HTTP: with its servers
// connected (server-everything, and a fixture server that ignores the end of its stdin), and while
// a server is still starting. Each time it exits 0 saying so, and no process it started is left.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { everythingEntry, waitFor } from "mcp-test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { bin, fixture, sandboxes, userConfig, type Sandbox } from "./helpers.js";

const { box, removeAll } = sandboxes();
afterAll(removeAll);

/** Every process below `pid`, children first. */
function descendants(pid: number): number[] {
  const found = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .map(Number);
  return found.flatMap((child) => [child, ...descendants(child)]);
}

/** A process that runs: it exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

interface Serving {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** `mcp serve --stdio|--http --json` in the sandbox, its stdin held open as a host holds it. */
function serve(b: Sandbox, front: "stdio" | "http"): Serving {
  const child = spawn(process.execPath, [bin, "--json", "serve", `--${front}`], {
    cwd: b.project,
    env: { ...b.env, MCP_SERVE_TOKEN: "a-token-of-twenty-chars" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stderr: () => stderr, stdout: () => stdout, exited };
}

/** Sends `signal`, waits for the exit (failing past a generous bound), and checks that nothing it started runs. */
async function stopWith(serving: Serving, signal: NodeJS.Signals, what: string): Promise<void> {
  const started = descendants(serving.child.pid!);
  expect(started.length, `${what}: its servers run`).toBeGreaterThan(0);
  const at = performance.now();
  serving.child.kill(signal);
  // Far above the second it takes (what it measures is printed): a stop that waits for a server's
  // start would take the slow server's minutes.
  const code = await Promise.race([
    serving.exited,
    new Promise<"late">((resolve) => setTimeout(() => resolve("late"), 20_000).unref()),
  ]);
  if (code === "late") {
    // Nothing left behind by a failing run either.
    for (const pid of [serving.child.pid!, ...started]) if (running(pid)) process.kill(pid, "SIGKILL");
  }
  expect(code, `${what}: ${serving.stderr()}`).toBe(0);
  console.info(`${what}: exited ${Math.round(performance.now() - at)} ms after ${signal}`);
  expect(serving.stderr()).toContain(
    `mcp serve: stopping (${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM"}; again to quit now)`,
  );
  await waitFor(() => started.every((pid) => !running(pid)), 5_000).catch(() => undefined);
  expect(started.filter(running), `${what}: processes left running`).toEqual([]);
}

describe("mcp serve stops on a signal and leaves no process behind", () => {
  const connectedBox = (): Sandbox => {
    const b = box();
    userConfig(b, {
      everything: { command: process.execPath, args: [everythingEntry, "stdio"] },
      stubborn: { command: process.execPath, args: [fixture], env: { IGNORE_STDIN_END: "1" } },
    });
    return b;
  };

  for (const [front, signal] of [
    ["stdio", "SIGTERM"],
    ["http", "SIGINT"],
    ["stdio", "SIGINT"],
    ["http", "SIGTERM"],
  ] as const) {
    it(`--${front}, its servers connected, on ${signal}`, async () => {
      const serving = serve(connectedBox(), front);
      await waitFor(
        () =>
          front === "stdio"
            ? serving.stderr().includes("serving 2 servers over stdio")
            : serving.stdout().includes('"url"'),
        30_000,
      );
      await stopWith(serving, signal, `--${front} connected, ${signal}`);
    }, 60_000);
  }

  for (const [front, signal] of [
    ["stdio", "SIGINT"],
    ["http", "SIGTERM"],
  ] as const) {
    it(`--${front}, a server still starting, on ${signal}: the start is cut short, not waited for`, async () => {
      const b = box();
      const marker = join(b.home, "starting");
      // A server that takes minutes to start (its connect timeout allows it), as `npx` of a package
      // not yet downloaded can.
      userConfig(b, {
        everything: { command: process.execPath, args: [everythingEntry, "stdio"] },
        slow: {
          command: "sh",
          args: ["-c", `echo > "${marker}"; sleep 300; exec "${process.execPath}" "${fixture}"`],
          timeout: 600_000,
        },
      });
      const serving = serve(b, front);
      await waitFor(() => existsSync(marker), 30_000);
      await stopWith(serving, signal, `--${front} starting, ${signal}`);
      expect(serving.stderr()).not.toContain("serving");
      expect(serving.stdout()).not.toContain('"url"');
    }, 60_000);
  }
});
