// splitCommandLine: a command line split into words as a POSIX shell splits it, no shell involved
// (how `mcp --stdio "<command line>"` and `mcp config add --stdio` read a server's command);
// commandOnPath: whether a command is there to run (`mcp config doctor`'s "not installed").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandOnPath, splitCommandLine } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-on-path-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("commandOnPath", () => {
  it("a name in a folder of PATH (with PATHEXT's extensions on Windows), or a path that exists", () => {
    const [a, b] = [join(root, "a"), join(root, "b")];
    for (const dir of [a, b]) mkdirSync(dir);
    writeFileSync(join(b, "my-server"), "");
    writeFileSync(join(b, "win-server.CMD"), "");
    const env = { PATH: [a, b].join(delimiter) };
    expect(commandOnPath("my-server", env, "linux")).toBe(true);
    expect(commandOnPath("other-server", env, "linux")).toBe(false);
    expect(commandOnPath("my-server", { PATH: a }, "linux")).toBe(false);
    expect(commandOnPath("my-server", {}, "linux")).toBe(false);
    expect(commandOnPath("win-server", env, "linux")).toBe(false);
    expect(commandOnPath("win-server", env, "win32")).toBe(true);
    expect(commandOnPath("win-server", { ...env, PATHEXT: ".EXE" }, "win32")).toBe(false);
    // A path is looked at where it is, never on PATH.
    expect(commandOnPath(join(b, "my-server"), {}, "linux")).toBe(true);
    expect(commandOnPath(join(a, "my-server"), env, "linux")).toBe(false);
    expect(commandOnPath("b/my-server", env, "linux")).toBe(false);
  });
});

describe("splitCommandLine", () => {
  it("splits on whitespace; quotes group; backslash escapes; nothing is expanded", () => {
    expect(splitCommandLine("npx -y  @modelcontextprotocol/server-everything\tstdio")).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-everything",
      "stdio",
    ]);
    expect(splitCommandLine(`node 'my server.js' "a \\"b\\" c" x\\ y 'it''s' $HOME ~ *`)).toEqual([
      "node",
      "my server.js",
      'a "b" c',
      "x y",
      "its",
      "$HOME",
      "~",
      "*",
    ]);
    // Inside single quotes a backslash is itself; an empty quoted word is a word.
    expect(splitCommandLine(`echo 'a\\b' "" ''`)).toEqual(["echo", "a\\b", "", ""]);
    expect(splitCommandLine("   ")).toEqual([]);
  });

  it("an unclosed quote is a SyntaxError naming the quote and the line", () => {
    expect(() => splitCommandLine(`node "server.js`)).toThrow(
      new SyntaxError(`unterminated " quote in "node \\"server.js"`),
    );
    expect(() => splitCommandLine("node 'x")).toThrow(SyntaxError);
  });
});
