// splitCommandLine: a command line split into words as a POSIX shell splits it, no shell involved
// (how `mcp --stdio "<command line>"` and `mcp config add --stdio` read a server's command).
import { describe, expect, it } from "vitest";
import { splitCommandLine } from "../src/index.js";

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
