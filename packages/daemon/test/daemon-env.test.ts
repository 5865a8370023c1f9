// The environment of a daemon a shim starts: a real child process started with it sees the shim's
// variables but for the entry's own (a token, its NODE_OPTIONS), and keeps those that decide where
// the daemon lives even when the entry names them.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { daemonEnvFor } from "../src/client.js";

describe("daemonEnvFor", () => {
  it("leaves out the entry's own variables, but for those that decide where the daemon lives", () => {
    const shim = {
      PATH: process.env["PATH"],
      HOME: "/home/someone",
      XDG_CACHE_HOME: "/home/someone/.cache",
      MCP_DAEMON_SOCKET: "/run/someone/d.sock",
      TMPDIR: "/tmp/someone",
      API_TOKEN: "secret-of-one-server",
      NODE_OPTIONS: "--require ./hook.js",
      EDITOR: "vi",
    };
    const entry = ["API_TOKEN", "NODE_OPTIONS", "HOME", "XDG_CACHE_HOME", "MCP_DAEMON_SOCKET", "TMPDIR"];
    const seen = JSON.parse(
      execFileSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.env))"], {
        env: daemonEnvFor(entry, shim),
        encoding: "utf8",
      }),
    ) as Record<string, string>;
    expect(seen).not.toHaveProperty("API_TOKEN");
    expect(seen).not.toHaveProperty("NODE_OPTIONS");
    expect(seen).toMatchObject({
      HOME: "/home/someone",
      XDG_CACHE_HOME: "/home/someone/.cache",
      MCP_DAEMON_SOCKET: "/run/someone/d.sock",
      TMPDIR: "/tmp/someone",
      EDITOR: "vi",
    });
    // With no entry variables, everything is kept.
    expect(daemonEnvFor([], shim)).toEqual(shim);
  });
});
