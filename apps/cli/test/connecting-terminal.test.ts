// While servers connect, a terminal shows one transient line saying which are still awaited
// (issue 58: 12–40 s of a blank screen with many servers); into a pipe, nothing. tmux runs the
// built CLI; a server that starts only once the test creates ./go holds the wait open, so the line
// is read while it waits, with no clock involved.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandboxes, userConfig, type Sandbox } from "./helpers.js";
import { haveTmux, tmuxServer, until } from "./tmux.js";

const { terminal, stop } = tmuxServer("mcp-connecting");
const { box, removeAll } = sandboxes();
afterAll(() => {
  stop();
  removeAll();
});

/** A quick server and one that waits for ./go in the project before it starts. */
function configure(b: Sandbox): void {
  userConfig(b, {
    quick: { command: process.execPath, args: [fixture] },
    held: { command: "sh", args: ["-c", `while [ ! -f "${join(b.project, "go")}" ]; do sleep 0.05; done; exec "$0" "$1"`, process.execPath, fixture], timeout: 60_000 },
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
