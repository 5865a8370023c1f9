#!/usr/bin/env node
// Installs tools/runtimes/binaries: Node 22 and 24, Bun, Deno (the runtime matrix, and Node 22 for
// the conformance suite's CLI) and mcporter (the CLI benchmarks' peer), about 570 MB from the npm
// registry. Not part of the workspace, so `pnpm install` does not fetch them; `pnpm test:matrix`,
// `pnpm run conformance`, `pnpm bench:cli`, `pnpm bench:daemon` and `pnpm run ci` run this first.
// Runs pnpm (the one running this script, else the pinned version through npx) with the
// project's own lockfile, frozen; a second run with nothing to change takes a second or two.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../tools/runtimes/binaries", import.meta.url));
const execpath = process.env.npm_execpath ?? "";
const pnpm = /pnpm/.test(execpath) ? [process.execPath, execpath] : ["npx", "-y", "pnpm@10.34.9"];
const args = ["install", "--frozen-lockfile", "--prefer-offline", ...process.argv.slice(2)];
const run = spawnSync(pnpm[0], [...pnpm.slice(1), ...args], { cwd: dir, stdio: "inherit" });
if (run.status !== 0) {
  console.error(`runtimes: pnpm ${args.join(" ")} in ${dir} failed`);
  process.exit(run.status ?? 1);
}
