// The CLI as a person meets it, in a real terminal: tmux runs it, send-keys types, capture-pane reads.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bin, fixture, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

const haveTmux = spawnSync("tmux", ["-V"]).status === 0;
const socket = `mcp-cli-test-${process.pid}`;
const boxes: Sandbox[] = [];
afterAll(() => {
  spawnSync("tmux", ["-L", socket, "kill-server"]);
  for (const b of boxes) b.remove();
});

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

/**
 * Starts `mcp <args>` in a fresh terminal (120×30 unless told); the pane stays after exit, printing
 * the exit code. `joined()` reads it with wrapped lines joined, as they were written.
 */
function terminal(b: Sandbox, name: string, args: string[], width = 120): { screen: () => string; joined: () => string; keys: (...keys: string[]) => void } {
  const env = Object.entries({ ...b.env, NO_COLOR: "" }).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  // `trap` keeps the wrapping shell alive through Ctrl-C (a handler, not SIG_IGN: node starts with the default).
  const command = `trap 'true' INT; cd ${JSON.stringify(b.project)} && env ${env} TERM=xterm-256color ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${args.map((a) => JSON.stringify(a)).join(" ")}; echo "EXIT=$?"; sleep 60`;
  tmux("new-session", "-d", "-s", name, "-x", String(width), "-y", "30", "sh", "-c", command);
  return { screen: () => tmux("capture-pane", "-p", "-t", name), joined: () => tmux("capture-pane", "-p", "-J", "-t", name), keys: (...keys) => void tmux("send-keys", "-t", name, ...keys) };
}

async function until(read: () => string, test: (screen: string) => boolean, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  let screen = read();
  while (!test(screen)) {
    if (Date.now() > deadline) throw new Error(`the screen never matched; last screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    screen = read();
  }
  return screen;
}

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
      projects: { [b.project]: { approved: [], denied: [], fingerprints: { repo: { command: expect.any(String), args: expect.any(String), other: expect.any(String) } } } },
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
    const evil = b.write(join(b.home, "preload.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
    const file = b.write(join(b.project, ".mcp.json"), { mcpServers: { repo: { command: process.execPath, args: [fixture] } } });
    expect((await mcp(b, ["config", "approve", "repo"])).code).toBe(0);
    const path = `${join(b.project, "bin")}:/usr/bin:/bin`;
    const env = { NODE_OPTIONS: `--require ${evil}`, PATH: path, API_TOKEN: "tok-terminal-secret", PLAIN: "x\u001b[8mhidden" };
    b.write(file, { mcpServers: { repo: { command: "sh", args: ["-c", `touch ${marker}; exec "$0" "$@"`, process.execPath, fixture], env, cwd: b.project } } });

    const t = terminal(b, "approve-changed", ["servers"], 400);
    const asked = await until(t.screen, (s) => s.includes("[y/N]"));
    const lines = asked.split("\n").map((line) => line.trimEnd());
    // Each on one line of its own (nothing wrapped by us), the shell script quoted as one argument.
    expect(lines).toContain(`  repo  sh -c 'touch ${marker}; exec "$0" "$@"' ${process.execPath} ${fixture}  (${file}; changed since it was approved: command, args, env, cwd)`);
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

  it("Ctrl-C cancels the call: says so at once, the server receives notifications/cancelled, and the CLI exits 130 within a second though the server ignores the end of stdin", async () => {
    const b = sandbox();
    boxes.push(b);
    const marker = join(b.home, "cancelled.txt");
    userConfig(b, { local: { command: process.execPath, args: [fixture], env: { CANCEL_MARKER: marker, IGNORE_STDIN_END: "1" } } });
    const t = terminal(b, "cancel", ["call", "wait", "ms=60000"]);
    await until(t.screen, (s) => /local\.wait .*\d+\/60000/.test(s));
    const pressed = Date.now();
    t.keys("C-c");
    await until(t.screen, (s) => s.includes("Cancelling… (Ctrl-C again to quit now)"), 2000);
    const after = await until(t.screen, (s) => s.includes("EXIT="));
    // Before: a server that ignores the end of its stdin held the CLI for its 2 s grace, in silence.
    expect(Date.now() - pressed).toBeLessThan(1500);
    expect(after).toContain("Cancelled.");
    expect(after).toContain("EXIT=130");
    expect(after).not.toMatch(/Error:|at .*\.js:\d+/); // no stack trace
    // The server's tool saw its request cancelled (it writes the marker on abort).
    expect(existsSync(marker) && readFileSync(marker, "utf8")).toBe("cancelled");
  });

  it("the servers table fits an 80-column terminal; an error too long for its cell is printed whole under the table", async () => {
    const b = sandbox();
    boxes.push(b);
    userConfig(b, { local: { command: process.execPath, args: [fixture] }, "a-server-with-a-long-name": { command: "no-such-mcp-server-with-a-rather-long-name-xyz" } });
    const t = terminal(b, "narrow", ["servers"], 80);
    await until(t.screen, (s) => s.includes("EXIT="));
    const lines = t.joined().split("\n");
    const head = lines.findIndex((line) => line.startsWith("NAME "));
    const rows = lines.slice(head, head + 3);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(["NAME", "local", "a-server-with-a-long-name"]); // a line each, no name cut
    for (const line of rows) expect(line.trimEnd().length, line).toBeLessThanOrEqual(80); // no row wraps
    // The cause is never cut: written whole under the table, as one line the terminal wraps.
    const whole = 'a-server-with-a-long-name: command "no-such-mcp-server-with-a-rather-long-name-xyz": command not found (ENOENT); is it installed and on PATH?';
    expect(lines.map((line) => line.trimEnd())).toContain(whole);
  });
});
