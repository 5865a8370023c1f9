// shellValuesFor: the calling shell's values of the variables config files name, so a daemon that
// reads the same files expands them as the shell did (real files in a temp folder).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shellValuesFor } from "../src/client.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-shell-values-"));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("shellValuesFor", () => {
  it("reads ${VAR}, ${env:VAR} and ${VAR:-default} names from every file; only those set, nothing else of the shell", () => {
    const a = file(
      "mcp-client.json",
      '{ "servers": { "api": { "type": "http", "url": "${API_URL}", "headers": { "X": "${env:TOKEN}" } } } }',
    );
    const b = file(".mcp.json", '{ "mcpServers": { "s": { "command": "${BIN:-node}", "args": ["${UNSET}"] } } }');
    const shell = { API_URL: "https://api.example", TOKEN: "t", BIN: "/bin/x", OTHER: "not named" };
    expect(shellValuesFor([a, b, a], shell)).toEqual({ API_URL: "https://api.example", TOKEN: "t", BIN: "/bin/x" });
  });

  it("skips a file that is gone, and $VAR or a malformed ${1X} is no variable", () => {
    const a = file("x.json", '{ "a": "$HOME", "b": "${1X}", "c": "${OK}" }');
    expect(shellValuesFor([join(a, "..", "gone.json"), a], { HOME: "/h", OK: "yes" })).toEqual({ OK: "yes" });
  });

  it("reads the process environment by default", () => {
    const name = `MCP_SHELL_VALUES_${process.pid}`;
    const a = file("x.json", `"\${${name}}"`);
    process.env[name] = "from-process";
    try {
      expect(shellValuesFor([a])).toEqual({ [name]: "from-process" });
    } finally {
      delete process.env[name];
    }
  });
});
