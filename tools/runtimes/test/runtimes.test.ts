// The runtime matrix: Node 22 and 24, Bun and Deno, each binary from its npm package (installed in
// binaries/ by `pnpm run runtimes`, see binaries/package.json). On each: the example (apps/example, stdio, server-everything
// started with that runtime), and src/smoke.mjs (@mcp/manager with a stdio and an HTTP server, a
// reconnect) run from the published layout: the packages packed as `npm publish` would ship them
// and installed with npm into a project of their own, as a user gets them.
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEverything, type EverythingServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const require = createRequire(import.meta.url);
const pkgDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));
// The runtimes, installed by `pnpm run runtimes` (`pnpm test:matrix` does it first), not by the workspace's install.
const binaries = join(repo, "tools/runtimes/binaries/node_modules");

/** Each runtime: how to run a script, as a user would type it. */
const RUNTIMES: Record<string, string[]> = {
  "Node 22": [join(binaries, "node22", "bin", "node")],
  "Node 24": [join(binaries, "node24", "bin", "node")],
  Bun: [join(binaries, "bun", "bin", "bun.exe")],
  // No flag beyond the permissions the stack uses (homedir: the default token and cache folders).
  Deno: [
    join(binaries, "deno", "deno"),
    "run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-net",
    "--allow-run",
    "--allow-sys=homedir",
  ],
};
for (const [name, [binary]] of Object.entries(RUNTIMES))
  if (!existsSync(binary!))
    throw new Error(`${name}: ${binary} is not installed; run \`pnpm run runtimes\` (pnpm test:matrix does)`);
const PACKAGES = ["jsonrpc", "transport-stdio", "transport-http", "oauth", "client", "manager", "lite"];

let layout: string;
let everything: EverythingServer;
const everythingEntry = join(pkgDir("@modelcontextprotocol/server-everything"), "dist", "index.js");

/** The packages as `npm publish` ships them (workspace ranges made versions), installed by npm into a fresh project. */
function publishedLayout(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-layout-"));
  const versions = new Map<string, string>();
  const manifests = PACKAGES.map(
    (name) =>
      JSON.parse(readFileSync(join(repo, "packages", name, "package.json"), "utf8")) as Record<string, unknown> & {
        name: string;
        version: string;
        files?: string[];
      },
  );
  for (const m of manifests) versions.set(m.name, m.version);
  const tarballs: Record<string, string> = {};
  for (const [index, manifest] of manifests.entries()) {
    const source = join(repo, "packages", PACKAGES[index]!);
    const staged = join(dir, "staged", PACKAGES[index]!);
    mkdirSync(staged, { recursive: true });
    for (const file of manifest.files ?? ["dist"])
      if (existsSync(join(source, file))) cpSync(join(source, file), join(staged, file), { recursive: true });
    if (existsSync(join(source, "README.md"))) copyFileSync(join(source, "README.md"), join(staged, "README.md"));
    const deps = { ...(manifest["dependencies"] as Record<string, string> | undefined) };
    for (const [dep, range] of Object.entries(deps)) if (range.startsWith("workspace:")) deps[dep] = versions.get(dep)!;
    writeFileSync(
      join(staged, "package.json"),
      JSON.stringify({ ...manifest, dependencies: deps, devDependencies: undefined, scripts: undefined }, null, 2),
    );
    const file = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: staged, encoding: "utf8" })
      .trim()
      .split("\n")
      .pop()!;
    tarballs[manifest.name] = `file:./${file}`;
  }
  // `overrides` keep npm from asking the registry for our own packages' names.
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      { name: "layout", private: true, type: "module", dependencies: tarballs, overrides: tarballs },
      null,
      2,
    ),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "pipe" });
  copyFileSync(fileURLToPath(new URL("../src/smoke.mjs", import.meta.url)), join(dir, "smoke.mjs"));
  return dir;
}

function run(
  command: string[],
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command[0]!,
      [...command.slice(1), ...args],
      { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  [everything, layout] = await Promise.all([
    startEverything("streamableHttp"),
    Promise.resolve().then(publishedLayout),
  ]);
}, 180_000);
afterAll(async () => {
  await everything?.stop();
  if (layout) rmSync(layout, { recursive: true, force: true });
});

for (const [runtime, command] of Object.entries(RUNTIMES)) {
  describe(runtime, () => {
    it("runs the example: stdio, tools, a call, progress", async () => {
      const { code, stdout, stderr } = await run(
        command,
        [join(repo, "apps/example/dist/index.js")],
        join(repo, "apps/example"),
      );
      expect(stderr).not.toMatch(/Error/);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Connected to mcp-servers\/everything .* \(protocol 2025-11-25\)/);
      expect(stdout).toContain("echo → Echo: Hello from @mcp/client");
      expect(stdout).toMatch(/4\/4 after \d+ ms/);
    }, 60_000);

    it("runs @mcp/manager from the published layout: stdio and HTTP, a reconnect, then exits by itself", async () => {
      const { code, stdout, stderr } = await run(command, ["smoke.mjs", everythingEntry, everything.url], layout);
      expect(code, stderr).toBe(0); // exited on its own: nothing left running (the 60 s timeout would kill it)
      const result = JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
      expect(result).toMatchObject({ errors: {}, reconnected: true });
      expect(result["failed"]).toBeUndefined();
      for (const key of ["stdio", "http", "afterReconnect"])
        expect(result[key]).toBe(`Echo: ${String(result["runtime"])}`);
      const handles = result["handles"] as { visible: boolean; left?: string[]; why?: string };
      // A runtime whose handle list cannot see a timer says so; a leak check there would pass for nothing.
      if (handles.visible) expect(handles.left).toEqual([]);
      else {
        expect(handles.why).toMatch(/process\.getActiveResourcesInfo/);
        console.info(`${runtime}: no handle-level leak check (${handles.why}); only "exits by itself" is checked`);
      }
    }, 60_000);
  });
}
