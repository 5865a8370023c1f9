// What the CLI loads to start: each command's code when that command runs (dynamic imports in
// main.ts), so `mcp --version` is commander and a few small modules, and `mcp call` never loads
// the gateway (the SDK v2 server, zod), the inspector or the serving code. The loaded modules are
// logged by a module hook (test/fixtures/module-log.mjs) in the CLI's own process.
import { LOG_LEVELS as INSPECTOR_LOG_LEVELS } from "@mcp/inspector";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LOG_LEVELS } from "../src/version.js";
import { fixture, mcp, sandbox, userConfig } from "./helpers.js";

const hook = pathToFileURL(fileURLToPath(new URL("./fixtures/module-log.mjs", import.meta.url))).href;
const box = sandbox();
afterAll(() => box.remove());

/** Runs `mcp <args>` and returns its exit code and the modules it loaded (as paths from the repo, or a package's name). */
async function loaded(
  args: string[],
  log: string,
): Promise<{ code: number | null; stdout: string; modules: string[] }> {
  const file = join(box.home, log);
  const run = await mcp(box, args, { NODE_OPTIONS: `--import ${hook}`, MCP_MODULE_LOG: file });
  const modules = readFileSync(file, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => {
      const path = fileURLToPath(url);
      const dependency = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
      return dependency
        ? dependency[1]!
        : path.slice(path.indexOf("/apps/") >= 0 ? path.indexOf("/apps/") + 1 : path.indexOf("/packages/") + 1);
    });
  return { code: run.code, stdout: run.stdout, modules: [...new Set(modules)] };
}

describe("start-up", () => {
  it("mcp --version loads the entry and commander, nothing of the stack", async () => {
    const run = await loaded(["--version"], "version.log");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    // command-spec.js registers the commands that main.js and the *-program.js modules list (`mcp config`, `registry`,
    // `hosts`, `daemon`, `serve`… and their subcommands; their code loads when one runs); help-text.js (no imports of its own) lays out
    // commander's help to fit the terminal; option-values.js checks option values as they are parsed.
    expect(run.modules.sort()).toEqual(
      [
        "apps/cli/dist/bin.js",
        "apps/cli/dist/command-spec.js",
        "apps/cli/dist/config-program.js",
        "apps/cli/dist/daemon-program.js",
        "apps/cli/dist/help-text.js",
        "apps/cli/dist/main.js",
        "apps/cli/dist/option-values.js",
        "apps/cli/dist/serve-program.js",
        "apps/cli/dist/ui.js",
        "apps/cli/dist/version.js",
        "commander",
        "picocolors",
      ].sort(),
    );
  });

  it("mcp call loads what a call needs: not the gateway, the SDK server, zod, the inspector, the serving code, tables or a progress bar", async () => {
    userConfig(box, { local: { command: process.execPath, args: [fixture] } });
    const run = await loaded(["call", "local.counter"], "call.log");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("call 1 in pid");
    expect(run.modules).toContain("packages/manager/dist/index.js");
    // The arguments are checked against the tool's schema, by @mcp/adapters' validator.
    expect(run.modules).toContain("packages/adapters/dist/validate.js");
    expect(run.modules).toContain("@cfworker/json-schema");
    // No terminal here: no progress bar; a call's result is no table.
    for (const unwanted of [
      "packages/gateway/",
      "packages/inspector/",
      // Through the daemon or not, a call loads the daemon's client only (@mcp/daemon/client), not the daemon.
      "packages/pool/",
      "packages/daemon/dist/server.js",
      "apps/cli/dist/serve/",
      "apps/cli/dist/inspect",
      "@modelcontextprotocol/server",
      "zod",
      "cli-progress",
      "cli-table3",
    ]) {
      expect(
        run.modules.filter((m) => m.startsWith(unwanted)),
        unwanted,
      ).toEqual([]);
    }
  });

  it("mcp --json tools loads no table and no argument checker", async () => {
    userConfig(box, { local: { command: process.execPath, args: [fixture] } });
    const run = await loaded(["--json", "tools"], "tools.log");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: expect.stringContaining("counter") })]),
    );
    for (const unwanted of [
      "cli-table3",
      "cli-progress",
      // The argument checker (@mcp/adapters' index and validator); its small, dependency-free
      // `@mcp/adapters/arguments` (a tool's signature line) is what `tools` reads.
      "packages/adapters/dist/index.js",
      "packages/adapters/dist/validate.js",
      "@cfworker/json-schema",
      "packages/gateway/",
    ])
      expect(
        run.modules.filter((m) => m.startsWith(unwanted)),
        unwanted,
      ).toEqual([]);
  });

  it("the entry's log levels for mcp watch --level are the inspector's", () => {
    expect(LOG_LEVELS).toEqual(INSPECTOR_LOG_LEVELS);
  });
});
