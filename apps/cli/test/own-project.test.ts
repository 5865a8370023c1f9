// What a new user meets running `mcp` on their own project (issue 58): the README's way to run it
// from any folder, its --json into a pipe, many servers, `config add` of a name already there,
// `codegen --out <folder>`. The built CLI as a subprocess; the fixture server on the official SDK.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, mcp, run, sandboxes, userConfig } from "./helpers.js";

const { box, removeAll } = sandboxes();
afterAll(removeAll);
const repo = fileURLToPath(new URL("../../..", import.meta.url));

describe("mcp on your own project", () => {
  it("`npx -y pnpm@10.34.9 -s -C <repo> mcp …` from the project's folder (the README's line) sees that folder's configs, and its --json parses whole", async () => {
    const b = box();
    b.write(join(b.project, ".mcp.json"), {
      mcpServers: { fromdotmcp: { command: process.execPath, args: [fixture] } },
    });
    b.write(join(b.project, "mcp-client.json"), {
      servers: { fromours: { command: process.execPath, args: [fixture] } },
    });
    // pnpm 10.34.9 comes from the real npm cache, where the set-up's `npx -y pnpm@10.34.9` put it,
    // offline: nothing leaves the machine. MCP_CLI_BUILT: the suite runs on a built CLI.
    const env = {
      ...b.env,
      npm_config_cache: process.env["npm_config_cache"] ?? join(homedir(), ".npm"),
      npm_config_offline: "true",
      MCP_CLI_BUILT: "1",
      npm_config_update_notifier: "false",
    };
    const listed = await run(
      ["npx", "-y", "pnpm@10.34.9", "-s", "-C", repo, "mcp", "--json", "--yes", "servers"],
      b.project,
      env,
    );
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as { name: string; source: string; status: string }[];
    expect(rows.map((r) => [r.name, r.source, r.status]).sort()).toEqual([
      ["fromdotmcp", join(b.project, ".mcp.json"), "connected"],
      ["fromours", join(b.project, "mcp-client.json"), "connected"],
    ]);
  });

  it("`mcp call nosuchtool` with 12 servers says the tool is unknown, and no MaxListenersExceededWarning", async () => {
    const b = box();
    userConfig(
      b,
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`srv${i + 1}`, { command: process.execPath, args: [fixture] }]),
      ),
    );
    const result = await mcp(b, ["call", "nosuchtool"], { MCP_NO_DAEMON: "1" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown tool "nosuchtool"');
    expect(result.stderr).not.toContain("MaxListenersExceededWarning");
  });

  it("`config add` of a name already in the file refuses, leaving the file as it was; with --replace it says Replaced", async () => {
    const b = box();
    const file = join(b.project, "mcp-client.json");
    expect((await mcp(b, ["config", "add", "docs", "--http", "http://127.0.0.1:1/mcp"])).stdout).toContain(
      'Added "docs" to',
    );
    const before = readFileSync(file, "utf8");
    const again = await mcp(b, ["config", "add", "docs", "--stdio", "node other.mjs"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already has "docs": http http://127.0.0.1:1/mcp');
    expect(again.stderr).toContain("--replace");
    expect(readFileSync(file, "utf8")).toBe(before);
    const replaced = await mcp(b, ["config", "add", "docs", "--stdio", "node other.mjs", "--replace"]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toContain('Replaced "docs" in');
    expect((JSON.parse(readFileSync(file, "utf8")) as { servers: Record<string, unknown> }).servers["docs"]).toEqual({
      command: "node",
      args: ["other.mjs"],
    });
  });

  it("`codegen <server> --out <folder>` writes <folder>/<server>.ts", async () => {
    const b = box();
    userConfig(b, { fixture: { command: process.execPath, args: [fixture] } });
    const folder = join(b.project, "generated");
    mkdirSync(folder);
    const result = await mcp(b, ["codegen", "fixture", "--out", folder]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(folder, "fixture.ts"))).toBe(true);
    expect(readFileSync(join(folder, "fixture.ts"), "utf8")).toContain("createFixtureClient");
  });

  it("help fits 80 columns into a pipe: mcp --help and each command's", async () => {
    const b = box();
    for (const command of [
      [],
      ["call"],
      ["tools"],
      ["config", "add"],
      ["serve"],
      ["replay"],
      ["daemon"],
      ["codegen"],
      ["registry", "add"],
    ]) {
      const help = await mcp(b, [...command, "--help"]);
      expect(help.code).toBe(0);
      const wide = help.stdout.split("\n").filter((line) => line.length > 80);
      expect(wide, `mcp ${command.join(" ")} --help`).toEqual([]);
    }
  });

  it("servers --exit-code exits 1 when a server is not connected, for health checks (without it, 0)", async () => {
    const b = box();
    userConfig(b, { good: { command: process.execPath, args: [fixture] } });
    expect((await mcp(b, ["servers", "--exit-code"])).code).toBe(0);
    userConfig(b, {
      good: { command: process.execPath, args: [fixture] },
      missing: { command: "no-such-mcp-server-58" },
    });
    const failing = await mcp(b, ["servers", "--exit-code", "--json"]);
    expect(failing.code).toBe(1);
    expect((JSON.parse(failing.stdout) as { name: string; status: string }[]).map((r) => [r.name, r.status])).toEqual([
      ["good", "connected"],
      ["missing", "failed"],
    ]);
    expect((await mcp(b, ["servers"])).code).toBe(0);
  });
});
