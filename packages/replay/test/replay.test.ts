// A session with a real server-everything child recorded through @mcp/client's `record` option
// (in memory and to a file with openRecording), then replayed in-process, over HTTP and over stdio
// streams to @mcp/client: the same answers, progress included; a request the recording lacks gets
// a typed error naming the closest recorded one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import {
  callTool,
  connectToServer,
  disconnectServer,
  getPrompt,
  listPrompts,
  listTools,
  readResource,
  type MCPServerConnection,
  type RecordedMessage,
} from "@mcp/client";
import { InvalidParamsError, MethodNotFoundError, RpcError, type MCPTransport } from "@mcp/jsonrpc";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectReplay,
  openRecording,
  readRecording,
  recordingFrom,
  RecordingError,
  ReplaySession,
  serveReplayHttp,
  serveReplayStdio,
  UnrecordedRequestError,
  type ReplayEvent,
} from "../src/index.js";

const RESOURCE = "demo://resource/static/document/architecture.md";
// A URL with a password and a token: what a recording must not keep, and what a replay must still match.
const SECRET_URL = "https://ada:hunter2@example.com/hook?token=s3cr3t-value";

/** The same work on any connection: tools, a call, a call with progress, a resource, a prompt, a call with a secret. */
async function work(conn: MCPServerConnection<MCPTransport>) {
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

const clientInfo = { name: "replay-test", version: "1.0.0" };

describe("@mcp/replay", () => {
  let dir: string;
  let file: string;
  let entries: RecordedMessage[];
  let live: Awaited<ReturnType<typeof work>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcp-replay-"));
    file = join(dir, "session.ndjson");
    entries = [];
    const recording = openRecording(file);
    const conn = await connectToServer(
      "everything",
      { command: process.execPath, args: [everythingEntry, "stdio"] },
      { clientInfo, record: (entry) => (entries.push(entry), recording.record(entry)) },
    );
    try {
      live = await work(conn);
    } finally {
      await disconnectServer(conn);
      await recording.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("records every message both ways to the file, secrets redacted", () => {
    expect(live.progress).toHaveLength(3);
    expect(live.tools).toContain("get-sum");
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RecordedMessage);
    expect(lines).toEqual(entries);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("s3cr3t-value");
    expect(JSON.stringify(live.echo)).toContain("hunter2");
  });

  it("replays in-process to @mcp/client: the recorded answers, progress included", async () => {
    const events: ReplayEvent[] = [];
    const conn = await connectReplay(entries, { clientInfo, onEvent: (event) => events.push(event) });
    try {
      expect(conn.name).toBe("everything");
      const replayed = await work(conn);
      // The echo answer is the recorded one: its secret redacted, as recorded.
      expect({ ...replayed, echo: undefined }).toEqual({ ...live, echo: undefined });
      expect(JSON.stringify(replayed.echo)).not.toContain("hunter2");
      expect(events.some((event) => event.method === "tools/call" && typeof event.line === "number")).toBe(true);
    } finally {
      await disconnectServer(conn);
    }
    expect(conn.transport.connected).toBe(false);
    expect(conn.transport.pendingRequests).toBe(0);
  });

  it("answers an unrecorded request with UnrecordedRequestError naming the closest recorded one, and goes on", async () => {
    const conn = await connectReplay(readRecording(file), { clientInfo });
    try {
      const line =
        entries.findIndex((e) => (e.message as { params?: { name?: string } }).params?.name === "get-sum") + 1;
      const error = await callTool(conn, "get-sum", { a: 5, b: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnrecordedRequestError);
      expect(UnrecordedRequestError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(RpcError);
      const typed = error as UnrecordedRequestError;
      expect(typed.code).toBe(-32602);
      expect(typed.method).toBe("tools/call");
      expect(typed.recording).toBe(file);
      expect(typed.closest).toEqual({
        method: "tools/call",
        params: expect.objectContaining({ name: "get-sum", arguments: { a: 1, b: 2 } }),
        line,
      });
      expect(typed.message).toContain(
        'No recorded request matches tools/call {"arguments":{"a":5,"b":2},"name":"get-sum"}',
      );
      expect(typed.message).toContain(
        `the closest recorded one is tools/call {"arguments":{"a":1,"b":2},"name":"get-sum"} (line ${line} of ${file})`,
      );
      // An unknown method: -32601, and the connection goes on.
      await expect(conn.request("tools/frobnicate", {})).rejects.toMatchObject({
        name: "UnrecordedRequestError",
        code: -32601,
        method: "tools/frobnicate",
      });
      expect(await callTool(conn, "get-sum", { a: 1, b: 2 })).toEqual(live.sum);
    } finally {
      await disconnectServer(conn);
    }
  });

  it("serves a recording over Streamable HTTP: each session from the start; an unrecorded request is a -32602 on the wire", async () => {
    const events: ReplayEvent[] = [];
    const server = await serveReplayHttp(readRecording(file), { onEvent: (event) => events.push(event) });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
      for (let round = 0; round < 2; round++) {
        const conn = await connectToServer("replayed", { type: "http", url: server.url }, { clientInfo });
        try {
          const replayed = await work(conn);
          expect({ ...replayed, echo: undefined }).toEqual({ ...live, echo: undefined });
          const error = await callTool(conn, "get-sum", { a: 5, b: 2 }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidParamsError);
          expect((error as RpcError).data).toMatchObject({ recording: file, closest: { method: "tools/call" } });
        } finally {
          await disconnectServer(conn);
        }
      }
      expect(events.filter((event) => event.error !== undefined)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it("serves a recording on a pair of streams (stdio): answers each line, refuses a line that is not JSON, ends with its input", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: unknown[] = [];
    let buffered = "";
    const got = new Promise<void>((resolve) => {
      output.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("utf8");
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        for (const part of parts) lines.push(JSON.parse(part));
        if (lines.length === 3) resolve();
      });
    });
    const errors: Error[] = [];
    const session = new ReplaySession(readRecording(file));
    const served = serveReplayStdio(session, input, output, (error) => errors.push(error));
    input.write("not json\n");
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get-sum", arguments: { a: 1, b: 2 } } })}\n`,
    );
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/frobnicate" })}\n`);
    await got;
    expect(lines[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(lines[1]).toEqual({ jsonrpc: "2.0", id: 7, result: live.sum });
    expect(lines[2]).toMatchObject({ id: 8, error: { code: -32601 } });
    input.end();
    await served;
    expect(errors).toEqual([]);
  });

  it("refuses a recording it cannot serve with a RecordingError naming the file and line", () => {
    const bad = join(dir, "bad.ndjson");
    writeFileSync(bad, `${JSON.stringify(entries[0])}\n{"from":"server"\n`);
    expect(() => readRecording(bad)).toThrow(RecordingError);
    expect(() => readRecording(bad)).toThrow(`${bad}:2: not JSON`);
    expect(() => readRecording(join(dir, "missing.ndjson"))).toThrow("cannot read it (ENOENT)");
    expect(() => recordingFrom([])).toThrow("recording: no messages in it");
    expect(() => recordingFrom([{ ...entries[0]!, from: "nobody" as "client" }])).toThrow(
      'recording:1: "from" must be "client" or "server", not "nobody"',
    );
    const two = [...entries, { ...entries[0]!, server: "other" }];
    expect(() => recordingFrom(two)).toThrow(
      'it records several servers ("everything", "other"); choose one with --server',
    );
    expect(recordingFrom(two, { server: "other" }).exchanges).toHaveLength(1);
    expect(() => recordingFrom(two, { server: "nope" })).toThrow('no server named "nope" in it');
    expect(() => openRecording(join(dir, "no-such-dir", "x.ndjson"))).toThrow(RecordingError);
    expect(() => openRecording(join(dir, "no-such-dir", "x.ndjson"))).toThrow("cannot write it (ENOENT)");
  });

  it("pairs a hostile recording of many unanswered requests and many notifications in linear time", () => {
    // 60,000 requests no answer follows, then 60,000 notifications: each notification belongs to the
    // latest unanswered request. Finding that by listing every pending request for each one took
    // minutes (20,000 of each: 5 s; it grows with their product); the timeout is far above linear.
    const n = 60_000;
    const hostile: RecordedMessage[] = [];
    for (let i = 0; i < n; i++)
      hostile.push({
        server: "s",
        from: "client",
        message: { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "t", arguments: { i } } },
      } as RecordedMessage);
    hostile.push({
      server: "s",
      from: "server",
      message: { jsonrpc: "2.0", id: n - 1, result: { content: [] } },
    } as RecordedMessage);
    for (let i = 0; i < n; i++)
      hostile.push({
        server: "s",
        from: "server",
        message: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: i } },
      } as RecordedMessage);
    const { exchanges } = recordingFrom(hostile);
    expect(exchanges).toHaveLength(n);
    // The last request was answered: the notifications go to the one before it, the latest still unanswered.
    expect(exchanges[n - 1]!.answer).toHaveLength(1);
    expect(exchanges[n - 2]!.answer).toHaveLength(n);
  }, 15_000);

  it("over HTTP, serves a page of its own origin only: a page on another port of this machine is refused", async () => {
    const server = await serveReplayHttp(recordingFrom(entries));
    const ping = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
        }),
      });
    try {
      // Another local web page (a dev server, an MCP App's sandbox origin) is not the replay's.
      for (const other of [
        `http://127.0.0.1:${server.port + 1}`,
        `http://localhost:${server.port + 1}`,
        "http://[::1]:1",
      ]) {
        const refused = await ping({ origin: other });
        expect(refused.status, other).toBe(403);
        expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
          `Origin "${other}" is not served`,
        );
      }
      const own = await ping({ origin: `http://127.0.0.1:${server.port}` });
      expect(own.status).toBe(200);
      await own.body?.cancel();
      const none = await ping({});
      expect(none.status).toBe(200);
      await none.body?.cancel();
    } finally {
      await server.close();
    }
  });

  it("a method the recording lacks entirely is a MethodNotFoundError over HTTP", async () => {
    const server = await serveReplayHttp(recordingFrom(entries));
    try {
      const conn = await connectToServer("replayed", { type: "http", url: server.url }, { clientInfo });
      try {
        await expect(conn.request("tools/frobnicate", {})).rejects.toBeInstanceOf(MethodNotFoundError);
      } finally {
        await disconnectServer(conn);
      }
    } finally {
      await server.close();
    }
  });
});
