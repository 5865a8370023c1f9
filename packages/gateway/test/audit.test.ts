// The audit log's own bounds: what a caller chooses (a tool name, a path) is cut before it is
// written, a stream that does not drain holds at most MAX_AUDIT_BYTES, line separators are escaped,
// and argsHash is keyed. Real sockets and files: a loopback socket whose peer never reads, the
// gateway mounted in a test server with the probe upstream, a file the sink appends to.
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { createWriteStream } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { Writable } from "node:stream";
import { join } from "node:path";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { buildProbe1x, startSdkServer } from "mcp-test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_AUDIT_BYTES, MAX_FIELD_CHARS } from "../src/audit.js";
import { auditStream, canonicalJson, type AuditEntry, type Caller } from "../src/index.js";
import { mountGateway } from "./app.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const NOBODY: Caller = { id: "nobody-id", name: "nobody", allow: [] };
const ALICE: Caller = { id: "alice-id", name: "alice" };
const TOKENS = new Map([
  ["nobody-token-0123456789", NOBODY],
  ["alice-token-01234567890", ALICE],
]);
const KEY = "the-deployment-audit-key-0123456789";

async function mount(audit: (entry: AuditEntry) => void): Promise<string> {
  const upstream = await startSdkServer({ build: buildProbe1x });
  stops.push(() => upstream.stop());
  const mounted = await mountGateway(
    { probe: { type: "http", url: upstream.url } },
    { tokens: TOKENS, audit, auditKey: KEY },
  );
  stops.push(() => mounted.stop());
  return mounted.url;
}

async function client(url: string, token: string): Promise<Client1> {
  const c = new Client1({ name: "c", version: "1" });
  await c.connect(new Http1(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  stops.push(() => c.close());
  return c;
}

/** A loopback socket whose peer reads nothing: what is written to it stays in its buffers. */
async function unreadSocket(): Promise<Socket> {
  const peers: Socket[] = [];
  const server = createServer((peer) => void (peers.push(peer), peer.pause()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const socket = connect((server.address() as { port: number }).port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  stops.push(async () => {
    socket.destroy();
    for (const peer of peers) peer.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return socket;
}

describe("the audit log's bounds", () => {
  it("a stream that does not drain holds at most MAX_AUDIT_BYTES, however big the entries (the oldest queued are dropped, said once)", async () => {
    const socket = await unreadSocket();
    const errors: string[] = [];
    const sink = auditStream(socket, (error) => errors.push(error.message));
    const entry = (i: number): AuditEntry => ({
      time: new Date().toISOString(),
      caller: "c",
      endpoint: "/mcp",
      method: "resources/read",
      resource: `${i}:${"x".repeat(1024 * 1024)}`,
      decision: "allowed",
      durationMs: 0,
    });
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 25; i++) sink(entry(round * 25 + i));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // 100 MiB of entries were given; 8 MiB (MAX_AUDIT_BYTES) is held.
    expect(socket.writableLength).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(MAX_AUDIT_BYTES).toBe(8 * 1024 * 1024);
    expect(sink.pending).toBeLessThanOrEqual(MAX_AUDIT_BYTES);
    expect(errors).toEqual(["the audit log falls behind: entries are dropped until it catches up"]);
  });

  it("the bound counts bytes, not characters: entries of 3-byte characters given to a stream that does not drain hold at most MAX_AUDIT_BYTES", () => {
    // A stream that never finishes a write: what it holds (`writableLength`) is in bytes, as a file's is.
    const stuck = new Writable({ write: () => {} });
    const sink = auditStream(stuck);
    const entry = (i: number): AuditEntry => ({
      time: new Date().toISOString(),
      caller: "c",
      endpoint: "/mcp",
      method: "resources/read",
      resource: `${i}:${"€".repeat(1024 * 1024)}`,
      decision: "allowed",
      durationMs: 0,
    });
    for (let i = 0; i < 20; i++) sink(entry(i));
    // close() hands the stream what is still queued: then the stream holds all there is.
    void sink.close();
    expect(stuck.writableLength).toBeGreaterThan(0);
    expect(stuck.writableLength).toBeLessThanOrEqual(MAX_AUDIT_BYTES);
    stuck.destroy();
  });

  it("a caller allowed nothing cannot write big entries: a 1 MB tool name and an unauthenticated 15,000-character path are cut to MAX_FIELD_CHARS", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount((entry) => void entries.push(entry));
    const nobody = await client(url, "nobody-token-0123456789");
    const name = `probe__${"n".repeat(1_000_000)}`;
    await expect(nobody.callTool({ name, arguments: {} })).rejects.toThrow();
    expect(
      (
        await fetch(`${url}/${"p".repeat(15_000)}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(401);
    await vi.waitFor(() =>
      expect(entries.filter((e) => e.method === "tools/call" || e.decision === "unauthenticated").length).toBe(2),
    );
    for (const entry of entries) expect(JSON.stringify(entry).length).toBeLessThan(2 * MAX_FIELD_CHARS + 400);
    const call = entries.find((e) => e.method === "tools/call")!;
    expect(call.tool).toBe(`${name.slice(0, MAX_FIELD_CHARS)}…(${name.length} chars)`);
    expect(entries.find((e) => e.decision === "unauthenticated")!.endpoint).toMatch(/^\/mcp\/p+…\(15005 chars\)$/);
  });

  it("U+2028, U+2029 and U+0085 in a field are escaped: every line of the file is one entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-audit-"));
    const file = join(dir, "audit.jsonl");
    const sink = auditStream(createWriteStream(file, { flags: "a" }));
    const url = await mount(sink);
    const alice = await client(url, "alice-token-01234567890");
    await expect(alice.callTool({ name: "probe__a\u2028b\u2029c\u0085d", arguments: {} })).rejects.toThrow();
    await vi.waitFor(() => expect(readFileSync(file, "utf8")).toContain('"tools/call"'));
    await sink.close();
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/[\u2028\u2029\u0085]/);
    const lines = text.split(/\r\n|\n|\r|\u2028|\u2029|\u0085/).filter((l) => l !== "");
    const entries = lines.map((l) => JSON.parse(l) as AuditEntry);
    expect(entries.find((e) => e.method === "tools/call")!.tool).toBe("probe__a\u2028b\u2029c\u0085d");
  });

  it("argsHash is an HMAC under the deployment's key: a plain SHA-256 of a guess does not match it", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount((entry) => void entries.push(entry));
    const alice = await client(url, "alice-token-01234567890");
    await alice.callTool({ name: "probe__flood", arguments: { count: 1 } });
    await vi.waitFor(() => expect(entries.find((e) => e.method === "tools/call")).toBeDefined());
    const hash = entries.find((e) => e.method === "tools/call")!.argsHash;
    expect(hash).toBe(
      createHmac("sha256", KEY)
        .update(canonicalJson({ count: 1 }))
        .digest("hex"),
    );
    expect(hash).not.toBe(
      createHmac("sha256", "another key")
        .update(canonicalJson({ count: 1 }))
        .digest("hex"),
    );
  });

  it("a call over several input_required rounds is audited with the arguments that ran (its first round's), whatever a retry sends", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount((entry) => void entries.push(entry));
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: {}, roots: {} },
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const call = async (
      args: Record<string, unknown>,
      more: Record<string, unknown> = {},
    ): Promise<Record<string, unknown>> => {
      const answer = await fetch(url, {
        method: "POST",
        headers: {
          authorization: "Bearer alice-token-01234567890",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "probe__probe",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "probe__probe", arguments: args, _meta: meta, ...more },
        }),
      });
      const text = await answer.text();
      const json = text.startsWith("{")
        ? text
        : text
            .split("\n")
            .filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6))
            .at(-1)!;
      return (JSON.parse(json) as { result: Record<string, unknown> }).result;
    };
    const ran = { secret: "what-ran", steps: 0 };
    let result = await call(ran);
    for (let round = 0; result["resultType"] === "input_required" && round < 5; round++) {
      const asked = result["inputRequests"] as Record<string, { method: string }>;
      const inputResponses = Object.fromEntries(
        Object.entries(asked).map(([key, q]) => [
          key,
          q.method === "sampling/createMessage"
            ? { role: "assistant", content: { type: "text", text: "s" }, model: "m" }
            : q.method === "elicitation/create"
              ? { action: "accept", content: { answer: "e" } }
              : { roots: [] },
        ]),
      );
      // Each retry names other arguments: they do not run (the call already runs with the first round's).
      result = await call(
        { secret: `retry-${round}`, steps: 0 },
        { requestState: result["requestState"], inputResponses },
      );
    }
    expect(JSON.parse((result["content"] as { text: string }[])[0]!.text)).toMatchObject({ secret: "what-ran" });
    await vi.waitFor(() => expect(entries.filter((e) => e.method === "tools/call").length).toBeGreaterThanOrEqual(4));
    const hashes = new Set(entries.filter((e) => e.method === "tools/call").map((e) => e.argsHash));
    expect(hashes).toEqual(new Set([createHmac("sha256", KEY).update(canonicalJson(ran)).digest("hex")]));
  });

  it("requests refused before any handler are audited with their status: a foreign Host or Origin, a path that serves nothing, a body too big, no session, another caller's session", async () => {
    const entries: AuditEntry[] = [];
    const url = await mount((entry) => void entries.push(entry));
    const alice = {
      authorization: "Bearer alice-token-01234567890",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const post = (to: string, headers: Record<string, string>, body: string) =>
      fetch(to, { method: "POST", headers, body });
    expect((await post(url, { ...alice, origin: "http://evil.example" }, "{}")).status).toBe(403);
    expect((await post(`${url}/nowhere`, alice, "{}")).status).toBe(404);
    expect((await post(url, alice, JSON.stringify({ pad: "x".repeat(5 * 1024 * 1024) }))).status).toBe(413);
    expect((await post(url, alice, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }))).status).toBe(400);
    // A session of alice's, used by nobody.
    const opened = await post(
      url,
      alice,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "a", version: "1" } },
      }),
    );
    await opened.text();
    const session = opened.headers.get("mcp-session-id")!;
    const foreign = await post(
      url,
      {
        ...alice,
        authorization: "Bearer nobody-token-0123456789",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      },
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    );
    expect(foreign.status).toBe(403);
    await vi.waitFor(() => expect(entries.filter((e) => e.decision === "refused").length).toBe(5));
    expect(
      entries.filter((e) => e.decision === "refused").map((e) => [e.status, e.caller, e.endpoint, e.method]),
    ).toEqual([
      [403, null, "/mcp", null],
      [404, "alice", "/mcp/nowhere", null],
      [413, "alice", "/mcp", null],
      [400, "alice", "/mcp", "tools/list"],
      [403, "nobody", "/mcp", "tools/list"],
    ]);
  });
});
