// Issue 58 in a real terminal (tmux runs the built CLI). While servers connect, a terminal shows
// one transient line saying which are still awaited (12–40 s of a blank screen with many servers);
// into a pipe, nothing: a server that starts only once the test creates ./go holds the wait open,
// so the line is read while it waits, with no clock involved. At 80 columns, a path from the home
// folder cut to fit still starts with `~/`, and `config list` is a table.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandboxes, userConfig, type Sandbox } from "./helpers.js";
import { haveTmux, tmuxServer, until } from "./tmux.js";

const { terminal, stop } = tmuxServer("mcp-own-project");
const { box, removeAll } = sandboxes();
afterAll(() => {
  stop();
  removeAll();
});

/** A quick server and one that waits for ./go in the project before it starts. */
function configure(b: Sandbox): void {
  userConfig(b, {
    quick: { command: process.execPath, args: [fixture] },
    held: {
      command: "sh",
      args: [
        "-c",
        `while [ ! -f "${join(b.project, "go")}" ]; do sleep 0.05; done; exec "$0" "$1"`,
        process.execPath,
        fixture,
      ],
      timeout: 60_000,
    },
  });
}

describe.skipIf(!haveTmux)("while servers connect", () => {
  it("a terminal shows which servers are still awaited, then the line is gone and the table is there", async () => {
    const b = box();
    configure(b);
    const t = terminal(b, "connecting", ["servers"], { width: 80 });
    const waiting = await until(t.screen, (s) => s.includes("waiting for held"));
    expect(waiting).toMatch(/Connecting… 1 of 2 ready; waiting for held/);
    writeFileSync(join(b.project, "go"), "");
    const done = await until(t.screen, (s) => s.includes("EXIT="));
    expect(done).toMatch(/^held\s+stdio\s+.*connected/m);
    expect(done).not.toContain("Connecting…");
  });

  it("into a pipe, nothing of it", async () => {
    const b = box();
    configure(b);
    writeFileSync(join(b.project, "go"), "");
    const run = await mcp(b, ["servers"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr + run.stdout).not.toContain("Connecting");
  });
});

describe.skipIf(!haveTmux)("at 80 columns", () => {
  it("a user config's path cut to fit keeps its ~/ (it never reads as the project's), and config list is an aligned table", async () => {
    const b = box();
    userConfig(b, {
      "a-server-with-a-rather-long-name-indeed": {
        command: process.execPath,
        args: [fixture, "--some-long-flag-to-make-the-row-wide"],
      },
    });
    const t = terminal(b, "narrow", ["servers"], { width: 80 });
    const screen = await until(t.screen, (s) => s.includes("EXIT="));
    const row = screen.split("\n").find((line) => line.startsWith("a-server-with"))!;
    expect(row).toMatch(/\s~\/…\S*json\s/);
    const list = terminal(b, "list", ["config", "list"], { width: 80 });
    const lines = (await until(list.screen, (s) => s.includes("EXIT="))).split("\n");
    expect(lines[0]).toMatch(/^NAME\s+HOST\s+FILE\s+STATE/);
    const entry = lines.find((line) => line.startsWith("a-server-with"))!;
    expect(entry.indexOf("active")).toBe(lines[0]!.indexOf("STATE"));
    expect(entry).toMatch(/\s~\/\S*json\s/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });
});
