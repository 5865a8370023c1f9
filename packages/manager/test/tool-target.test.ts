// Which tool a person's words name (splitToolTarget, toolsNamed), the names nearest a misspelt one
// (closestNames), and a header as written on a command line (headerPair): the rules the `mcp` CLI's
// `call`, `prompt`, `read` and `--header` follow, as functions any host can call.
import { describe, expect, it } from "vitest";
import {
  closestNames,
  headerPair,
  splitToolTarget,
  splitUrlTarget,
  toolNameFor,
  toolsNamed,
  type MCPTool,
} from "../src/index.js";

/** A tool record as the manager lists it (only the names matter here; nothing is called). */
function tool(serverName: string, toolName: string): MCPTool {
  return {
    name: toolNameFor(serverName, toolName),
    serverName,
    toolName,
    title: undefined,
    description: undefined,
    inputSchema: { type: "object" },
    outputSchema: undefined,
    annotations: undefined,
    deferred: false,
    call: () => Promise.reject(new Error("not called in these tests")),
  };
}

describe("splitToolTarget", () => {
  const servers = ["a", "a.b", "everything", "my server"];

  it("reads server.tool, the longest server name that fits winning", () => {
    expect(splitToolTarget(["everything.echo", "message=hi"], servers)).toEqual({
      server: "everything",
      name: "echo",
      rest: ["message=hi"],
    });
    expect(splitToolTarget(["a.b.tool"], servers)).toEqual({ server: "a.b", name: "tool", rest: [] });
    expect(splitToolTarget(["a.x"], servers)).toEqual({ server: "a", name: "x", rest: [] });
    // A name that is only "server." names no tool on it: a bare name.
    expect(splitToolTarget(["a."], servers)).toEqual({ server: undefined, name: "a.", rest: [] });
  });

  it("reads a model-facing name as its server's (sanitised prefix), keeping the whole name", () => {
    expect(splitToolTarget(["mcp__my_server__echo", "x=1"], servers)).toEqual({
      server: "my server",
      name: "mcp__my_server__echo",
      rest: ["x=1"],
    });
    // Only the prefix: no server's tool; an unknown prefix: a bare name.
    expect(splitToolTarget(["mcp__everything__"], servers)?.server).toBeUndefined();
    expect(splitToolTarget(["mcp__other__echo"], servers)).toEqual({
      server: undefined,
      name: "mcp__other__echo",
      rest: [],
    });
  });

  it("reads `server tool` only when the second word is not an argument", () => {
    expect(splitToolTarget(["everything", "echo", "message=hi"], servers)).toEqual({
      server: "everything",
      name: "echo",
      rest: ["message=hi"],
    });
    for (const argument of ["message=hi", "n:=1", '{"a":1}', "[1]"])
      expect(splitToolTarget(["everything", argument], servers)).toEqual({
        server: undefined,
        name: "everything",
        rest: [argument],
      });
    // Not a server: a bare tool name and its arguments.
    expect(splitToolTarget(["echo", "hello"], servers)).toEqual({ server: undefined, name: "echo", rest: ["hello"] });
  });

  it("is undefined for no words (the caller says how to name a tool)", () => {
    expect(splitToolTarget([], servers)).toBeUndefined();
    expect(splitToolTarget([""], servers)).toBeUndefined();
  });
});

describe("toolsNamed", () => {
  const tools = [tool("one", "echo"), tool("two", "echo"), tool("two", "add"), tool("one", "mcp__two__add")];

  it("on a named server: its tool by own or model-facing name, at most one", () => {
    expect(toolsNamed(tools, "echo", "two")).toEqual([tools[1]]);
    expect(toolsNamed(tools, "mcp__two__add", "two")).toEqual([tools[2]]);
    expect(toolsNamed(tools, "add", "one")).toEqual([]);
  });

  it("without a server: the model-facing or server.tool name first, else every tool of that own name", () => {
    expect(toolsNamed(tools, "two.echo")).toEqual([tools[1]]);
    expect(toolsNamed(tools, "mcp__one__echo")).toEqual([tools[0]]);
    // "mcp__two__add" is two's model-facing name and one's own name: the model-facing name wins.
    expect(toolsNamed(tools, "mcp__two__add")).toEqual([tools[2]]);
    expect(toolsNamed(tools, "echo")).toEqual([tools[0], tools[1]]);
    expect(toolsNamed(tools, "nothing")).toEqual([]);
  });
});

describe("closestNames", () => {
  it("gives plausible near-misses, nearest first, ties alphabetical, at most count", () => {
    expect(closestNames("ecoh", ["echo", "add", "everything.echo"])).toEqual(["echo"]);
    // Containment (either way, ignoring case) scores as nearest.
    expect(closestNames("ECHO", ["long-echo-tool", "echo2", "zzzz"])).toEqual(["echo2", "long-echo-tool"]);
    expect(closestNames("ab", ["ac", "ad", "ae", "af"], 2)).toEqual(["ac", "ad"]);
    expect(closestNames("completely-different", ["echo", "add"])).toEqual([]);
  });
});

describe("headerPair", () => {
  it("reads NAME=VALUE and Name: value, whichever separator comes first, trimmed", () => {
    expect(headerPair("Authorization=Bearer abc")).toEqual(["Authorization", "Bearer abc"]);
    expect(headerPair("Authorization: Bearer a=b")).toEqual(["Authorization", "Bearer a=b"]);
    expect(headerPair("X-Url=http://h:1/")).toEqual(["X-Url", "http://h:1/"]);
    expect(headerPair(" X-Empty = ")).toEqual(["X-Empty", ""]);
  });

  it("is undefined when the name is not an HTTP token", () => {
    for (const bad of ["no separator", "=value", ": value", "Bad Name=x", "Bad\u0000=x"])
      expect(headerPair(bad)).toBeUndefined();
  });
});

describe("splitUrlTarget", () => {
  it("takes the tool from the next word, or from after the URL's last dot when no word names it", () => {
    expect(splitUrlTarget(["https://host/mcp", "echo", "message=hi"])).toEqual({
      url: "https://host/mcp",
      tool: "echo",
      rest: ["message=hi"],
    });
    expect(splitUrlTarget(["https://host/mcp.echo", "message=hi"])).toEqual({
      url: "https://host/mcp",
      tool: "echo",
      rest: ["message=hi"],
    });
    expect(splitUrlTarget(["HTTP://host/a.b/mcp.get-sum", "{}"])).toMatchObject({
      url: "HTTP://host/a.b/mcp",
      tool: "get-sum",
    });
  });

  it("says no tool for an argument next, a dot only in the host, or a query; nothing for other words", () => {
    expect(splitUrlTarget(["https://host.example/mcp", "a:=1"])).toEqual({
      url: "https://host.example/mcp",
      tool: undefined,
      rest: ["a:=1"],
    });
    expect(splitUrlTarget(["https://host/mcp.echo?x=1"])!.tool).toBeUndefined();
    // An empty fragment: the URL does not end with its last segment.
    expect(splitUrlTarget(["https://host/mcp.echo#"])!.tool).toBeUndefined();
    expect(splitUrlTarget(["everything.echo"])).toBeUndefined();
    expect(splitUrlTarget([])).toBeUndefined();
  });
});
