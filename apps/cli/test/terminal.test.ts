// The CLI as a person meets it, in a real terminal: tmux runs it, send-keys types, capture-pane reads.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSdkServer } from "mcp-test-utils";
import { fixture, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { haveTmux, tmuxServer, until } from "./tmux.js";

const { terminal: open, stop } = tmuxServer("mcp-cli-test");
const boxes: Sandbox[] = [];
afterAll(() => {
  stop();
  for (const b of boxes) b.remove();
});

/** `mcp <args>` in a fresh terminal (120×30 unless told). */
const terminal = (b: Sandbox, name: string, args: string[], width = 120) => open(b, name, args, { width });

describe.skipIf(!haveTmux)("in a real terminal (tmux)", () => {
  it("a long call shows a live progress bar with the server's message, then the result", async () => {
    const b = sandbox();
    boxes.push(b);
    userConfig(b, { local: { command: process.execPath, args: [fixture] } });
    const t = terminal(b, "progress", ["call", "wait", "ms=3000"]);
    const during = await until(t.screen, (s) => /local\.wait .*\d+\/3000 step \d+/.test(s));
    expect(during).toMatch(/[█░]{5,}/); // the bar itself
    expect(during).not.toContain("EXIT=");
    const after = await until(t.screen, (s) => s.includes("EXIT="));
    expect(after).toContain("3000/3000");
    expect(after).toContain("waited 3000 ms");
    expect(after).toContain("EXIT=0");
  });

  it("asks once per project before starting project servers, and remembers the answer", async () => {
    const b = sandbox();
    boxes.push(b);
    b.write(join(b.project, ".mcp.json"), { mcpServers: { repo: { command: process.execPath, args: [fixture] } } });
    const first = terminal(b, "approve", ["servers"]);
    const asked = await until(first.screen, (s) => s.includes("[y/N]"));
    expect(asked).toContain("This project defines MCP servers that will run on this machine:");
    // Each server with what it would run, so the user knows what they approve.
    expect(asked.replace(/\n/g, "")).toContain(`repo  ${process.execPath} ${fixture}  (`);
    first.keys("y", "Enter");
    const table = await until(first.screen, (s) => s.includes("EXIT="));
    expect(table).toMatch(/repo[\s│]+stdio[\s│]+.*\.mcp\.json[\s│]+connected[\s│]+7[\s│]/);
    // What was approved is a fingerprint of what runs; the by-name list an older mcp reads stays empty.
    expect(JSON.parse(readFileSync(join(b.home, ".config", "mcp-client", "approvals.json"), "utf8"))).toEqual({
      version: 2,
      salt: expect.any(String),
      projects: {
        [b.project]: {
          approved: [],
          denied: [],
          fingerprints: { repo: { command: expect.any(String), args: expect.any(String), other: expect.any(String) } },
        },
      },
    });

    const second = terminal(b, "approve-again", ["servers"]);
    const again = await until(second.screen, (s) => s.includes("EXIT="));
    expect(again).not.toContain("[y/N]");
    expect(again).toMatch(/repo[\s│]+stdio[\s│]+.*connected/);
  });

  it("a changed project server is asked about again, showing what it will run: the command line quoted, cwd, every env variable (secrets masked, NODE_OPTIONS and PATH whole), unwrapped", async () => {
    const b = sandbox();
    boxes.push(b);
    const marker = join(b.home, "marker");
    const evil = b.write(
      join(b.home, "preload.cjs"),
      `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`,
    );
    const file = b.write(join(b.project, ".mcp.json"), {
      mcpServers: { repo: { command: process.execPath, args: [fixture] } },
    });
    expect((await mcp(b, ["config", "approve", "repo"])).code).toBe(0);
    const path = `${join(b.project, "bin")}:/usr/bin:/bin`;
    const env = {
      NODE_OPTIONS: `--require ${evil}`,
      PATH: path,
      API_TOKEN: "tok-terminal-secret",
      PLAIN: "x\u001b[8mhidden",
    };
    b.write(file, {
      mcpServers: {
        repo: {
          command: "sh",
          args: ["-c", `touch ${marker}; exec "$0" "$@"`, process.execPath, fixture],
          env,
          cwd: b.project,
        },
      },
    });

    const t = terminal(b, "approve-changed", ["servers"], 400);
    const asked = await until(t.screen, (s) => s.includes("[y/N]"));
    const lines = asked.split("\n").map((line) => line.trimEnd());
    // Each on one line of its own (nothing wrapped by us), the shell script quoted as one argument.
    expect(lines).toContain(
      `  repo  sh -c 'touch ${marker}; exec "$0" "$@"' ${process.execPath} ${fixture}  (${file}; changed since it was approved: command, args, env, cwd)`,
    );
    expect(lines).toContain(`      cwd  ${b.project}`);
    expect(lines).toContain(`      env  NODE_OPTIONS=--require ${evil}`);
    expect(lines).toContain(`           PATH=${path}`);
    expect(lines).toContain("           API_TOKEN=[redacted]");
    // A control sequence in a value is shown, not obeyed (it could hide the text after it).
    expect(lines).toContain("           PLAIN=x\\u{001b}[8mhidden");
    expect(asked).not.toContain("tok-terminal-secret");
    t.keys("n", "Enter");
    const after = await until(t.screen, (s) => s.includes("EXIT="));
    expect(after).toContain("Not starting them. To change your mind: mcp config approve repo");
    expect(existsSync(marker)).toBe(false);
  });

  it("the prompt says which of your variables a server takes and shows values as written, never the expanded secret; TLS and proxy settings are never masked", async () => {
    const b = sandbox();
    boxes.push(b);
    const upstream = await startSdkServer();
    try {
      const file = b.write(join(b.project, ".mcp.json"), {
        mcpServers: {
          docs: {
            type: "http",
            url: upstream.url,
            headers: { Authorization: "Bearer ${GITHUB_TOKEN}", "X-Api-Key": "a-literal-in-the-file" },
          },
          helper: {
            command: process.execPath,
            args: [fixture, "--token=${GITHUB_TOKEN}"],
            env: { NODE_TLS_REJECT_UNAUTHORIZED: "0", HTTPS_PROXY: "http://127.0.0.1:9", API_KEY: "${env:MY_API_KEY}" },
          },
        },
      });
      const secrets = { GITHUB_TOKEN: "ghp_the_users_own_token", MY_API_KEY: "the-users-api-key" };
      const t = terminal({ ...b, env: { ...b.env, ...secrets } }, "approve-written", ["servers"], 400);
      const asked = await until(t.screen, (s) => s.includes("[y/N]"));
      const lines = asked.split("\n").map((line) => line.trimEnd());
      const row = (label: string, value: string): RegExp =>
        new RegExp(`^ {6}${label} +${value.replace(/[$^{}()[\]\\.*+?|]/g, "\\$&")}$`);
      const has = (pattern: RegExp): boolean => lines.some((line) => pattern.test(line));
      expect(lines).toContain(`  docs  http ${upstream.url}  (${file})`);
      expect(lines).toContain(`  helper  ${process.execPath} ${fixture} '--token=\${GITHUB_TOKEN}'  (${file})`);
      expect(has(row("uses your", "GITHUB_TOKEN")), asked).toBe(true);
      expect(has(row("uses your", "GITHUB_TOKEN, MY_API_KEY")), asked).toBe(true);
      expect(has(row("header", "Authorization: Bearer ${GITHUB_TOKEN}")), asked).toBe(true);
      expect(has(row("", "X-Api-Key: [redacted]")), asked).toBe(true);
      expect(has(row("env", "NODE_TLS_REJECT_UNAUTHORIZED=0")), asked).toBe(true);
      expect(has(row("", "HTTPS_PROXY=http://127.0.0.1:9")), asked).toBe(true);
      expect(has(row("", "API_KEY=${env:MY_API_KEY}")), asked).toBe(true);
      for (const value of [...Object.values(secrets), "a-literal-in-the-file"]) expect(asked).not.toContain(value);
      t.keys("y", "Enter");
      await until(t.screen, (s) => s.includes("EXIT="));
      // What was shown is what was sent: the user's own token, now approved.
      expect(upstream.requests.map((r) => r.headers.authorization)).toContain("Bearer ghp_the_users_own_token");
    } finally {
      await upstream.stop();
    }
  });

  it("mcp config approve on a terminal shows what it would approve and asks; no approves nothing, yes approves what it showed", async () => {
    const b = sandbox();
    boxes.push(b);
    const file = b.write(join(b.project, ".mcp.json"), {
      mcpServers: { repo: { command: process.execPath, args: [fixture], env: { API_KEY: "${MY_API_KEY}" } } },
    });
    b.env["MY_API_KEY"] = "the-users-api-key";
    const no = terminal(b, "approve-no", ["config", "approve", "repo"], 200);
    const shown = await until(no.screen, (s) => s.includes("[y/N]"));
    expect(shown).toContain("Approve for this project what these servers will run:");
    expect(shown).toContain(`  repo  ${process.execPath} ${fixture}  (${file})`);
    expect(shown).toMatch(/ {6}uses your +MY_API_KEY/);
    expect(shown).toMatch(/ {6}env +API_KEY=\$\{MY_API_KEY\}/);
    expect(shown).not.toContain("the-users-api-key");
    no.keys("n", "Enter");
    expect(await until(no.screen, (s) => s.includes("EXIT="))).toContain("Nothing approved.");
    expect((await mcp(b, ["servers", "--json"])).stderr).toContain(
      "Skipped project server repo (not approved yet; .mcp.json)",
    );
    const yes = terminal(b, "approve-yes", ["config", "approve", "repo"], 200);
    await until(yes.screen, (s) => s.includes("[y/N]"));
    yes.keys("y", "Enter");
    const after = await until(yes.screen, (s) => s.includes("EXIT="));
    expect(after).toContain('Approved "repo" for this project.');
    expect(after).toContain("EXIT=0");
    expect(JSON.parse((await mcp(b, ["servers", "--json"])).stdout)).toEqual([
      expect.objectContaining({ name: "repo", status: "connected" }),
    ]);
  });

  it("Ctrl-C cancels the call: says so at once, the server receives notifications/cancelled, and the CLI exits 130 within a second though the server ignores the end of stdin", async () => {
    const b = sandbox();
    boxes.push(b);
    const marker = join(b.home, "cancelled.txt");
    const grace = join(b.home, "grace.txt");
    userConfig(b, {
      local: {
        command: process.execPath,
        args: [fixture],
        env: { CANCEL_MARKER: marker, IGNORE_STDIN_END: "1", GRACE_MARKER: grace },
      },
    });
    const t = terminal(b, "cancel", ["call", "wait", "ms=60000"]);
    await until(t.screen, (s) => /local\.wait .*\d+\/60000/.test(s));
    t.keys("C-c");
    const after = await until(t.screen, (s) => s.includes("EXIT="));
    // A server that ignores the end of its stdin must not hold the CLI for the transport's default
    // 2 s grace, in silence: the CLI gives it 500 ms, then SIGTERM. Measured by the server itself,
    // from its stdin's end to the signal (no terminal polling in it); the bound leaves 1 s for a
    // loaded machine's late timers and is still 500 ms short of the default grace.
    // (The "Cancelling…" line, replaced by "Cancelled.", is first-run-terminal.test.ts's.)
    const graceMs = Number(readFileSync(grace, "utf8"));
    expect(graceMs).toBeGreaterThanOrEqual(0);
    expect(graceMs).toBeLessThan(1500);
    expect(after).toContain("Cancelled.");
    expect(after).toContain("EXIT=130");
    expect(after).not.toMatch(/Error:|at .*\.js:\d+/); // no stack trace
    // The server's tool saw its request cancelled (it writes the marker on abort).
    expect(existsSync(marker) && readFileSync(marker, "utf8")).toBe("cancelled");
  });

  it("the servers table fits an 80-column terminal; an error too long for its cell is printed whole under the table", async () => {
    const b = sandbox();
    boxes.push(b);
    userConfig(b, {
      local: { command: process.execPath, args: [fixture] },
      "a-server-with-a-long-name": { command: "no-such-mcp-server-with-a-rather-long-name-xyz" },
    });
    const t = terminal(b, "narrow", ["servers"], 80);
    await until(t.screen, (s) => s.includes("EXIT="));
    const lines = t.joined().split("\n");
    const head = lines.findIndex((line) => line.startsWith("NAME "));
    const rows = lines.slice(head, head + 3);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(["NAME", "local", "a-server-with-a-long-name"]); // a line each, no name cut
    for (const line of rows) expect(line.trimEnd().length, line).toBeLessThanOrEqual(80); // no row wraps
    // The cause is never cut: written whole under the table, as one line the terminal wraps.
    const whole =
      'a-server-with-a-long-name: command "no-such-mcp-server-with-a-rather-long-name-xyz": command not found (ENOENT); is it installed and on PATH?';
    expect(lines.map((line) => line.trimEnd())).toContain(whole);
  });
});
