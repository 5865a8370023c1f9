// The CLI's everyday path on a config of real servers from npm, as a new user meets it: the
// filesystem, memory and sequential-thinking servers and server-everything over stdio, one server
// slow to start, server-everything over Streamable HTTP, one command that does not exist, one invalid
// entry. Each stdio server appends its name to a file as it starts, so a test sees what was spawned.
import { readdirSync, readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  everythingEntry,
  startEverything,
  startV2HttpServer,
  type EverythingServer,
  type V2HttpServer,
} from "mcp-test-utils";
import { mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

const resolve = createRequire(import.meta.url).resolve;
const entry = (name: string): string => resolve(`@modelcontextprotocol/${name}/dist/index.js`);

let b: Sandbox;
let web: EverythingServer;
let marks: string;

/** A stdio server that writes its name to the marks file when it starts (then becomes `node <args>`). */
function marked(name: string, args: string[], delay = 0): { command: string; args: string[] } {
  return {
    command: "sh",
    args: [
      "-c",
      `echo ${name} >> "${marks}"; ${delay ? `sleep ${delay}; ` : ""}exec "$0" "$@"`,
      process.execPath,
      ...args,
    ],
  };
}

function started(): string[] {
  return existsSync(marks) ? readFileSync(marks, "utf8").trim().split("\n").filter(Boolean).sort() : [];
}

function forget(): void {
  rmSync(marks, { force: true });
}

/** The tool cache's entries (one file each), as [file, key, entry]. */
type Stored = { version: 2; key: string; entry: { tools: { name: string }[]; savedAt: number; expiresAt: number } };
const cacheFolder = (): string => join(b.home, ".cache", "mcp-client", "tools");
const readCache = (): [string, Stored][] =>
  readdirSync(cacheFolder())
    .filter((name) => name.endsWith(".json"))
    .map((name) => [join(cacheFolder(), name), JSON.parse(readFileSync(join(cacheFolder(), name), "utf8")) as Stored]);
const cachedOf = (server: string): { name: string }[] | undefined =>
  readCache().find(([, stored]) => stored.key.startsWith(`${server}:`))?.[1].entry.tools;

/** Replaces a server's cached tool list with a stale one: a tool it no longer has, none it has now. */
function staleCache(server: string): void {
  for (const [file, stored] of readCache()) {
    if (!stored.key.startsWith(`${server}:`)) continue;
    stored.entry.tools = [{ name: "gone-tool", inputSchema: { type: "object" } } as never];
    writeFileSync(file, JSON.stringify(stored));
  }
}

beforeAll(async () => {
  b = sandbox();
  marks = join(b.home, "started.txt");
  web = await startEverything("streamableHttp");
  userConfig(b, {
    fs: marked("fs", [entry("server-filesystem"), b.project]),
    mem: { ...marked("mem", [entry("server-memory")]), env: { MEMORY_FILE_PATH: join(b.home, "memory.jsonl") } },
    think: marked("think", [entry("server-sequential-thinking")]),
    ev: marked("ev", [everythingEntry, "stdio"]),
    slow: marked("slow", [everythingEntry, "stdio"], 1.5),
    web: { type: "http", url: web.url },
    broken: { command: "no-such-mcp-server-xyz" },
    nocommand: { args: ["--port", "1"] },
  });
});
afterAll(async () => {
  await web.stop();
  b.remove();
});

describe("start only what is asked", () => {
  it("call server.tool, mcp__server__tool and server tool start only that server", async () => {
    forget();
    const dotted = await mcp(b, ["call", "mem.read_graph"]);
    expect(dotted.code, dotted.stderr).toBe(0);
    expect(dotted.stdout).toContain('"entities"');
    expect(started()).toEqual(["mem"]);
    forget();
    const model = await mcp(b, [
      "call",
      "mcp__think__sequentialthinking",
      "thought=one",
      "nextThoughtNeeded:=false",
      "thoughtNumber:=1",
      "totalThoughts:=1",
    ]);
    expect(model.code, model.stderr).toBe(0);
    expect(started()).toEqual(["think"]);
    forget();
    const spaced = await mcp(b, ["call", "ev", "get-sum", "a=1", "b=2"]);
    expect(spaced.stdout).toContain("The sum of 1 and 2 is 3.");
    expect(started()).toEqual(["ev"]);
  });

  it("a bare tool name resolves through the cache and starts only the server that owns it", async () => {
    const listed = await mcp(b, ["tools"]); // every server, live: fills the cache
    expect(listed.stdout).toContain("list_allowed_directories");
    forget();
    const bare = await mcp(b, ["call", "list_allowed_directories"]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain(b.project);
    expect(started()).toEqual(["fs"]);
    // A name several cached lists have starts those servers only, and asks which one.
    forget();
    const several = await mcp(b, ["call", "echo", "message=hi"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(
      'tool "echo" is offered by several servers: ev.echo, slow.echo, web.echo; name one as server.tool',
    );
    expect(started()).toEqual(["ev", "slow"]);
  });

  it("a name nobody is known to have starts every server, then says unknown tool and why some servers could not be asked", async () => {
    forget();
    const run = await mcp(b, ["call", "no_such_tool_anywhere"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown tool "no_such_tool_anywhere"');
    expect(run.stderr).toContain('server "broken" failed to start');
    expect(run.stderr).toContain("command: no-such-mcp-server-xyz");
    expect(run.stderr).toMatch(
      /server "nocommand" has an invalid entry in .*mcp-client\.json: stdio server requires "command" field/,
    );
    expect(started()).toEqual(["ev", "fs", "mem", "slow", "think"]);
  });

  it("tools <server>, ping <server>, prompt server.name and read <server> <uri> start only that server", async () => {
    forget();
    expect((await mcp(b, ["tools", "mem"])).stdout).toContain("read_graph");
    expect((await mcp(b, ["ping", "think"])).code).toBe(0);
    expect((await mcp(b, ["prompt", "ev.simple-prompt"])).code).toBe(0);
    expect(started()).toEqual(["ev", "mem", "think"]);
    forget();
    const read = await mcp(b, ["read", "slow", "demo://resource/static/document/architecture.md"]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain("Architecture");
    expect(started()).toEqual(["slow"]);
  });
});

describe("a cache that never lies", () => {
  it("a server slower than the startup gate shows its live tools, and its live list rewrites the cache entry", async () => {
    await mcp(b, ["tools", "slow"]);
    staleCache("slow");
    const run = await mcp(b, ["tools", "--json"]);
    const slow = (JSON.parse(run.stdout) as { server: string; tool: string }[])
      .filter((t) => t.server === "slow")
      .map((t) => t.tool);
    expect(slow).toContain("echo");
    expect(slow).not.toContain("gone-tool");
    expect(cachedOf("slow")?.map((t) => t.name)).toContain("echo");
  });

  it("a tool the cache has but the server no longer offers is checked against the live list: unknown on that server", async () => {
    staleCache("slow");
    const named = await mcp(b, ["call", "slow.gone-tool"]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('unknown tool "gone-tool" on server "slow"');
    expect(cachedOf("slow")?.map((t) => t.name)).not.toContain("gone-tool");
  });
});

describe("errors that name the real problem", () => {
  it("a tool of a failed, invalid or disabled server says why, never 'unknown tool'", async () => {
    const failed = await mcp(b, ["call", "broken.anything"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      'server "broken" failed to start: command "no-such-mcp-server-xyz": command not found',
    );
    const invalid = await mcp(b, ["call", "nocommand.x"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(
      /server "nocommand" has an invalid entry in .*: stdio server requires "command" field/,
    );
    for (const run of [failed, invalid]) expect(run.stderr).not.toContain("unknown tool");

    const box = sandbox();
    try {
      userConfig(box, { off: { command: process.execPath, args: [entry("server-memory")], enabled: false } });
      const disabled = await mcp(box, ["call", "off.read_graph"]);
      expect(disabled.code).toBe(1);
      expect(disabled.stderr).toMatch(/server "off" is disabled in .*mcp-client\.json/);
    } finally {
      box.remove();
    }
  });

  it("a project server not approved says so with its command line and the command that approves it; config approve and config add approve", async () => {
    const box = sandbox();
    try {
      box.write(join(box.project, ".mcp.json"), {
        mcpServers: {
          repo: {
            command: process.execPath,
            args: [entry("server-memory")],
            env: { MEMORY_FILE_PATH: join(box.home, "m.jsonl") },
          },
        },
      });
      const refused = await mcp(box, ["call", "repo.read_graph"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `server "repo" comes from the project file ${join(box.project, ".mcp.json")} and is not approved yet (it would run: ${process.execPath} ${entry("server-memory")})`,
      );
      expect(refused.stderr).toContain("approve it with: mcp config approve repo");
      expect(refused.stderr).not.toContain("unknown tool");
      const approve = await mcp(box, ["config", "approve", "repo"]);
      expect(approve.stdout).toContain(
        `Approved "repo" for this project: ${process.execPath} ${entry("server-memory")}`,
      );
      expect((await mcp(box, ["call", "repo.read_graph"])).code).toBe(0);

      const added = await mcp(box, [
        "config",
        "add",
        "mine",
        "--stdio",
        `${process.execPath} ${entry("server-sequential-thinking")}`,
      ]);
      expect(added.code, added.stderr).toBe(0);
      const call = await mcp(box, [
        "call",
        "mine.sequentialthinking",
        "thought=x",
        "nextThoughtNeeded:=false",
        "thoughtNumber:=1",
        "totalThoughts:=1",
      ]);
      expect(call.code, call.stderr).toBe(0);
      expect(call.stderr).not.toContain("not approved");
    } finally {
      box.remove();
    }
  });

  it("an HTTP error page is reduced to its text, a 404 says there is no MCP endpoint, and a wrong HTTP type is named", async () => {
    const base = web.url.replace(/\/mcp$/, "");
    const missing = await mcp(b, ["--http", `${base}/nope`, "tools"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("HTTP 404: an HTML page: Error: Cannot POST /nope");
    expect(missing.stderr).not.toContain("<!DOCTYPE");
    expect(missing.stderr).toContain(`there is no MCP endpoint at ${base}/nope`);
    const sse = await mcp(b, ["--sse", web.url, "tools"]);
    expect(sse.code).toBe(1);
    expect(sse.stderr).toContain('it answers like a Streamable HTTP server; try "type": "http"');
    const doctor = await mcp(b, ["--http", `${base}/nope`, "config", "doctor"]);
    expect(doctor.stdout).toContain(`there is no MCP endpoint at ${base}/nope`);
  });
});

describe("ping on a 2026-07-28 server", () => {
  let v2: V2HttpServer;
  beforeAll(async () => {
    v2 = await startV2HttpServer({ legacy: "reject" });
  });
  afterAll(() => v2.stop());

  it("measures a server/discover round trip (2026-07-28 has no ping)", async () => {
    const run = await mcp(b, ["--http", v2.url, "ping", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ server: "http", ms: expect.any(Number), method: "server/discover" }]);
    const human = await mcp(b, ["--http", v2.url, "ping"]);
    expect(human.stdout).toMatch(/^SERVER {2}TIME\s*\nhttp {4}[\d.]+ ms {2}\(server\/discover\)$/m);
  });
});
