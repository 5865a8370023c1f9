// Approvals of project servers cover what runs, not a name. The real CLI in a temporary home and
// project with a real .mcp.json; real servers: the SDK fixture over stdio, the SDK's Streamable HTTP
// server on 127.0.0.1. Each stdio change would create a marker file if it ran (checked: --yes runs
// it once and the marker appears), and each HTTP change would reach the server (its requests are
// counted), so "asked again" is checked together with "never ran meanwhile".
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startSdkServer } from "mcp-test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandbox, type Sandbox } from "./helpers.js";

const boxes: Sandbox[] = [];
afterAll(() => {
  for (const b of boxes) b.remove();
});

interface Box extends Sandbox {
  marker: string;
  /** A preload that creates the marker: what an attacker's NODE_OPTIONS or `--require` would load. */
  evil: string;
  /** Writes the project's .mcp.json with one server, "repo". */
  define(repo: object): void;
  approvals(): string;
}

function box(): Box {
  const b = sandbox();
  boxes.push(b);
  const marker = join(b.home, "marker");
  return {
    ...b,
    marker,
    evil: b.write(join(b.home, "preload.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`),
    define: (repo) => void b.write(join(b.project, ".mcp.json"), { mcpServers: { repo } }),
    approvals: () => readFileSync(join(b.home, ".config", "mcp-client", "approvals.json"), "utf8"),
  };
}

interface Row {
  name: string;
  status: string;
  lastError?: string;
}

/** `mcp servers --json` with no terminal: the server's row, and what was said on stderr. */
async function listed(b: Box, env: Record<string, string> = {}): Promise<{ row: Row | undefined; stderr: string }> {
  const run = await mcp(b, ["servers", "--json"], env);
  return { row: (JSON.parse(run.stdout) as Row[]).find((row) => row.name === "repo"), stderr: run.stderr };
}

/** Asserts the server is skipped as changed (these parts), by `servers` and by `call`, and says how to approve it. */
async function expectAskedAgain(b: Box, parts: string, env: Record<string, string> = {}): Promise<void> {
  const { row, stderr } = await listed(b, env);
  expect(row, parts).toMatchObject({
    status: "not approved",
    lastError: `project server changed since it was approved: ${parts} (approve it: mcp config approve repo)`,
  });
  expect(stderr).toContain(
    `Skipped project server repo (changed since it was approved: ${parts}; .mcp.json). Approve: mcp config approve repo`,
  );
  const call = await mcp(b, ["call", "repo.counter"], env);
  expect(call.code, call.stderr).toBe(1);
  expect(call.stderr).toContain(
    `is not approved as it is now (changed since it was approved: ${parts}; it would run: `,
  );
  expect(call.stderr).toContain("approve it with: mcp config approve repo");
}

describe("project server approvals cover what runs", () => {
  it("a changed command, args, env (NODE_OPTIONS) or cwd asks again, and the changed server never runs; only hashes are stored", async () => {
    const b = box();
    // `--require ./preload.cjs` is read from the server's cwd: harmless in the project, the marker in the home.
    b.write(join(b.project, "preload.cjs"), "");
    b.write(join(b.home, "sub", "preload.cjs"), readFileSync(b.evil, "utf8"));
    const secret = "tok-approvals-secret-4711";
    const base = {
      command: process.execPath,
      args: ["--require", "./preload.cjs", fixture],
      env: { API_TOKEN: secret },
    };
    b.define(base);
    expect((await mcp(b, ["config", "approve", "repo"])).code).toBe(0);
    expect((await listed(b)).row?.status).toBe("connected");
    // What is kept is hashes: neither the secret nor the command line.
    expect(b.approvals()).not.toContain(secret);
    expect(b.approvals()).not.toContain(fixture);

    const variants: [object, string][] = [
      [
        { ...base, command: "sh", args: ["-c", `touch '${b.marker}'; exec "$0" "$@"`, process.execPath, ...base.args] },
        "command, args",
      ],
      [{ ...base, args: ["--require", b.evil, fixture] }, "args"],
      [{ ...base, env: { ...base.env, NODE_OPTIONS: `--require ${b.evil}` } }, "env"],
      [{ ...base, cwd: join(b.home, "sub") }, "cwd"],
    ];
    for (const [repo, parts] of variants) {
      b.define(repo);
      await expectAskedAgain(b, parts);
      expect(existsSync(b.marker), parts).toBe(false);
      // The change really would run the marker's code: --yes starts it, for this run only.
      const once = await mcp(b, ["--yes", "call", "repo.counter"]);
      expect(once.code, once.stderr).toBe(0);
      expect(existsSync(b.marker), parts).toBe(true);
      rmSync(b.marker);
    }

    // Back as it was approved: it starts without asking.
    b.define(base);
    const back = await listed(b);
    expect(back.row?.status).toBe("connected");
    expect(back.stderr).not.toContain("Skipped");
  });

  it("an HTTP server whose URL or headers change, or whose header variable gets another value, asks again, and the server hears nothing", async () => {
    const server = await startSdkServer();
    try {
      const b = box();
      const first = { GW_TOKEN: "first-token-value" };
      const base = { type: "http", url: server.url, headers: { Authorization: "Bearer ${GW_TOKEN}" } };
      b.define(base);
      expect((await mcp(b, ["config", "approve", "repo"], first)).code).toBe(0);
      expect((await listed(b, first)).row?.status).toBe("connected");
      expect(b.approvals()).not.toContain("first-token-value");

      const heard = server.requests.length;
      const variants: [object, string, Record<string, string>][] = [
        [{ ...base, url: `${server.url}?tenant=other` }, "url", first],
        [{ ...base, headers: { ...base.headers, "X-Forwarded-User": "admin" } }, "headers", first],
        // The fingerprint is over the config as it will be sent: a variable's new value is a change.
        [base, "headers", { GW_TOKEN: "second-token-value" }],
      ];
      for (const [repo, parts, env] of variants) {
        b.define(repo);
        await expectAskedAgain(b, parts, env);
        expect(server.requests.length, parts).toBe(heard);
      }
      b.define(base);
      expect((await listed(b, first)).row?.status).toBe("connected");
    } finally {
      await server.stop();
    }
  });

  it("a repository's .env (envFile) that gains NODE_OPTIONS asks again: the fingerprint is taken after the env file is merged", async () => {
    const b = box();
    b.write(join(b.project, ".cursor", "mcp.json"), {
      mcpServers: { repo: { command: process.execPath, args: [fixture], envFile: ".env" } },
    });
    b.write(join(b.project, ".env"), "GREETING=hello\n");
    expect((await mcp(b, ["config", "approve", "repo"])).code).toBe(0);
    expect((await listed(b)).row?.status).toBe("connected");
    b.write(join(b.project, ".env"), `GREETING=hello\nNODE_OPTIONS=--require ${b.evil}\n`);
    const { row, stderr } = await listed(b);
    expect(row).toMatchObject({
      status: "not approved",
      lastError: "project server changed since it was approved: env (approve it: mcp config approve repo)",
    });
    expect(stderr).toContain("repo (changed since it was approved: env; .cursor/mcp.json)");
    expect(existsSync(b.marker)).toBe(false);
  });

  it("approvals an older mcp stored by name are asked again; Claude Code's enabledMcpjsonServers and enableAllProjectMcpServers still approve by name", async () => {
    const b = box();
    b.define({ command: "sh", args: ["-c", `touch '${b.marker}'; exec "$0" "$@"`, process.execPath, fixture] });
    b.write(join(b.home, ".config", "mcp-client", "approvals.json"), {
      projects: { [b.project]: { approved: ["repo"], denied: [] } },
    });
    const old = await listed(b);
    expect(old.row).toMatchObject({
      status: "not approved",
      lastError:
        "project server approved by name by an earlier mcp; approvals now cover what runs (approve it: mcp config approve repo)",
    });
    expect(old.stderr).toContain("Approve: mcp config approve repo");
    expect(existsSync(b.marker)).toBe(false);

    // Claude Code keeps its approvals by name, and so do we for its files.
    for (const approval of [{ enabledMcpjsonServers: ["repo"] }, { enableAllProjectMcpServers: true }]) {
      b.write(join(b.home, ".claude.json"), { projects: { [b.project]: approval } });
      expect((await listed(b)).row?.status).toBe("connected");
      expect(existsSync(b.marker)).toBe(true);
      rmSync(b.marker);
    }
    rmSync(join(b.home, ".claude.json"));

    // Approving again records what runs, and empties the by-name list (an older mcp then asks too).
    expect((await mcp(b, ["config", "approve", "repo"])).code).toBe(0);
    expect(JSON.parse(b.approvals())).toMatchObject({
      version: 2,
      projects: { [b.project]: { approved: [], denied: [], fingerprints: { repo: expect.any(Object) } } },
    });
    expect((await listed(b)).row?.status).toBe("connected");
  });

  it("what a skipped server would run, and what config approve approved, are shown as the file writes them: the variable's name, never the user's secret", async () => {
    const server = await startSdkServer();
    try {
      const b = box();
      const secrets = { GW_TOKEN: "the-users-own-token-0815", ARG_TOKEN: "the-users-arg-token-4711" };
      b.define({ command: process.execPath, args: [fixture, "--token=${ARG_TOKEN}"] });
      const call = await mcp(b, ["call", "repo.counter"], secrets);
      expect(call.code).toBe(1);
      expect(call.stderr).toContain(
        `it would run: ${process.execPath} ${fixture} '--token=\${ARG_TOKEN}'); approve it with: mcp config approve repo`,
      );
      expect(call.stderr).not.toContain(secrets.ARG_TOKEN);

      b.define({ type: "http", url: server.url, headers: { Authorization: "Bearer ${GW_TOKEN}" } });
      const approved = await mcp(b, ["config", "approve", "repo"], secrets);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain(`Approved "repo" for this project: http ${server.url}`);
      expect(approved.stdout).toMatch(/ uses your +GW_TOKEN\n/);
      expect(approved.stdout).toMatch(/ header +Authorization: Bearer \$\{GW_TOKEN\}\n/);
      expect(approved.stdout + approved.stderr).not.toContain(secrets.GW_TOKEN);
    } finally {
      await server.stop();
    }
  });

  describe.skipIf(process.platform === "win32")("through the daemon", () => {
    it("a server that changed after its approval is refused, not answered by the daemon's earlier instance, in this project or another", async () => {
      const b = box();
      b.define({ command: process.execPath, args: [fixture] });
      expect((await mcp(b, ["config", "approve", "repo"])).code).toBe(0);
      expect((await mcp(b, ["daemon", "start"])).code).toBe(0);
      try {
        const warm = await mcp(b, ["call", "repo.counter"]);
        expect(warm.stdout).toMatch(/^call 1 in pid \d+/);
        b.define({ command: "sh", args: ["-c", `touch '${b.marker}'; exec "$0" "$@"`, process.execPath, fixture] });
        await expectAskedAgain(b, "command, args");
        for (const words of [["counter"], ["repo", "counter"]]) {
          const run = await mcp(b, ["call", ...words]);
          expect(run.code, words.join(" ")).not.toBe(0);
          expect(run.stdout).not.toContain("call 2");
          expect(run.stderr).toContain("is not approved as it is now");
        }
        expect(existsSync(b.marker)).toBe(false);
        // Another project does not define "repo": the daemon's instance is not its to call.
        const elsewhere = await mcp({ ...b, project: b.home }, ["call", "repo.counter"]);
        expect(elsewhere.code).not.toBe(0);
        expect(elsewhere.stdout).not.toContain("call 2");
      } finally {
        await mcp(b, ["daemon", "stop"]);
      }
    });
  });
});
