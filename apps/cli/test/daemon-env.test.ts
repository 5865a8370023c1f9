// A call through the daemon runs what a direct call (MCP_NO_DAEMON=1) runs, though the daemon was
// started from another shell: another folder ($HOME), another PATH and a proxy with a password.
// Real peers: the built CLI and its daemon, SDK servers over stdio and Streamable HTTP on
// 127.0.0.1, a real forward proxy that logs what passes through it, and a real redis-server.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startProxy, startRedis, startSdkServer, type SdkServer, type TestProxy } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandbox, userConfig, type Run, type Sandbox } from "./helpers.js";

const envServer = fileURLToPath(new URL("./fixtures/env-server.mjs", import.meta.url));
const THROUGH_THE_DAEMON = /mcp daemon:/;

describe.skipIf(process.platform === "win32")("a call through the daemon runs what a direct call runs", () => {
  let box: Sandbox;
  let daemonProxy: TestProxy;
  let shellProxy: TestProxy;
  let upstream: SdkServer;
  const calls = async (): Promise<number> =>
    (JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { calls: number }).calls;
  const envOf = (run: Run): Record<string, unknown> => JSON.parse(run.stdout) as Record<string, unknown>;

  beforeAll(async () => {
    box = sandbox();
    daemonProxy = await startProxy();
    shellProxy = await startProxy();
    upstream = await startSdkServer();
    // The project's own server, relative to the project as a repository writes it, approved.
    writeFileSync(
      join(box.project, "server.mjs"),
      `process.env.WHERE = "the project";\nawait import(${JSON.stringify(envServer)});\n`,
    );
    box.write(join(box.project, ".mcp.json"), {
      mcpServers: { envsrv: { command: process.execPath, args: ["./server.mjs"] } },
    });
    // A server.mjs of the same name in the home folder, where the daemon starts: another program.
    writeFileSync(
      join(box.home, "server.mjs"),
      `process.env.WHERE = "the home folder";\nawait import(${JSON.stringify(envServer)});\n`,
    );
    userConfig(box, {
      remote: { type: "http", url: upstream.url, headers: { Authorization: "Bearer remote-secret-0123" } },
      // Exits at start until ./ready exists in its folder: the home, where a user's server starts.
      flaky: { command: process.execPath, args: [envServer], env: { FAIL_UNLESS: "ready" } },
      // Notes each start in ./starts of the home folder.
      counted: {
        command: "sh",
        args: ["-c", `echo started >> "${join(box.home, "starts")}"; exec "$0" "$@"`, process.execPath, envServer],
      },
      helped: {
        type: "http",
        url: upstream.url,
        headersHelper: `echo "{\\"Authorization\\": \\"Bearer $HELPER_TOKEN\\"}"`,
      },
    });
    expect((await mcp(box, ["config", "approve", "envsrv"])).code).toBe(0);
    // The daemon is started from another shell: another PATH entry, a proxy with credentials, and another HELPER_TOKEN.
    const daemonBin = join(box.home, "daemon-shell-bin");
    mkdirSync(daemonBin, { recursive: true });
    const started = await mcp(box, ["daemon", "start"], {
      PATH: `${daemonBin}:${box.env["PATH"]}`,
      HTTPS_PROXY: `http://proxyuser:proxy-secret@127.0.0.1:${daemonProxy.port}`,
      HTTP_PROXY: `http://proxyuser:proxy-secret@127.0.0.1:${daemonProxy.port}`,
      HELPER_TOKEN: "the-daemons-token",
    });
    expect(started.code, started.stderr).toBe(0);
  });

  afterAll(async () => {
    await mcp(box, ["daemon", "stop"]);
    await upstream?.stop();
    await daemonProxy?.stop();
    await shellProxy?.stop();
    box?.remove();
  });

  it("a stdio server runs in the calling shell's folder (the project's ./server.mjs, not $HOME's) with its PATH and no proxy the shell does not set", async () => {
    const direct = await mcp(box, ["call", "envsrv.env"], { MCP_NO_DAEMON: "1" });
    expect(direct.code, direct.stderr).toBe(0);
    expect(envOf(direct)).toMatchObject({ cwd: box.project, WHERE: "the project", HTTPS_PROXY: null });
    const before = await calls();
    const daemon = await mcp(box, ["call", "envsrv.env"]);
    expect(daemon.code, daemon.stderr).toBe(0);
    expect(daemon.stderr).not.toMatch(THROUGH_THE_DAEMON);
    expect(await calls()).toBe(before + 1);
    expect(envOf(daemon)).toEqual(envOf(direct));
    // Another PATH in the calling shell is another configuration: the server gets that one.
    const otherPath = `${join(box.home, "other-bin")}:${box.env["PATH"]}`;
    const again = await mcp(box, ["call", "envsrv.env"], { PATH: otherPath });
    expect(again.stderr).not.toMatch(THROUGH_THE_DAEMON);
    expect(envOf(again)["PATH"]).toBe(otherPath);
  });

  it("switching terminals (another TERM, TMUX_PANE) reuses the daemon's running server: what only describes the terminal is not given to it", async () => {
    const starts = (): number =>
      existsSync(join(box.home, "starts"))
        ? readFileSync(join(box.home, "starts"), "utf8").trim().split("\n").length
        : 0;
    const before = await calls();
    const first = await mcp(box, ["call", "counted.env"], { TERM: "xterm-256color", TMUX_PANE: "%1" });
    expect(first.code, first.stderr).toBe(0);
    const second = await mcp(box, ["call", "counted.env"], { TERM: "screen", TMUX_PANE: "%2" });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(THROUGH_THE_DAEMON);
    expect(await calls()).toBe(before + 2);
    expect(starts()).toBe(1);
    expect(envOf(second)["TERM"]).toBeNull();
  });

  it("an HTTP server: with no proxy in the calling shell, the daemon's request (its Authorization header too) goes direct, as MCP_NO_DAEMON=1 does", async () => {
    const direct = await mcp(box, ["call", "remote.add", "a=1", "b=2"], { MCP_NO_DAEMON: "1" });
    expect(direct.code, direct.stderr).toBe(0);
    const before = await calls();
    const daemon = await mcp(box, ["call", "remote.add", "a=1", "b=2"]);
    expect(daemon.code, daemon.stderr).toBe(0);
    expect(daemon.stdout.trim()).toBe("3");
    expect(daemon.stderr).not.toMatch(THROUGH_THE_DAEMON);
    expect(await calls()).toBe(before + 1);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer remote-secret-0123");
    expect(daemonProxy.log, "requests sent through a proxy the calling shell never set").toEqual([]);
  });

  it("a shell with another proxy than the daemon's: the daemon declines, and the CLI calls through the shell's proxy, saying why (no proxy password shown)", async () => {
    const before = await calls();
    const run = await mcp(box, ["call", "remote.add", "a=1", "b=2"], { HTTP_PROXY: shellProxy.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("3");
    expect(run.stderr).toContain(
      'mcp daemon: it does not take this call: the daemon was started with other HTTPS_PROXY, HTTP_PROXY than this shell\'s, and would reach "remote" otherwise than this shell does',
    );
    expect(run.stderr).toContain("starting the server here instead");
    expect(run.stderr).not.toContain("proxy-secret");
    expect(await calls()).toBe(before);
    expect(shellProxy.log.some((line) => line.startsWith(`POST ${upstream.url}`))).toBe(true);
    expect(daemonProxy.log).toEqual([]);
  });

  it("a headersHelper runs with the calling shell's environment: the daemon declines it, so the server gets the shell's token, not the daemon's", async () => {
    const run = await mcp(box, ["call", "helped.add", "a=1", "b=2"], { HELPER_TOKEN: "the-shells-token" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('it does not take this call: server "helped" gets its headers from a headersHelper');
    expect(upstream.requests.filter((r) => r.method === "POST").at(-1)?.headers.authorization).toBe(
      "Bearer the-shells-token",
    );
    expect(upstream.requests.map((r) => r.headers.authorization)).not.toContain("Bearer the-daemons-token");
  });

  it("a server that failed to start is started anew by the next call, as a direct call would", async () => {
    const failed = await mcp(box, ["call", "flaky.env"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('server "flaky" failed to start');
    expect(failed.stderr).not.toMatch(THROUGH_THE_DAEMON);
    writeFileSync(join(box.home, "ready"), "");
    try {
      const direct = await mcp(box, ["call", "flaky.env"], { MCP_NO_DAEMON: "1" });
      expect(direct.code, direct.stderr).toBe(0);
      const before = await calls();
      const daemon = await mcp(box, ["call", "flaky.env"]);
      expect(daemon.code, daemon.stderr).toBe(0);
      expect(await calls()).toBe(before + 1);
      expect(envOf(daemon)["cwd"]).toBe(box.home);
    } finally {
      rmSync(join(box.home, "ready"));
    }
  });

  it("with MCP_REDIS_URL the tool lists and tokens are Redis's: the CLI calls itself and says why", async () => {
    const redis = await startRedis();
    try {
      const before = await calls();
      const run = await mcp(box, ["call", "envsrv.env"], {
        MCP_REDIS_URL: redis.url,
        MCP_REDIS_KEY: Buffer.alloc(32, 7).toString("base64"),
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("mcp daemon: not used while MCP_REDIS_URL is set");
      expect(await calls()).toBe(before);
    } finally {
      await redis.stop();
    }
  });
});
