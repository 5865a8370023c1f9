#!/usr/bin/env node
// `pnpm mcp <command>`: builds the CLI and what it needs (turbo, cached: instant when nothing
// changed), quietly, then runs it with the given arguments.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const build = spawnSync("npx", ["turbo", "run", "build", "--filter=@mcp/cli...", "--output-logs=errors-only"], { cwd: root, encoding: "utf8", shell: process.platform === "win32" });
if (build.status !== 0) {
  process.stderr.write(build.stdout + build.stderr);
  process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [fileURLToPath(new URL("../apps/cli/dist/bin.js", import.meta.url)), ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
