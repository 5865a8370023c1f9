// Record and replay: a session with server-everything recorded through the library (the `record`
// option) and the CLI (`mcp call --record`), then served by `mcp replay` over stdio and HTTP and
// driven again through the library and the CLI: the same results, progress included.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  callTool,
  connectToServer,
  disconnectServer,
  getPrompt,
  listPrompts,
  listTools,
  readResource,
  type MCPServerConfig,
  type MCPServerConnection,
  type RecordedMessage,
} from "@mcp/client";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, mcp, run, sandbox, startListening, type Sandbox } from "./helpers.js";

const RESOURCE = "demo://resource/static/document/architecture.md";
// A URL with a password and a token: what a recording must not keep, and what a replay must still match.
const SECRET_URL = "https://ada:hunter2@example.com/hook?token=s3cr3t-value";

/** The same work on any connection: tools, a call, a call with progress, a resource, a prompt, a call with a secret. */
async function work(conn: MCPServerConnection<never>) {
  const progress: unknown[] = [];
  const tools = (await listTools(conn)).map((tool) => tool.name);
  const sum = await callTool(conn, "get-sum", { a: 1, b: 2 });
  const long = await callTool(
    conn,
    "trigger-long-running-operation",
    { duration: 1, steps: 3 },
    { onProgress: (p) => progress.push(p) },
  );
  const resource = await readResource(conn, RESOURCE);
  const prompts = (await listPrompts(conn)).map((p) => p.name);
  const prompt = await getPrompt(conn, "args-prompt", { city: "Paris" });
  const echo = await callTool(conn, "echo", { message: SECRET_URL });
  return { tools, sum, long, progress, resource, prompts, prompt, echo };
}

async function connect(
  config: MCPServerConfig,
  record?: (entry: RecordedMessage) => void,
): Promise<MCPServerConnection<never>> {
  return (await connectToServer("everything", config, {
    clientInfo: { name: "replay-test", version: "1.0.0" },
    ...(record ? { record } : {}),
  })) as MCPServerConnection<never>;
}

/** `mcp replay <file> --http` on a free port; resolves with its URL once it says it listens. */
async function replayHttp(
  box: Sandbox,
  file: string,
): Promise<{ url: string; child: ChildProcess; stderr: () => string; stop: () => Promise<void> }> {
  const { line, ...started } = await startListening(box, ["replay", file, "--http"], {}, "mcp replay");
  return { url: line["url"] as string, ...started };
}

const everything: MCPServerConfig = { command: process.execPath, args: [everythingEntry, "stdio"] };

describe("record and replay", () => {
  let box: Sandbox;
  let file: string;
  let live: Awaited<ReturnType<typeof work>>;
  let entries: RecordedMessage[];

  beforeAll(async () => {
    box = sandbox();
    file = join(box.project, "session.ndjson");
    entries = [];
    const conn = await connect(everything, (entry) => entries.push(entry));
    try {
      live = await work(conn);
    } finally {
      await disconnectServer(conn);
    }
    writeFileSync(file, entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n");
  });
  afterAll(() => box.remove());

  it("records every message both ways, with time, direction and server, secrets redacted", () => {
    expect(live.progress).toHaveLength(3);
    expect(entries.every((e) => e.server === "everything" && !Number.isNaN(Date.parse(e.t)))).toBe(true);
    const methods = entries.filter((e) => e.from === "client").map((e) => (e.message as { method: string }).method);
    expect(methods).toEqual(
      expect.arrayContaining([
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/call",
        "resources/read",
        "prompts/get",
      ]),
    );
    const fromServer = entries
      .filter((e) => e.from === "server")
      .map((e) => e.message as { method?: string; id?: number });
    expect(fromServer.filter((m) => m.method === "notifications/progress")).toHaveLength(3);
    // Each client request has its response recorded, under the same id.
    for (const e of entries.filter((e) => e.from === "client" && "id" in (e.message as object)))
      expect(fromServer.some((m) => m.id === (e.message as { id: number }).id && m.method === undefined)).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("s3cr3t-value");
    expect(text).toContain("example.com/hook");
    // The live server did see the secret: the recording alone hides it.
    expect(JSON.stringify(live.echo)).toContain("hunter2");
  });

  it("replays over stdio to the library: the same results and progress", async () => {
    const conn = await connect({
      command: process.execPath,
      args: [bin, "replay", file, "--stdio"],
      cwd: box.project,
      env: box.env,
    });
    try {
      const replayed = await work(conn);
      // The echo answer is the recorded one: its secret redacted, as recorded.
      expect({ ...replayed, echo: undefined }).toEqual({ ...live, echo: undefined });
      expect(JSON.stringify(replayed.echo)).not.toContain("hunter2");
    } finally {
      await disconnectServer(conn);
    }
  });

  it("replays over HTTP to the library: the same results and progress, each session from the start", async () => {
    const server = await replayHttp(box, file);
    try {
      for (let round = 0; round < 2; round++) {
        const conn = await connect({ type: "http", url: server.url });
        try {
          const replayed = await work(conn);
          expect({ ...replayed, echo: undefined }).toEqual({ ...live, echo: undefined });
        } finally {
          await disconnectServer(conn);
        }
      }
      expect(server.stderr()).toContain("tools/call ← line");
    } finally {
      await server.stop();
    }
  });

  it("answers a request that matches nothing with an error naming the closest recorded one", async () => {
    const conn = await connect({
      command: process.execPath,
      args: [bin, "replay", file, "--stdio"],
      cwd: box.project,
      env: box.env,
    });
    try {
      const line =
        entries.findIndex((e) => (e.message as { params?: { name?: string } }).params?.name === "get-sum") + 1;
      const error = await callTool(conn, "get-sum", { a: 5, b: 2 }).then(
        () => undefined,
        (e: unknown) => e as { code: number; message: string; data: { closest: { line: number } } },
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain(
        'No recorded request matches tools/call {"arguments":{"a":5,"b":2},"name":"get-sum"}',
      );
      expect(error?.message).toContain(
        `the closest recorded one is tools/call {"arguments":{"a":1,"b":2},"name":"get-sum"} (line ${line} of`,
      );
      expect(error?.data.closest.line).toBe(line);
      // An unknown method: -32601, and the connection goes on.
      await expect(conn.request("tools/frobnicate", {})).rejects.toMatchObject({ code: -32601 });
      expect(await callTool(conn, "get-sum", { a: 1, b: 2 })).toEqual(live.sum);
    } finally {
      await disconnectServer(conn);
    }
  });

  it("the manager records through its connect option", async () => {
    const seen: RecordedMessage[] = [];
    const manager = new MCPManager({
      pins: { store: new MemoryPinStore() },
      cwd: box.project,
      cache: false,
      connect: { record: (entry) => seen.push(entry) },
    });
    try {
      await manager.connectServers({ everything });
      const tool = manager.getTools().find((t) => t.toolName === "get-sum")!;
      await tool.call({ a: 2, b: 3 });
    } finally {
      await manager.disconnectAll();
    }
    expect(seen.some((e) => e.from === "client" && (e.message as { method?: string }).method === "tools/call")).toBe(
      true,
    );
    expect(
      seen.some((e) => e.from === "server" && JSON.stringify(e.message).includes("The sum of 2 and 3 is 5.")),
    ).toBe(true);
  });

  it("mcp replay --stdio whose stdin ends first takes its SIGINT and SIGTERM listeners off", async () => {
    // The command in a process of its own (its stdin at its end at once), then its listeners counted.
    const command = pathToFileURL(join(dirname(bin), "replay-command.js")).href;
    const script = `const { replayCommand } = await import(${JSON.stringify(command)});
const code = await replayCommand({}, ${JSON.stringify(file)}, { stdio: true });
console.log(JSON.stringify({ code, listeners: process.listenerCount("SIGINT") + process.listenerCount("SIGTERM") }));`;
    const child = await run([process.execPath, "--input-type=module", "-e", script], box.project, box.env);
    expect(child.code, child.stderr).toBe(0);
    expect(child.stderr).toContain("over stdio");
    expect(JSON.parse(child.stdout.trim().split("\n").at(-1)!)).toEqual({ code: 0, listeners: 0 });
  });

  it("mcp call --record, then mcp replay over stdio and HTTP: the CLI prints the same result", async () => {
    const cliBox = sandbox();
    try {
      const recorded = join(cliBox.project, "call.ndjson");
      const first = await mcp(cliBox, [
        "--json",
        "call",
        "everything.trigger-long-running-operation",
        "duration=1",
        "steps=2",
        "--record",
        recorded,
      ]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain("progress 2/2");
      const lines = readFileSync(recorded, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as RecordedMessage);
      expect(
        lines.some(
          (l) => l.from === "server" && (l.message as { method?: string }).method === "notifications/progress",
        ),
      ).toBe(true);

      const viaStdio = await mcp(cliBox, [
        "--json",
        "--stdio",
        `${process.execPath} ${bin} replay ${recorded} --stdio`,
        "call",
        "stdio.trigger-long-running-operation",
        "duration=1",
        "steps=2",
      ]);
      expect(viaStdio.code, viaStdio.stderr).toBe(0);
      expect(viaStdio.stdout).toBe(first.stdout);
      expect(viaStdio.stderr).toContain("progress 2/2");

      const server = await replayHttp(cliBox, recorded);
      try {
        const viaHttp = await mcp(cliBox, [
          "--json",
          "--http",
          server.url,
          "call",
          "http.trigger-long-running-operation",
          "duration=1",
          "steps=2",
        ]);
        expect(viaHttp.code, viaHttp.stderr).toBe(0);
        expect(viaHttp.stdout).toBe(first.stdout);
        expect(viaHttp.stderr).toContain("progress 2/2");
        // The library session's recording serves the CLI too: a resource and a prompt.
      } finally {
        await server.stop();
      }
      const read = await mcp(box, [
        "--stdio",
        `${process.execPath} ${bin} replay ${file} --stdio`,
        "read",
        "stdio",
        RESOURCE,
      ]);
      expect(read.code, read.stderr).toBe(0);
      expect(read.stdout).toContain((live.resource.contents[0] as { text: string }).text.split("\n")[0]);
      const prompt = await mcp(box, [
        "--json",
        "--stdio",
        `${process.execPath} ${bin} replay ${file} --stdio`,
        "prompt",
        "stdio.args-prompt",
        "city=Paris",
      ]);
      expect(prompt.code, prompt.stderr).toBe(0);
      expect(JSON.parse(prompt.stdout)).toEqual(live.prompt);
    } finally {
      cliBox.remove();
    }
  });

  it("refuses a recording it cannot serve, naming the line", async () => {
    const bad = box.write(join(box.project, "bad.ndjson"), `${JSON.stringify(entries[0])}\n{"from":"server"\n`);
    const run = await mcp(box, ["replay", bad, "--stdio"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:2: not JSON`);
    const none = await mcp(box, ["replay", bad]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("mcp replay needs one of --stdio or --http");
  });

  it("a hostile recording and client cannot drive the terminal: the server's name and the methods are shown with control characters escaped", async () => {
    const hostile = join(box.home, "hostile.ndjson");
    const server = "\u001b]0;owned\u0007\u001b[2J";
    writeFileSync(
      hostile,
      `${JSON.stringify({ server, from: "client", message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } })}\n${JSON.stringify({ server, from: "server", message: { jsonrpc: "2.0", id: 1, result: { tools: [] } } })}\n`,
    );
    const child = spawn(process.execPath, [bin, "replay", hostile, "--stdio"], {
      cwd: box.project,
      env: box.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/\u001b[31mlist" })}\n`);
    expect(await exited).toBe(0);
    // Both were shown (escaped), and no escape character reached the terminal.
    expect(stderr).toContain('(server "\\u{001b}]0;owned\\u{0007}\\u{001b}[2J", 1 recorded request)');
    expect(stderr).toContain("replay: tools/\\u{001b}[31mlist: No recorded request matches");
    expect(stderr).not.toContain("\u001b");
  });
});
