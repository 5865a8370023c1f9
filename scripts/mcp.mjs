#!/usr/bin/env node
// `pnpm mcp <command>`: builds the CLI and what it needs (turbo, cached: instant when nothing
// changed), quietly, then runs it with the given arguments in the folder you called it from.
// pnpm runs a script in the repository's root and names the caller's folder in INIT_CWD (npm
// does the same), so `pnpm -s -C ~/mcp-client-stack mcp servers` sees the project you are in.
// MCP_CLI_BUILT=1 skips the build check (the CLI is already built).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (process.env["MCP_CLI_BUILT"] !== "1") {
  const build = spawnSync("npx", ["turbo", "run", "build", "--filter=@mcp/cli...", "--output-logs=errors-only"], {
    cwd: root,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  if (build.status !== 0) {
    process.stderr.write(build.stdout + build.stderr);
    process.exit(build.status ?? 1);
  }
}
const cwd = process.env["INIT_CWD"] || process.cwd();
const run = spawnSync(
  process.execPath,
  [fileURLToPath(new URL("../apps/cli/dist/bin.js", import.meta.url)), ...process.argv.slice(2)],
  { stdio: "inherit", cwd },
);
process.exit(run.status ?? 1);
