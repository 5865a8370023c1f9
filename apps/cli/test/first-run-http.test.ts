// The `mcp` command as a new user meets it (issue 43), over HTTP and with the daemon: the CLI
// reaching its own `mcp serve --http` ad hoc (a header, only that server), a refused static token,
// `mcp serve` stopping at once on SIGTERM, and `mcp daemon status`.
import { existsSync, readFileSync } from "node:fs";
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { everythingEntry, freePort, startEverything, type EverythingServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandboxes, userConfig, type Sandbox } from "./helpers.js";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";

const node = process.execPath;
const token = "first-run-token-0123456789";
const { box, removeAll } = sandboxes();
afterAll(removeAll);

describe("ad hoc over HTTP: --header, and only that server", () => {
  let gateway: HttpServe;
  let project: Sandbox;
  let marks: string;
  const started = (): string[] =>
    existsSync(marks) ? readFileSync(marks, "utf8").trim().split("\n").filter(Boolean) : [];

  beforeAll(async () => {
    const served = box();
    userConfig(served, { everything: { command: node, args: [everythingEntry, "stdio"] } });
    gateway = await startHttpServe(served, [], { MCP_SERVE_TOKEN: token });
    // The user's own servers, which an ad-hoc command must leave alone: each notes when it starts.
    project = box();
    marks = join(project.home, "started.txt");
    const marked = (name: string, args: string[]): { command: string; args: string[] } => ({
      command: "sh",
      args: ["-c", `echo ${name} >> "${marks}"; exec "$0" "$@"`, node, ...args],
    });
    userConfig(project, {
      mine: marked("mine", [everythingEntry, "stdio"]),
      other: marked("other", [fixture]),
      gwconf: {
        type: "http",
        url: `${gateway.url}/everything`,
        headers: { Authorization: "Bearer not-the-token-at-all" },
      },
    });
  });
  afterAll(() => gateway.stop());

  it("mcp --http <its own serve> --header calls a bare tool name on that server only; an unknown name starts nothing else", async () => {
    const adHoc = ["--http", `${gateway.url}/everything`, "--header", `Authorization=Bearer ${token}`];
    const called = await mcp(project, [...adHoc, "call", "echo", "message=hi"]);
    expect(called.stderr).toBe("");
    expect(called.stdout.trim()).toBe("Echo: hi");
    const unknown = await mcp(project, [...adHoc, "call", "no-such-tool"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown tool "no-such-tool"');
    expect(unknown.stderr).not.toMatch(/mine|other|gwconf/);
    const tools = JSON.parse((await mcp(project, [...adHoc, "tools", "--json"])).stdout) as { server: string }[];
    expect(new Set(tools.map((t) => t.server))).toEqual(new Set(["http"]));
    // Commands about the config files refuse a server given on the command line rather than ignore it.
    const list = await mcp(project, [...adHoc, "config", "list"]);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain(
      "config list is about your config files, and --http gives a server for one command only",
    );
    // Curl's way of writing a header works too.
    expect(
      (
        await mcp(project, [
          "--http",
          `${gateway.url}/everything`,
          "-H",
          `Authorization: Bearer ${token}`,
          "call",
          "echo",
          "message=curl",
        ])
      ).stdout.trim(),
    ).toBe("Echo: curl");
    // --stdio too: the configured "other" offers the same tool, and is neither asked nor started.
    const stdio = ["--stdio", `${node} ${fixture}`];
    const counted = await mcp(project, [...stdio, "call", "counter"]);
    expect(counted.stderr).toBe("");
    expect(counted.stdout).toMatch(/^call 1 in pid \d+/);
    const nowhere = await mcp(project, [...stdio, "call", "no-such-tool"]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).not.toMatch(/mine|other|gwconf/);
    expect(started()).toEqual([]);
  });

  it("a refused static token says so (not 'mcp auth', which starts OAuth), ad hoc or configured", async () => {
    const adHoc = await mcp(project, [
      "--http",
      `${gateway.url}/everything`,
      "--header",
      "Authorization=Bearer wrong-token-wrong-token",
      "tools",
    ]);
    expect(adHoc.code).toBe(1);
    expect(adHoc.stderr).toContain(
      "the server refused the token in the Authorization header (HTTP 401): check the token given with --header",
    );
    expect(adHoc.stderr).not.toContain("mcp auth");
    const configured = await mcp(project, ["tools", "gwconf"]);
    expect(configured.code).toBe(1);
    expect(configured.stderr).toContain(
      'the server refused the token in the Authorization header (HTTP 401): check the token in "headers" of its config',
    );
    expect(configured.stderr).not.toContain("mcp auth");
    const row = (
      JSON.parse((await mcp(project, ["-s", "gwconf", "servers", "--json"])).stdout) as {
        status: string;
        lastError: string;
      }[]
    )[0];
    expect(row).toMatchObject({ status: "failed", lastError: expect.stringContaining("refused the token") });
    const doctor = await mcp(project, ["-s", "gwconf", "config", "doctor"]);
    expect(doctor.stdout).toContain("✗ gwconf: the server refused the token in the Authorization header (HTTP 401)");
    expect(doctor.stdout).not.toContain("mcp auth");
    // Without a token, a server given on the command line cannot be signed in to with mcp auth: send one.
    const none = await mcp(project, ["--http", `${gateway.url}/everything`, "tools"]);
    expect(none.stderr).toContain("send a token with --header 'Authorization=Bearer …'");
    const alone = await mcp(project, ["--header", "Authorization=Bearer x", "tools"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--header is for an ad-hoc HTTP server");
    expect(started()).toEqual([]);
  });
});

/** A proxy in front of a Streamable HTTP server that never answers DELETE (a server slow to end its session). */
async function holdingDeletes(
  upstream: string,
): Promise<{ url: string; deletes: IncomingMessage[]; close: () => Promise<void> }> {
  const target = new URL(upstream);
  const deletes: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === "DELETE") return void deletes.push(req);
    const forward = request(
      { host: "127.0.0.1", port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    deletes,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe("mcp serve --http stops when asked", () => {
  let upstream: EverythingServer;
  beforeAll(async () => {
    upstream = await startEverything("streamableHttp");
  });
  afterAll(() => upstream.stop());

  it("on SIGTERM it says so and ends, without waiting for a server slow to close its session", async () => {
    const proxy = await holdingDeletes(upstream.url);
    try {
      const b = box();
      userConfig(b, { slow: { type: "http", url: proxy.url } });
      const serve = await startHttpServe(b, [], { MCP_SERVE_TOKEN: token });
      const exited = new Promise<number | null>((resolve) => serve.child.once("exit", (code) => resolve(code)));
      serve.child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(serve.stderr()).toContain("mcp serve: stopping (SIGTERM; again to quit now)");
      // It asked the server to end the session, and did not wait for an answer that never came.
      expect(proxy.deletes).toHaveLength(1);
      expect(serve.stderr()).toContain("mcp serve: stopped (servers still closing were ended)");
    } finally {
      await proxy.close();
    }
  });
});

describe("mcp daemon status", () => {
  it("reports how long it has been idle (and its limit apart), a failed server as failed with its cause and stderr once, columns aligned", async () => {
    const b = box();
    const closed = await freePort();
    const crash = fileURLToPath(new URL("./fixtures/crash.mjs", import.meta.url));
    userConfig(b, {
      local: { command: node, args: [fixture] },
      crash: { command: node, args: [crash], env: { CRASH_URL: `http://127.0.0.1:${closed}/docs` } },
    });
    expect((await mcp(b, ["daemon", "start"])).code).toBe(0);
    try {
      expect((await mcp(b, ["call", "local.counter"])).stdout).toMatch(/^call 1 in pid/);
      expect((await mcp(b, ["call", "crash.anything"])).code).toBe(1);
      const json = JSON.parse((await mcp(b, ["--json", "daemon", "status"])).stdout) as {
        idleMs: number;
        idleLimitMs: number;
        servers: Record<string, unknown>[];
      };
      expect(json.idleLimitMs).toBe(60 * 60_000);
      expect(json.idleMs).toBeLessThan(json.idleLimitMs);
      const servers = Object.fromEntries(json.servers.map((s) => [s["name"], s]));
      expect(servers["local"]).toEqual({
        name: "local",
        state: "connected",
        tools: 7,
        keepAlive: false,
        idleForMs: expect.any(Number),
        lastError: null,
        stderrTail: null,
      });
      expect(servers["crash"]).toMatchObject({
        state: "failed",
        tools: null,
        lastError: "Transport closed (process exited with code 1)",
        stderrTail: expect.stringContaining("ECONNREFUSED"),
      });

      const human = await mcp(b, ["daemon", "status"]);
      expect(human.code).toBe(0);
      const lines = human.stdout.split("\n");
      expect(lines[0]).toMatch(/^mcp daemon \S+, pid \d+, up \d+s, idle \d+s, 0 clients now, 2 calls served$/);
      expect(lines[1]).toContain("exits after 1h 0m without a call");
      const head = lines.findIndex((line) => line.startsWith("SERVER"));
      expect(lines[head]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+LAST USED$/);
      const state = lines[head]!.indexOf("STATE");
      for (const row of lines.slice(head + 1, head + 3)) expect(row.slice(state - 2, state), row).toBe("  ");
      expect(lines.slice(head + 1, head + 3)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^local\s+connected\s+7\s+\d+s ago$/),
          expect.stringMatching(/^crash\s+failed$/),
        ]),
      );
      expect(human.stdout).not.toContain("0 tools");
      expect(human.stdout).toContain(
        `crash: connect ECONNREFUSED 127.0.0.1:${closed} (the process exited with code 1)\n    stderr: `,
      );
      expect(human.stdout.split("[cause]: Error: connect ECONNREFUSED")).toHaveLength(2);
    } finally {
      await mcp(b, ["daemon", "stop"]);
    }
  });
});
