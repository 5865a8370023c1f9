// `mcp daemon`: a real daemon process on a real Unix socket, and the real CLI calling through it.
// Its trust boundaries: a socket another OS user (nobody, through setpriv) made first, framing a
// peer can abuse, and the credentials of the shell that calls.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import { dirname, join } from "node:path";
import { everythingEntry, startSdkServer } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bin, fixture, mcp, run, sandbox, userConfig, type Run, type Sandbox } from "./helpers.js";

const socketOf = (box: Sandbox): string => join(box.home, ".cache", "mcp-client", "daemon", "daemon.sock");

async function daemonPid(box: Sandbox): Promise<number> {
  const status = await mcp(box, ["--json", "daemon", "status"]);
  expect(status.code).toBe(0);
  return (JSON.parse(status.stdout) as { pid: number }).pid;
}

describe.skipIf(process.platform === "win32")("mcp daemon", () => {
  let box: Sandbox;
  let marker: string;
  beforeEach(() => {
    box = sandbox();
    marker = join(box.home, "cancelled.txt");
    userConfig(box, { fixture: { command: process.execPath, args: [fixture], env: { CANCEL_MARKER: marker } } });
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("keeps a server warm across two CLI calls; without it each call starts the server anew", async () => {
    // Control: no daemon, two fresh processes.
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);

    const started = await mcp(box, ["daemon", "start"]);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain("mcp daemon started");
    const first = await mcp(box, ["call", "fixture.counter"]);
    const second = await mcp(box, ["call", "counter"]);
    expect(first.stdout).toMatch(/^call 1 in pid (\d+)/);
    expect(second.stdout).toMatch(/^call 2 in pid (\d+)/);
    expect(second.stdout.match(/pid (\d+)/)![1]).toBe(first.stdout.match(/pid (\d+)/)![1]);

    const status = await mcp(box, ["daemon", "status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/pid \d+, up \d+s, idle \d+s, 0 clients now, 2 calls served/);
    expect(status.stdout).toMatch(/\nfixture\s+connected\s+7\s+\d+s ago\n/);
    // Only this user can reach it: the socket is 600, its folder 700.
    expect(statSync(socketOf(box)).mode & 0o777).toBe(0o600);
    expect(statSync(join(box.home, ".cache", "mcp-client", "daemon")).mode & 0o777).toBe(0o700);

    expect((await mcp(box, ["daemon", "stop"])).stdout).toContain("mcp daemon stopped");
    expect(existsSync(socketOf(box))).toBe(false);
    expect((await mcp(box, ["daemon", "status"])).code).toBe(1);
  }, 60_000);

  it("a killed daemon: the CLI says so and starts the server itself; status sees the stale socket; start replaces it", async () => {
    await mcp(box, ["daemon", "start"]);
    process.kill(await daemonPid(box), "SIGKILL");
    // Dead once its socket refuses connections (the kernel closes it as the process ends).
    await expect.poll(() => refused(socketOf(box)), { timeout: 15_000 }).toBe(true);
    expect(existsSync(socketOf(box))).toBe(true);

    const fallback = await mcp(box, ["call", "fixture.counter"]);
    expect(fallback.code).toBe(0);
    expect(fallback.stdout).toMatch(/^call 1 in pid/);
    expect(fallback.stderr).toMatch(
      /mcp daemon: the daemon is not answering on .*daemon\.sock \(ECONNREFUSED\); starting the server here instead/,
    );

    const status = await mcp(box, ["daemon", "status"]);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain("stale socket");
    const restarted = await mcp(box, ["daemon", "start"]);
    expect(restarted.stderr).toContain("replacing a stale daemon socket");
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 2 in pid/);
  }, 60_000);

  it("Ctrl-C cancels the call in the daemon's server; progress comes through", async () => {
    await mcp(box, ["daemon", "start"]);
    const child = spawn(process.execPath, [bin, "call", "fixture.wait", "ms=20000"], {
      cwd: box.project,
      env: box.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    // Progress from the daemon's server, printed by this CLI.
    await expect.poll(() => /progress \d+\/20000 step/.test(stderr), { timeout: 15_000 }).toBe(true);
    expect(existsSync(marker)).toBe(false);
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(130);
    await expect.poll(() => existsSync(marker) && readFileSync(marker, "utf8"), { timeout: 5_000 }).toBe("cancelled");
    // The daemon and its server are still there for the next call.
    expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
  }, 60_000);

  it("a daemon that dies during a call: the CLI does not run the call again", async () => {
    await mcp(box, ["daemon", "start"]);
    const pid = await daemonPid(box);
    const child = spawn(process.execPath, [bin, "call", "fixture.wait", "ms=20000"], {
      cwd: box.project,
      env: box.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve)); // its output read to the end
    // The call is under way in the daemon's server once its progress comes through.
    await expect.poll(() => /progress \d+\/20000 step/.test(stderr), { timeout: 15_000 }).toBe(true);
    process.kill(pid, "SIGKILL");
    expect(await exited).toBe(1);
    expect(stderr).toContain(
      "the mcp daemon went away while calling fixture.wait; it may have run, so it is not sent again",
    );
    expect(stdout).toBe("");
  }, 60_000);
});

/** Whether `socket` refuses a connection (nothing listens on it). */
function refused(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    connection.once("connect", () => {
      connection.destroy();
      resolve(false);
    });
    connection.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** Sends `data` on a fresh connection to `socket`, ends it, and resolves with all that came back before it closed. */
function exchange(socket: string, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    let got = "";
    connection.on("data", (chunk: Buffer) => (got += chunk.toString()));
    connection.on("error", () => {});
    connection.on("close", () => resolve(got));
    connection.once("connect", () => connection.end(data));
  });
}

describe.skipIf(process.platform === "win32")("mcp daemon: framing and credentials", () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("null, a non-object, a line that is not JSON and an over-long line are refused; the daemon and another CLI's call in flight go on", async () => {
    userConfig(box, { fixture: { command: process.execPath, args: [fixture] } });
    await mcp(box, ["daemon", "start"]);
    const pid = await daemonPid(box);
    const child = spawn(process.execPath, [bin, "call", "fixture.wait", "ms=4000"], {
      cwd: box.project,
      env: box.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve)); // its output read to the end
    // The call is running in the daemon's server when the bad lines arrive.
    await expect.poll(() => /progress \d+\/4000/.test(stderr), { timeout: 15_000 }).toBe(true);
    const socket = socketOf(box);
    expect(await exchange(socket, "null\n")).toContain(
      "the mcp daemon refused a message that is not a JSON object (null)",
    );
    // Still in flight: the property is about a call that runs while the daemon refuses.
    expect(child.exitCode).toBeNull();
    expect(await exchange(socket, "42\n")).toContain("refused a message that is not a JSON object (number)");
    expect(await exchange(socket, '["call"]\n')).toContain("refused a message that is not a JSON object (an array)");
    expect(await exchange(socket, '{"method":"status"}\n')).toContain("refused a message without a whole-number id");
    expect(await exchange(socket, "not json\n")).toContain("refused a line that is not JSON");
    // 17 MiB without a newline: refused at 16 MiB, not kept in memory until it ends.
    expect(await exchange(socket, Buffer.alloc(17 * 1024 * 1024, 0x78))).toContain(
      "refused a line longer than 16777216 bytes",
    );
    expect(await exited).toBe(0);
    expect(stdout).toContain("waited 4000 ms");
    expect(await daemonPid(box)).toBe(pid);
    const status = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { calls: number };
    expect(status.calls).toBe(1);
  }, 60_000);

  it("a header's ${VAR} is the calling shell's, now: unset it fails as a direct call does; changed, the server gets the new one", async () => {
    const http = await startSdkServer();
    try {
      userConfig(box, { gw: { type: "http", url: http.url, headers: { Authorization: "Bearer ${GWTOKEN}" } } });
      // The daemon itself started in a shell where the token was set.
      await mcp(box, ["daemon", "start"], { GWTOKEN: "from-the-daemons-shell" });
      const bearer = (): string | undefined => http.requests.at(-1)?.headers.authorization;
      const first = await mcp(box, ["call", "gw.add", "a=1", "b=2"], { GWTOKEN: "first-secret" });
      expect(first.stdout.trim()).toBe("3");
      expect(bearer()).toBe("Bearer first-secret");

      const direct = await mcp(box, ["call", "gw.add", "a=1", "b=2"], { MCP_NO_DAEMON: "1" });
      expect(direct.code).toBe(1);
      expect(direct.stderr).toContain('environment variable "GWTOKEN" is not set');
      const requests = http.requests.length;
      const unset = await mcp(box, ["call", "gw.add", "a=1", "b=2"]);
      expect({ code: unset.code, stdout: unset.stdout, stderr: unset.stderr }).toEqual({
        code: direct.code,
        stdout: direct.stdout,
        stderr: direct.stderr,
      });
      // Nothing was sent with the old token (the old server's session may be closed: a DELETE).
      expect(http.requests.slice(requests).filter((r) => r.method === "POST")).toEqual([]);

      const second = await mcp(box, ["call", "gw.add", "a=1", "b=2"], { GWTOKEN: "second-secret" });
      expect(second.stdout.trim()).toBe("3");
      expect(bearer()).toBe("Bearer second-secret");
      // It went through the daemon, whose status shows no secret.
      const status = (await mcp(box, ["--json", "daemon", "status"])).stdout;
      expect((JSON.parse(status) as { calls: number }).calls).toBe(3);
      expect(status).not.toMatch(/secret/);
    } finally {
      await mcp(box, ["daemon", "stop"]);
      await http.stop();
    }
  }, 60_000);

  it("a stdio server that inherits the environment gets the calling shell's, not the daemon's", async () => {
    userConfig(box, { everything: { command: process.execPath, args: [everythingEntry, "stdio"], inheritEnv: true } });
    await mcp(box, ["daemon", "start"], { GWTOKEN: "from-the-daemons-shell" });
    const envOf = (run: Run): Record<string, string> =>
      JSON.parse((JSON.parse(run.stdout) as { content: { text: string }[] }).content[0]!.text) as Record<
        string,
        string
      >;
    const direct = await mcp(box, ["--json", "call", "everything.get-env"], { MCP_NO_DAEMON: "1" });
    const viaDaemon = await mcp(box, ["--json", "call", "everything.get-env"]);
    expect(viaDaemon.code).toBe(0);
    expect(envOf(direct)["GWTOKEN"]).toBeUndefined();
    expect(envOf(viaDaemon)["GWTOKEN"]).toBeUndefined();
    expect(envOf(await mcp(box, ["--json", "call", "everything.get-env"], { GWTOKEN: "now" }))["GWTOKEN"]).toBe("now");
  }, 60_000);
});

const root = process.getuid?.() === 0;
const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((path) => existsSync(path));
/** Another OS user to act as: nobody, through setpriv, when we are root. */
const NOBODY = 65534;
const asNobody = (command: string[]): string[] => [
  setpriv!,
  `--reuid=${NOBODY}`,
  `--regid=${NOBODY}`,
  "--clear-groups",
  ...command,
];

/** `mcp <args>` as nobody (when root) or as ourselves (when we are not root: then we are the non-root user). */
function mcpAsUser(box: Sandbox, args: string[], env: Record<string, string>): Promise<Run> {
  const command = root ? asNobody([process.execPath, bin, ...args]) : [process.execPath, bin, ...args];
  return run(command, box.project, { ...box.env, ...env });
}

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry), uid);
}

/**
 * A sandbox whose cache path is too long for a Unix socket, so the daemon's socket goes to the temp
 * folder: here `tmp` in the sandbox, made like /tmp (root's, mode 1777).
 */
function tempFallback(box: Sandbox): { env: Record<string, string>; tmp: string } {
  const tmp = join(dirname(box.home), "tmp");
  mkdirSync(tmp);
  chmodSync(tmp, 0o1777);
  chmodSync(dirname(box.home), 0o755);
  return { tmp, env: { TMPDIR: tmp, XDG_CACHE_HOME: join(box.home, "cache-".repeat(16)) } };
}

describe.skipIf(process.platform === "win32")("mcp daemon: its socket's folder and owner", () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(() => box.remove());

  it("a folder of ours that others may enter: the CLI does not use the socket in it and runs the call itself", async () => {
    userConfig(box, { fixture: { command: process.execPath, args: [fixture] } });
    await mcp(box, ["daemon", "start"]);
    try {
      expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 1 in pid/);
      const folder = dirname(socketOf(box));
      chmodSync(folder, 0o755);
      const loose = await mcp(box, ["call", "fixture.counter"]);
      expect(loose.stdout).toMatch(/^call 1 in pid/);
      expect(loose.stderr).toContain(
        `mcp daemon: not using ${socketOf(box)}: the folder ${folder} has mode 755, not 700 (other users may enter it); starting the server here instead`,
      );
      chmodSync(folder, 0o700);
      expect((await mcp(box, ["call", "fixture.counter"])).stdout).toMatch(/^call 2 in pid/);
    } finally {
      await mcp(box, ["daemon", "stop"]);
    }
  }, 60_000);

  it.skipIf(root && !setpriv)(
    "a non-root user's daemon falls back to a private folder of its own in the temp folder, which keeps its mode 1777 (as root this runs as nobody via setpriv; skipped when root has no setpriv)",
    async () => {
      const { env, tmp } = tempFallback(box);
      userConfig(box, { fixture: { command: process.execPath, args: [fixture] } });
      if (root) chownTree(box.home, NOBODY);
      const socket = (
        JSON.parse((await mcpAsUser(box, ["--json", "daemon", "status"], env)).stdout) as { socket: string }
      ).socket;
      const started = await mcpAsUser(box, ["daemon", "start"], env);
      try {
        expect(started.stderr).toBe("");
        expect(started.code).toBe(0);
        expect(statSync(tmp).mode & 0o7777).toBe(0o1777);
        expect(dirname(dirname(socket))).toBe(tmp);
        const folder = statSync(dirname(socket));
        expect({ uid: folder.uid, mode: folder.mode & 0o7777 }).toEqual({
          uid: root ? NOBODY : process.getuid!(),
          mode: 0o700,
        });
        expect((await mcpAsUser(box, ["call", "fixture.counter"], env)).stdout).toMatch(/^call 1 in pid/);
        expect((await mcpAsUser(box, ["call", "fixture.counter"], env)).stdout).toMatch(/^call 2 in pid/);
      } finally {
        await mcpAsUser(box, ["daemon", "stop"], env);
      }
    },
    60_000,
  );

  it.skipIf(!root || !setpriv)(
    "another user who listens first on the socket's path gets nothing: no connection, no config, no secret; start leaves that folder alone and makes one no one can guess (needs root and setpriv to act as nobody)",
    async () => {
      const { env } = tempFallback(box);
      const secret = "s3cret-token-of-root";
      userConfig(box, { fixture: { command: process.execPath, args: [fixture], env: { API_KEY: "${SQUAT_SECRET}" } } });
      const socket = (JSON.parse((await mcp(box, ["--json", "daemon", "status"], env)).stdout) as { socket: string })
        .socket;
      // The squatter: nobody makes the socket's folder (mode 777) and listens in it, logging all it gets and answering with a forged result.
      const squat = join(dirname(box.home), "squat");
      mkdirSync(squat);
      chownSync(squat, NOBODY, NOBODY);
      const log = join(squat, "received.log");
      const script = `
      const fs = require("node:fs"), net = require("node:net"), path = require("node:path");
      const [socket, log] = process.argv.slice(1);
      fs.mkdirSync(path.dirname(socket), { recursive: true });
      try { fs.chmodSync(path.dirname(socket), 0o777); } catch {}
      const forged = { id: 1, result: { label: "fixture.counter", toolName: "counter", value: { content: [{ type: "text", text: "FORGED" }] } } };
      net.createServer((c) => {
        fs.appendFileSync(log, "connection\\n");
        c.on("data", (d) => { fs.appendFileSync(log, d); c.write(JSON.stringify({ id: 1, calling: "fixture.counter" }) + "\\n" + JSON.stringify(forged) + "\\n"); });
      }).listen(socket, () => { fs.chmodSync(socket, 0o777); process.stdout.write("listening\\n"); });`;
      const [command, ...args] = asNobody([process.execPath, "-e", script, socket, log]);
      const squatter = spawn(command!, args, { stdio: ["ignore", "pipe", "inherit"] });
      try {
        await new Promise<void>((resolve, reject) => {
          squatter.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
          squatter.once("exit", (code) => reject(new Error(`the squatter exited (${code})`)));
        });
        const call = await mcp(box, ["call", "fixture.counter"], { ...env, SQUAT_SECRET: secret });
        expect(call.stdout).toMatch(/^call 1 in pid/);
        expect(call.stderr).toMatch(
          new RegExp(
            `mcp daemon: not using .*daemon\\.sock: the folder .* belongs to uid ${NOBODY}, not to you \\(uid 0\\); starting the server here instead`,
          ),
        );
        const status = await mcp(box, ["daemon", "status"], env);
        expect(status.code).toBe(1);
        expect(status.stderr).toContain("not using");
        const start = await mcp(box, ["daemon", "start"], env);
        expect(start.code, start.stderr).toBe(0);
        expect(start.stderr).toContain(
          `the daemon's usual folder is not yours alone (the folder ${dirname(socket)} belongs to uid ${NOBODY}, not to you (uid 0)); its socket goes to ${dirname(socket)}-`,
        );
        const moved = (JSON.parse((await mcp(box, ["--json", "daemon", "status"], env)).stdout) as { socket: string })
          .socket;
        expect(dirname(moved)).not.toBe(dirname(socket));
        expect(statSync(dirname(moved)).mode & 0o777).toBe(0o700);
        // Calls now go through the daemon: its server is warm across them.
        expect((await mcp(box, ["call", "fixture.counter"], { ...env, SQUAT_SECRET: secret })).stdout).toMatch(
          /^call 1 in pid/,
        );
        expect((await mcp(box, ["call", "fixture.counter"], { ...env, SQUAT_SECRET: secret })).stdout).toMatch(
          /^call 2 in pid/,
        );
        // Nothing reached the squatter, and its folder was not changed.
        expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");
        expect(statSync(dirname(socket)).mode & 0o777).toBe(0o777);
      } finally {
        await mcp(box, ["daemon", "stop"], env);
        squatter.kill();
      }
    },
    60_000,
  );
  it.skipIf(!root || !setpriv)(
    "another user who makes the predictable temp folder first does not stop the daemon from starting: it takes a folder no one can guess, and the CLI finds it (needs root and setpriv to act as nobody)",
    async () => {
      const { env } = tempFallback(box);
      userConfig(box, { fixture: { command: process.execPath, args: [fixture] } });
      const socket = (JSON.parse((await mcp(box, ["--json", "daemon", "status"], env)).stdout) as { socket: string })
        .socket;
      const [command, ...args] = asNobody(["mkdir", "-m", "700", dirname(socket)]);
      expect(spawnSync(command!, args).status).toBe(0);
      try {
        const started = await mcp(box, ["daemon", "start"], env);
        expect(started.code, started.stderr).toBe(0);
        expect(started.stderr).toContain(`the folder ${dirname(socket)} belongs to uid ${NOBODY}`);
        expect((await mcp(box, ["call", "fixture.counter"], env)).stdout).toMatch(/^call 1 in pid/);
        const second = await mcp(box, ["call", "fixture.counter"], env);
        expect(second.stdout).toMatch(/^call 2 in pid/);
        expect(second.stderr).toBe("");
        expect(statSync(dirname(socket)).uid).toBe(NOBODY);
      } finally {
        await mcp(box, ["daemon", "stop"], env);
      }
    },
    60_000,
  );

  it("with a cache path too long for a socket, $XDG_RUNTIME_DIR (yours, mode 700) is used before the temp folder; one others may enter is not", async () => {
    const { env, tmp } = tempFallback(box);
    userConfig(box, { fixture: { command: process.execPath, args: [fixture] } });
    const runtime = join(dirname(box.home), "run");
    mkdirSync(runtime, { mode: 0o700 });
    chmodSync(runtime, 0o700);
    const socketWith = async (extra: Record<string, string>): Promise<string> =>
      (JSON.parse((await mcp(box, ["--json", "daemon", "status"], { ...env, ...extra })).stdout) as { socket: string })
        .socket;
    expect(dirname(dirname(await socketWith({ XDG_RUNTIME_DIR: runtime })))).toBe(runtime);
    const started = await mcp(box, ["daemon", "start"], { ...env, XDG_RUNTIME_DIR: runtime });
    try {
      expect(started.code, started.stderr).toBe(0);
      expect((await mcp(box, ["call", "fixture.counter"], { ...env, XDG_RUNTIME_DIR: runtime })).stdout).toMatch(
        /^call 1 in pid/,
      );
      expect((await mcp(box, ["call", "fixture.counter"], { ...env, XDG_RUNTIME_DIR: runtime })).stdout).toMatch(
        /^call 2 in pid/,
      );
    } finally {
      await mcp(box, ["daemon", "stop"], { ...env, XDG_RUNTIME_DIR: runtime });
    }
    chmodSync(runtime, 0o755);
    expect(dirname(dirname(await socketWith({ XDG_RUNTIME_DIR: runtime })))).toBe(tmp);
  }, 60_000);
});
