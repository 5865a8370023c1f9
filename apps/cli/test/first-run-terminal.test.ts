// The `mcp` command as a new user meets it (issue 43), in a real terminal: tmux runs it at 80 and
// 120 columns, send-keys types, capture-pane reads.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { everythingEntry, freePort } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { haveTmux, tmuxServer, until } from "./tmux.js";

const { terminal: open, stop } = tmuxServer("mcp-first-run");
const node = process.execPath;
const entry = (name: string): string =>
  createRequire(import.meta.url).resolve(`@modelcontextprotocol/${name}/dist/index.js`);
const boxes: Sandbox[] = [];
afterAll(() => {
  stop();
  for (const b of boxes) b.remove();
});

/** `mcp <args>` in a fresh `width`×40 terminal. */
const terminal = (b: Sandbox, name: string, args: string[], width: number) =>
  open(b, name, args, { width, height: 40 });

describe.skipIf(!haveTmux)("in a real terminal (tmux)", () => {
  let b: Sandbox;
  let closed: number;
  const names = [
    "filesystem",
    "memory",
    "sequential-thinking",
    "everything",
    "crash",
    "local",
    "everything-http",
    "missing",
  ];

  beforeAll(async () => {
    b = sandbox();
    boxes.push(b);
    closed = await freePort();
    const crash = fileURLToPath(new URL("./fixtures/crash.mjs", import.meta.url));
    b.write(join(b.project, ".mcp.json"), {
      mcpServers: {
        filesystem: { command: node, args: [entry("server-filesystem"), b.project] },
        memory: {
          command: node,
          args: [entry("server-memory")],
          env: { MEMORY_FILE_PATH: join(b.home, "memory.jsonl") },
        },
        "sequential-thinking": { command: node, args: [entry("server-sequential-thinking")] },
        everything: { command: node, args: [everythingEntry, "stdio"] },
        crash: { command: node, args: [crash], env: { CRASH_URL: `http://127.0.0.1:${closed}/docs` } },
      },
    });
    b.write(join(b.project, ".cursor", "mcp.json"), {
      mcpServers: {
        local: { command: node, args: [fixture] },
        "everything-http": { url: `http://127.0.0.1:${closed}/mcp` },
      },
    });
    b.write(join(b.home, ".claude.json"), { mcpServers: { missing: { command: "no-such-mcp-server-xyz" } } });
    expect((await mcp(b, ["config", "approve"])).code).toBe(0);
  });

  for (const width of [80, 120]) {
    it(`servers at ${width} columns: one line per server, no name cut, sources as a person names them, errors whole under the table`, async () => {
      const t = terminal(b, `servers-${width}`, ["servers"], width);
      await until(t.screen, (s) => s.includes("EXIT="));
      const screen = t.screen().split("\n");
      const head = screen.findIndex((line) => line.startsWith("NAME "));
      expect(screen[head]).toMatch(/^NAME\s+TRANSPORT\s+SOURCE\s+STATUS\s+TOOLS\s+TIME/);
      const rows = screen.slice(head + 1, head + 1 + names.length);
      // One line each, in the order configured, every name whole, nothing wider than the terminal.
      expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(names);
      for (const row of [screen[head]!, ...rows]) expect(row.trimEnd().length, row).toBeLessThanOrEqual(width);
      expect(screen[head + 1 + names.length]).toBe("");
      const source = (name: string): string | undefined =>
        rows.find((row) => row.startsWith(`${name} `))?.split(/\s+/)[2];
      expect(source("filesystem")).toBe(".mcp.json");
      expect(source("local")).toBe(".cursor/mcp.json");
      expect(source("missing")).toBe("~/.claude.json");
      // Each error whole, once, under the table (as one line the terminal wraps).
      const joined = t
        .joined()
        .split("\n")
        .map((line) => line.trimEnd());
      expect(joined).toContain(`crash: connect ECONNREFUSED 127.0.0.1:${closed} (the process exited with code 1)`);
      expect(joined).toContain(
        'missing: command "no-such-mcp-server-xyz": command not found (ENOENT); is it installed and on PATH?',
      );
      expect(joined).toContain(
        `everything-http: Cannot reach MCP server "everything-http" at http://127.0.0.1:${closed}/mcp: connection refused (ECONNREFUSED); is the server running and listening on that port?`,
      );
      expect(t.joined().split("[cause]: Error: connect ECONNREFUSED")).toHaveLength(2);
      expect(joined).toContain("EXIT=0");
    });
  }

  it("Ctrl-C: 'Cancelled.' replaces the 'Cancelling…' line, on a line of its own", async () => {
    const own = sandbox();
    boxes.push(own);
    userConfig(own, { local: { command: node, args: [fixture] } });
    const t = terminal(own, "cancel", ["call", "wait", "ms=60000"], 100);
    await until(t.screen, (s) => /local\.wait .*\d+\/60000/.test(s));
    t.keys("C-c");
    await until(t.screen, (s) => s.includes("Cancelling… (Ctrl-C again to quit now)") || s.includes("Cancelled."));
    const after = (await until(t.screen, (s) => s.includes("EXIT="))).split("\n").map((line) => line.trimEnd());
    expect(after).toContain("Cancelled.");
    expect(after.filter((line) => line.includes("Cancel"))).toEqual(["Cancelled."]);
    expect(after[after.indexOf("Cancelled.") + 1]).toBe("EXIT=130");
  });

  it("mcp serve --http: Ctrl-C says it stops, and it ends", async () => {
    const own = sandbox();
    boxes.push(own);
    userConfig(own, { everything: { command: node, args: [everythingEntry, "stdio"] } });
    const t = terminal(own, "serve", ["serve", "--http"], 120);
    await until(t.screen, (s) => s.includes("token: "));
    t.keys("C-c");
    const after = (await until(t.screen, (s) => s.includes("EXIT="))).split("\n").map((line) => line.trimEnd());
    const stopping = after.findIndex((line) => line.endsWith("mcp serve: stopping (Ctrl-C; again to quit now)"));
    expect(stopping).toBeGreaterThan(0);
    expect(after.slice(stopping + 1, stopping + 3)).toEqual(["mcp serve: stopped", "EXIT=0"]);
  });
});
