// The light shim (shim/mcp-shim) and tracing a host's environment brings: a BASH_ENV file runs before
// the script's first line, and a trap it sets (DEBUG before every command, CHLD after every child)
// can turn xtrace back on after the script turned it off, printing the ticket, the proof and the
// pairing secret on the host's stderr (often a log file). Real processes: the built CLI, bash, the
// daemon and server-everything.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "./helpers.js";
import { initialize, poolSandbox, script } from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

describe.skipIf(process.platform === "win32")("the light shim and tracing from the host's environment", () => {
  const sandboxNow = poolSandbox();
  let box: Sandbox;
  beforeEach(() => (box = sandboxNow()));

  it.each([
    ["a DEBUG trap", "trap 'set -x' DEBUG"],
    ["a CHLD trap", "trap 'set -x' CHLD"],
  ])(
    "a BASH_ENV with %s prints no ticket, proof or pairing secret on the host's stderr",
    async (_name, line) => {
      const bashEnv = join(box.home, "bash-env");
      writeFileSync(bashEnv, `${line}\n`);
      const child = spawn(shimBash, [script, "daemon", "stdio", "ev"], {
        cwd: box.project,
        env: { ...box.env, BASH_ENV: bashEnv, SHELLOPTS: "xtrace" },
        stdio: "pipe",
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.stdin.write(initialize(1));
      await expect.poll(() => out, { timeout: 30_000 }).toContain('"id":1');
      const exit = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exit;
      // The trace did run (the BASH_ENV file was read), and nothing 43 base64url characters long is in it.
      expect(err).toContain("+ ");
      expect(err).not.toMatch(/[A-Za-z0-9_-]{43}/);
    },
    60_000,
  );
});
