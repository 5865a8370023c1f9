// The example agent as a user runs it: no config (so server-everything), the AI SDK's mock model.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const agent = fileURLToPath(new URL("../dist/agent.js", import.meta.url));
const home = mkdtempSync(join(tmpdir(), "mcp-agent-"));
const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function run(...args: string[]): Promise<string> {
  const env = {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
  };
  const { stdout } = await promisify(execFile)(process.execPath, [agent, ...args], { cwd: home, env, timeout: 60_000 });
  return stdout;
}

describe("mcp-agent (mock model)", () => {
  it("does not start a project's servers that no host approved: a repository's .mcp.json runs nothing", async () => {
    // A home of its own: the tool cache this run writes must not change what the other tests see.
    const own = mkdtempSync(join(home, "own-"));
    const project = mkdtempSync(join(own, "project-"));
    const marker = join(project, "marker");
    writeFileSync(
      join(project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          repo: {
            command: "sh",
            args: ["-c", `touch '${marker}'; exec "$0" "$@"`, process.execPath, everything, "stdio"],
          },
        },
      }),
    );
    const env = {
      PATH: process.env["PATH"] ?? "",
      HOME: own,
      XDG_CONFIG_HOME: join(own, ".config"),
      XDG_CACHE_HOME: join(own, ".cache"),
    };
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [agent, "echo", "hello"], {
      cwd: project,
      env,
      timeout: 60_000,
    });
    expect(existsSync(marker)).toBe(false);
    expect(stderr).toContain(`skipped project server "repo" (${join(project, ".mcp.json")}): not approved`);
    // With none of its own, the agent uses the embedded default as with no config.
    expect(stdout).toContain("answer: echo said: Echo: echo hello");
  }, 60_000);

  it("hands every tool to the model, runs its tool call on the MCP server, and gives it the result", async () => {
    const out = await run("echo", "hello");
    expect(out).toMatch(/^13 tools from 1 servers; all of them sent to mock-agent$/m);
    expect(out).toContain("[model] step 1: 13 tool definitions");
    expect(out).toContain('→ mcp__everything__echo {"message":"echo hello"}');
    expect(out).toContain("← Echo: echo hello");
    expect(out).toContain("answer: echo said: Echo: echo hello");
  }, 60_000);

  it("--search: the model sees only search_tools, then the tools its search loaded", async () => {
    const out = await run("add two numbers", "--search");
    expect(out).toContain("[model] step 1: 1 tool definitions");
    expect(out).toContain('→ search_tools {"query":"add two numbers"}');
    expect(out).toMatch(/\[model\] step 2: [2-6] tool definitions/);
    expect(out).toContain("← The sum of 1 and 1 is 2.");
    expect(out).toContain("answer: get-sum said: The sum of 1 and 1 is 2.");
  }, 60_000);
});
