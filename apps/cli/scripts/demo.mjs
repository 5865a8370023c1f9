#!/usr/bin/env node
// The README's first command ends here: the built `mcp` CLI on its embedded default server, as a new
// user meets it — an empty home and project, so no config is found. Four commands: the servers
// table, the tools, an echo call, and a long-running tool with its progress bar.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const home = mkdtempSync(join(tmpdir(), "mcp-demo-"));
const steps = [
  ["servers"],
  ["tools"],
  ["call", "echo", "message=Hello from the mcp CLI"],
  ["call", "trigger-long-running-operation", "duration=3", "steps=6"],
];
let status = 0;
try {
  for (const args of steps) {
    process.stdout.write(
      `\n\x1b[1m$ mcp ${args.map((a) => (a.includes(" ") ? JSON.stringify(a) : a)).join(" ")}\x1b[0m\n`,
    );
    const run = spawnSync(process.execPath, [bin, ...args], {
      stdio: "inherit",
      cwd: home,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, ".cache") },
    });
    if (run.status !== 0) {
      status = run.status ?? 1;
      break;
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
process.stdout.write(
  status === 0
    ? "\nTry it on your own servers: pnpm mcp servers   (or: pnpm mcp --help)\nEvery server in the browser: pnpm mcp inspect\n"
    : "",
);
process.exit(status);
