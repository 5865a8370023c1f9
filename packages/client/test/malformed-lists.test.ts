// A server's list items are untrusted input: malformed ones are dropped and named in one warning
// (onError, with the server and the method), the good ones kept, in both eras. The server is a real
// child process that sends what no SDK server can be made to send (fixtures/malformed-lists.mjs).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  callTool,
  connectToServer,
  InvalidResultError,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
  type MCPServerConfig,
  type MCPServerConnection,
} from "../src/index.js";

const script = fileURLToPath(new URL("./fixtures/malformed-lists.mjs", import.meta.url));

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    child.stdin?.end();
    await once(child, "exit");
  }
});

async function httpServer(): Promise<string> {
  const child = spawn(process.execPath, [script, "http"], { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  return (JSON.parse(line) as { url: string }).url;
}

const eras: { label: string; config: () => Promise<MCPServerConfig> }[] = [
  {
    label: "2025 era over stdio",
    config: async () => ({ command: process.execPath, args: [script, "stdio"], timeout: 10_000 }),
  },
  { label: "2026-07-28 over HTTP", config: async () => ({ type: "http", url: await httpServer(), timeout: 10_000 }) },
];

describe.each(eras)("malformed list items ($label)", ({ config }) => {
  it("drops them, names them in one warning per list with the server, and keeps the good ones", async () => {
    const warnings: Error[] = [];
    const conn: MCPServerConnection = await connectToServer("odd", await config(), {
      onError: (error) => warnings.push(error),
    });
    try {
      expect((await listTools(conn)).map((t) => t.name)).toEqual(["good-tool"]);
      expect((await listPrompts(conn)).map((p) => p.name)).toEqual(["good-prompt"]);
      expect((await listResources(conn)).map((r) => r.name)).toEqual(["good-resource"]);
      expect((await listResourceTemplates(conn)).map((r) => r.name)).toEqual(["good-template"]);
      expect(warnings).toHaveLength(4);
      for (const warning of warnings) {
        expect(InvalidResultError.isInstance(warning)).toBe(true);
        expect(warning).toMatchObject({ code: "invalid_message" });
      }
      const [tools, prompts, resources, templates] = warnings.map((w) => w.message);
      expect(tools).toBe(
        'MCP server "odd" sent 5 malformed items in tools/list, dropped (the other 1 kept): #0: null, not an object; #1: number 42, not an object; ' +
          '#2: "name" must be a non-empty string; #3 ("string-schema"): "inputSchema" must be an object; #4 ("no-schema"): "inputSchema" must be an object',
      );
      expect(prompts).toBe(
        'MCP server "odd" sent 4 malformed items in prompts/list, dropped (the other 1 kept): #0: null, not an object; #1: the string "p", not an object; ' +
          '#2: "name" must be a non-empty string; #3 ("bad-args"): "arguments" must be a list of objects with a string "name"',
      );
      expect(resources).toBe(
        'MCP server "odd" sent 3 malformed items in resources/list, dropped (the other 1 kept): #0: null, not an object; #1 ("r"): "uri" must be a non-empty string; #2: "name" must be a non-empty string',
      );
      expect(templates).toBe(
        'MCP server "odd" sent 2 malformed items in resources/templates/list, dropped (the other 1 kept): #0: a list, not an object; #1 ("t"): "uriTemplate" must be a non-empty string',
      );
      // The connection goes on: a call after the listing reaches the server (which refuses the method).
      await expect(callTool(conn, "good-tool", { a: "x" })).rejects.toMatchObject({ code: -32601 });
    } finally {
      await conn.transport.close();
    }
  });

  it("lists without onError: the bad items are dropped silently, nothing throws", async () => {
    const conn = await connectToServer("odd", await config());
    try {
      expect((await listTools(conn)).map((t) => t.name)).toEqual(["good-tool"]);
    } finally {
      await conn.transport.close();
    }
  });
});
