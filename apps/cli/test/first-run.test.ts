// The `mcp` command as a new user meets it (issue 43), piped: real servers from npm in a project's
// `.mcp.json` and `.cursor/mcp.json` and in `~/.claude.json`, one that crashes at start, one whose
// command is missing; what each command prints, once and right, its exit codes and --json shapes.
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { everythingEntry, freePort } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitCommandLine } from "@mcp/manager";
import { fixture, mcp, sandbox, type Run, type Sandbox } from "./helpers.js";

const entry = (name: string): string =>
  createRequire(import.meta.url).resolve(`@modelcontextprotocol/${name}/dist/index.js`);
const crashFixture = fileURLToPath(new URL("./fixtures/crash.mjs", import.meta.url));
const reportFixture = fileURLToPath(new URL("./fixtures/report.mjs", import.meta.url));
const node = process.execPath;

/** How often `needle` occurs in `text`. */
const count = (text: string, needle: string): number => text.split(needle).length - 1;
const both = (run: Run): string => `${run.stdout}\n${run.stderr}`;

let b: Sandbox;
let closed: number;

beforeAll(async () => {
  b = sandbox();
  closed = await freePort(); // nobody listens there: the crash fixture's fetch is refused
  b.write(join(b.project, ".mcp.json"), {
    mcpServers: {
      filesystem: { command: node, args: [entry("server-filesystem"), b.project] },
      memory: {
        command: node,
        args: [entry("server-memory")],
        env: { MEMORY_FILE_PATH: join(b.home, "memory.jsonl") },
      },
      "sequential-thinking": { command: node, args: [entry("server-sequential-thinking")] },
      "everything-stdio": { command: node, args: [everythingEntry, "stdio"] },
      crash: { command: node, args: [crashFixture], env: { CRASH_URL: `http://127.0.0.1:${closed}/docs` } },
    },
  });
  b.write(join(b.project, ".cursor", "mcp.json"), {
    mcpServers: { local: { command: node, args: [fixture] }, report: { command: node, args: [reportFixture] } },
  });
  b.write(join(b.home, ".claude.json"), { mcpServers: { missing: { command: "no-such-mcp-server-xyz" } } });
  expect((await mcp(b, ["config", "approve"])).code).toBe(0);
});
afterAll(() => b.remove());

describe("servers, piped", () => {
  it("whole lines, not padded; each source as a person names it (.mcp.json, .cursor/mcp.json, ~/.claude.json)", async () => {
    const run = await mcp(b, ["servers"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    for (const line of lines) expect(line, "a padded line").toBe(line.trimEnd());
    expect(lines.find((line) => line.startsWith("filesystem "))).toMatch(
      /^filesystem\s+stdio\s+\.mcp\.json\s+connected\s+14\s+\d+ ms$/,
    );
    expect(lines.find((line) => line.startsWith("local "))).toMatch(
      /^local\s+stdio\s+\.cursor\/mcp\.json\s+connected\s+7\s+\d+ ms$/,
    );
    expect(lines.find((line) => line.startsWith("missing "))).toMatch(
      /^missing\s+stdio\s+~\/\.claude\.json\s+failed\s/,
    );
    expect(run.stdout).not.toContain(b.project);
  });

  it("--json: every row has the same keys whatever its status, null where nothing applies", async () => {
    const rows = JSON.parse((await mcp(b, ["servers", "--json"])).stdout) as Record<string, unknown>[];
    const keys = ["connectMs", "lastError", "name", "source", "status", "stderrTail", "tools", "transport"];
    for (const row of rows) expect(Object.keys(row).sort(), String(row["name"])).toEqual(keys);
    const byName = Object.fromEntries(rows.map((row) => [row["name"], row]));
    expect(byName["filesystem"]).toMatchObject({
      status: "connected",
      tools: 14,
      lastError: null,
      stderrTail: null,
      connectMs: expect.any(Number),
    });
    expect(byName["missing"]).toMatchObject({
      status: "failed",
      tools: null,
      connectMs: null,
      lastError: expect.stringContaining("ENOENT"),
    });
    expect(byName["crash"]).toMatchObject({
      status: "failed",
      tools: null,
      stderrTail: expect.stringContaining("ECONNREFUSED"),
    });
  });
});

describe("a crashed server", () => {
  // Lines of Node's report of the crash: each is in the stderr tail once, and is shown at most once
  // (the one that names the cause, once).
  const reported = "[cause]: Error: connect ECONNREFUSED";
  const once = (text: string, what: string): void => {
    expect(count(text, reported), `${what}:\n${text}`).toBe(1);
    for (const line of ["TypeError: fetch failed", `Node.js ${process.version}`])
      expect(count(text, line), `${what}: ${line}\n${text}`).toBeLessThanOrEqual(1);
  };

  it("its stderr appears once in servers -v, tools, ping and call", async () => {
    for (const args of [["servers", "-v"], ["tools", "crash"], ["ping"], ["call", "crash.anything"]]) {
      const run = await mcp(b, args);
      once(both(run), args.join(" "));
      expect(both(run), args.join(" ")).toContain(`connect ECONNREFUSED 127.0.0.1:${closed}`);
    }
  });

  it("config doctor names the cause from its stderr, shows the stderr once, and counts in words (1 tool)", async () => {
    const run = await mcp(b, ["config", "doctor"]);
    expect(run.code).toBe(1);
    const finding = run.stdout.split("\n").find((line) => line.startsWith("✗ crash:"));
    expect(finding).toBe(`✗ crash: connect ECONNREFUSED 127.0.0.1:${closed} (the process exited with code 1)`);
    expect(run.stdout).not.toContain("Transport closed (process exited with code 1)");
    once(run.stdout, "config doctor");
    expect(run.stdout).toMatch(/✓ sequential-thinking: connected in \d+ ms, 1 tool\n/);
    expect(run.stdout).toMatch(/✓ filesystem: connected in \d+ ms, 14 tools\n/);
  });
});

describe("tools: one tool's whole docs", () => {
  it("tools <server>.<tool> shows the description, each parameter (type, required, description, default) and an example call that runs", async () => {
    const run = await mcp(b, ["tools", "local.order"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("local.order");
    expect(lines[1]).toBe("  Places an order (echoes it)");
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}PARAMETER\s+TYPE\s+REQUIRED\s+DEFAULT\s+DESCRIPTION$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}customer\s+object\s+yes\s+The customer$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}customer\.name\s+string\s+yes\s+Who orders$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}customer\.vip\s+boolean\s+no\s*$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}lines\[\]\.qty\s+integer\s+no\s+1\s*$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}speed\s+string\s+no\s+"standard"\s+one of "standard", "express"$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}note\s+string\s+no\s+"none"\s+A note for the courier$/));
    // The example is a call a user can run as it is.
    const example = lines.find((line) => line.startsWith("  Example: mcp call local.order "))!;
    const words = splitCommandLine(example.replace("  Example: mcp ", ""));
    const called = await mcp(b, words);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('"customer"');
    // The same as two words; an unknown one is a usage error with the closest names.
    expect((await mcp(b, ["tools", "local", "order"])).stdout).toBe(run.stdout);
    const unknown = await mcp(b, ["tools", "local.ordr"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown tool "ordr" on server "local"; did you mean "order"?');
  });

  it("tools <server> --verbose documents every tool; --json gives one tool's definition", async () => {
    const run = await mcp(b, ["tools", "local", "--verbose"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("  local.wait\n    Waits, reporting progress\n");
    expect(run.stdout).toMatch(/ {4}ms\s+number\s+yes\n/);
    expect(run.stdout).toContain("    Example: mcp call local.wait ms=1\n");
    expect(run.stdout).toContain("    Example: mcp call local.counter\n");
    const json = JSON.parse((await mcp(b, ["tools", "everything-stdio.get-sum", "--json"])).stdout) as {
      tool: string;
      description: string;
    };
    expect(json).toMatchObject({ tool: "get-sum", description: "Returns the sum of two numbers" });
  });

  it("piped, tools prints each description whole", async () => {
    const run = await mcp(b, ["tools", "everything-stdio"]);
    expect(run.stdout).toContain(
      '  get-annotated-message(messageType: "error" | "success" | "debug", includeImage?: boolean)  Demonstrates how annotations can be used to provide metadata about content.\n',
    );
  });
});

describe("results printed once", () => {
  it("structured content that says what the text says is not printed again (filesystem, memory); content that differs is", async () => {
    b.write(join(b.project, "notes.txt"), "first line\nsecond line\n");
    const read = await mcp(b, ["call", "filesystem.read_text_file", `path=${join(b.project, "notes.txt")}`]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe("first line\nsecond line\n");
    const created = await mcp(b, [
      "call",
      "memory.create_entities",
      'entities:=[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(count(created.stdout, "wrote the first program")).toBe(1);
    expect(created.stdout).not.toContain("structured content:");
    const report = await mcp(b, ["call", "report.summary"]);
    expect(report.stdout).toContain("2 open issues\nstructured content:\n");
    expect(report.stdout).toContain('"title": "tables at 80 columns"');
  });
});

describe("contracts", () => {
  it("usage errors exit 2 on every command: a missing tool, an unknown option, a missing argument", async () => {
    for (const args of [
      ["call"],
      ["call", "local.wait", "--no-such-option"],
      ["config", "add"],
      ["prompt"],
      ["tools", "a", "b", "c"],
    ]) {
      const run = await mcp(b, args);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(2);
    }
  });

  it("call --help has examples and lists the global flags that apply", async () => {
    const help = await mcp(b, ["call", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:\n  mcp call everything.echo message="hello"');
    for (const flag of ["--json", "--timeout <ms>", "-y, --yes", "--http <url>", "-H <NAME=VALUE>"])
      expect(help.stdout).toContain(flag);
  });

  it("config add: the help writes a secret as '${TOKEN}' in single quotes; a literal token is warned about, a ${VAR} is not", async () => {
    const help = await mcp(b, ["config", "add", "--help"]);
    expect(help.stdout).toContain("--header \\\n    'Authorization=Bearer ${TOKEN}'");
    const global = await mcp(b, ["--help"]);
    // Fitted to 80 columns: the command goes on over two lines, the quoted value whole.
    expect(global.stdout).toContain(
      "mcp config add docs --http https://example.com/mcp --header \\\n    'Authorization=Bearer ${TOKEN}'",
    );
    expect(global.stdout).not.toContain('--header "Authorization=Bearer ${TOKEN}"');
    const own = sandbox();
    try {
      const literal = await mcp(own, [
        "config",
        "add",
        "docs",
        "--http",
        "http://127.0.0.1:1/mcp",
        "--header",
        "Authorization=Bearer sk_live_51Hq8bX2eZvKYlo2C9aF3kD7",
      ]);
      expect(literal.code).toBe(0);
      expect(literal.stderr).toContain(
        `the header "Authorization" holds what looks like a secret, now written in ${join(own.project, "mcp-client.json")}`,
      );
      expect(literal.stderr).toContain("--header 'Authorization=Bearer ${TOKEN}'");
      const variable = await mcp(
        own,
        ["config", "add", "docs2", "--http", "http://127.0.0.1:1/mcp", "--header", "Authorization=Bearer ${TOKEN}"],
        { TOKEN: "x" },
      );
      expect(variable.code).toBe(0);
      expect(variable.stderr).not.toContain("looks like a secret");
    } finally {
      own.remove();
    }
  });

  it("ping aligns its columns and writes a failure, with its stderr once, under the table", async () => {
    const run = await mcp(b, ["ping"]);
    expect(run.code).toBe(1);
    const [head, ...rest] = run.stdout.split("\n");
    expect(head).toMatch(/^SERVER\s+TIME$/);
    const rows = rest.slice(0, rest.indexOf(""));
    const column = head!.indexOf("TIME");
    for (const row of rows) expect(row.slice(column - 2, column), row).toBe("  ");
    expect(rows).toContainEqual(expect.stringMatching(/^sequential-thinking\s+\d+(\.\d+)? ms$/));
    expect(rows).toContainEqual(expect.stringMatching(/^crash\s+failed\s+\(see below\)$/));
    const below = rest.slice(rest.indexOf("") + 1).join("\n");
    expect(below).toContain(
      `server "crash" failed to start: connect ECONNREFUSED 127.0.0.1:${closed} (the process exited with code 1)`,
    );
    expect(below).toContain(
      'server "missing" failed to start: command "no-such-mcp-server-xyz": command not found (ENOENT)',
    );
  });
});

describe("without a terminal, project servers not approved", () => {
  it("are named in one short line, and a call of their tool says they were not asked, never 'unknown tool'", async () => {
    const fresh = sandbox();
    try {
      fresh.write(join(fresh.project, ".mcp.json"), {
        mcpServers: Object.fromEntries(
          ["one", "two", "three", "four", "five", "six"].map((name) => [
            name,
            { command: node, args: [everythingEntry, "stdio"] },
          ]),
        ),
      });
      const run = await mcp(fresh, ["call", "echo", "message=hi"]);
      expect(run.code).toBe(1);
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines[0]).toBe(
        "Skipped 6 project servers not approved. Approve: mcp config approve one two three four five six   (or --yes for one run; mcp servers lists them)",
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe(
        'error: tool "echo" may be on a project server, but 6 project servers (one, two, three, four, five, six) are not approved, so they were not asked. Approve: mcp config approve one two three four five six   (or --yes for one run)',
      );
      // Many, or long names: the command that approves them all.
      fresh.write(join(fresh.project, ".mcp.json"), {
        mcpServers: Object.fromEntries(
          ["filesystem-server", "memory-server", "sequential-thinking-server"].map((name) => [
            name,
            { command: node, args: [everythingEntry, "stdio"] },
          ]),
        ),
      });
      const many = await mcp(fresh, ["tools"]);
      expect(many.stderr.split("\n")[0]).toBe(
        "Skipped 3 project servers not approved. Approve: mcp config approve   (or --yes for one run; mcp servers lists them)",
      );
      expect(run.stderr).not.toContain("unknown tool");
    } finally {
      fresh.remove();
    }
  });
});
