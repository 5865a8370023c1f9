// The root test config: every package's project, each test file in one tier (scripts/test-tiers.mjs),
// and the workspace's packages resolved from their sources (scripts/vitest-source.mjs), so a test
// runs today's `src` without a build. `vitest run --mode <tier>` runs one tier (`pnpm test` is
// `--mode unit`); without a mode (or `--mode all`) every tier runs, as `pnpm run ci` does, and a
// targeted `vitest run <file>` finds the file whatever its tier.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { PROJECT_TIERS, TIERS, tierOf } from "./scripts/test-tiers.mjs";
import { sourcePackages } from "./scripts/vitest-source.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** The folders that hold a project: each package, app and tool with tests, and scripts/. */
function projectDirs(): string[] {
  const dirs = [];
  for (const group of ["packages", "apps", "tools"])
    for (const name of readdirSync(join(root, group))) dirs.push(join(root, group, name));
  dirs.push(join(root, "scripts"));
  return dirs.filter((dir) => configOf(dir) !== undefined || existsSync(join(dir, "test")));
}

/** A folder's own Vitest config file, if it has one. */
function configOf(dir: string): string | undefined {
  const name = readdirSync(dir).find((file) => /^vitest\.config\.[cm]?[jt]s$/.test(file));
  return name === undefined ? undefined : join(dir, name);
}

/** Every test file under `dir` (node_modules and dist aside), relative to the repository root. */
function testFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist") continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TEST_FILE.test(entry.name)) found.push(relative(root, path).split("\\").join("/"));
    }
  };
  walk(dir);
  return found;
}

export default defineConfig(({ mode }) => {
  const tier = mode === "test" || mode === "all" ? undefined : mode;
  if (tier !== undefined && !TIERS.includes(tier))
    throw new Error(`vitest --mode ${mode}: no such tier; the tiers are ${TIERS.join(", ")}, or all`);
  const plugins = [sourcePackages(root)];
  const projects: TestProjectInlineConfiguration[] = [];
  for (const dir of projectDirs()) {
    const files = testFiles(dir);
    const elsewhere = tier === undefined ? [] : files.filter((file) => tierOf(file) !== tier);
    if (files.length === 0 || elsewhere.length === files.length) continue;
    const exclude = [...configDefaults.exclude, ...elsewhere.map((file) => relative(dir, join(root, file)))];
    const config = configOf(dir);
    if (config !== undefined) projects.push({ extends: config, root: dir, plugins, test: { exclude } });
    else
      projects.push({
        root: dir,
        plugins,
        test: { name: (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name, exclude },
      });
  }
  // The gateway's suites once more with its fast path off: every request through the SDK server
  // (packages/gateway/test/app.ts reads the variable), so both paths pass the same tests. In its
  // own tier, only the gateway's unit files (one that needs the runtimes, say, runs so in `ci`).
  if (tier === undefined || tier === PROJECT_TIERS["gateway-sdk-path"]) {
    const gateway = join(root, "packages/gateway");
    const exclude = [
      ...configDefaults.exclude,
      "test/fast.test.ts",
      "test/session-fast.test.ts",
      "test/session-fast-asking.test.ts",
      "test/readme-example.test.ts",
    ];
    if (tier !== undefined)
      for (const file of testFiles(gateway))
        if (tierOf(file) !== "unit") exclude.push(relative(gateway, join(root, file)));
    projects.push({
      extends: join(gateway, "vitest.config.ts"),
      root: gateway,
      plugins,
      test: { name: "gateway-sdk-path", exclude, env: { MCP_GATEWAY_TEST_PATH: "sdk" } },
    });
  }
  // Most of the unit tier's time is spent waiting on real child processes and sockets, not on its own
  // CPU: Vitest's default of one worker per core less one (one worker on a 2-core machine) leaves the
  // cores idle while a test waits. The unit tier runs one worker more than there are cores.
  const maxWorkers = tier === "unit" ? availableParallelism() + 1 : undefined;
  return { test: { projects, testTimeout: 30_000, hookTimeout: 30_000, ...(maxWorkers ? { maxWorkers } : {}) } };
});
