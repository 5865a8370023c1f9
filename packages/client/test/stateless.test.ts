// Revision 2026-07-28 against the official SDK v2 server (`@modelcontextprotocol/server` 2.4.0):
// over HTTP (its web-standard handler on node:http) in its default dual-era mode and 2026-07-28-only,
// and over stdio; plus the 2025-era servers that must stay exactly as they were.
import { createServer } from "node:http";
import {
  everythingEntry,
  startEverything,
  startSdkServer,
  startV2HttpServer,
  textOf,
  v2StdioEntry,
  type V2HttpServer,
} from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  callTool,
  connectToServer,
  disconnectServer,
  getPrompt,
  isResourceNotFound,
  listTools,
  NotInProtocolRevisionError,
  ping,
  readResource,
  setLoggingLevel,
  subscribe,
  UnsupportedProtocolVersionError,
  type ConnectOptions,
  type MCPServerConfig,
  type MCPServerConnection,
  type RecordedMessage,
} from "../src/index.js";
import { DISCOVER_PROBE_MS, DISCOVER_SILENT_MS } from "../src/negotiate.js";
import { ResourceNotFoundError } from "@mcp/jsonrpc";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});
async function connect(name: string, config: MCPServerConfig, options?: ConnectOptions): Promise<MCPServerConnection> {
  const conn = await connectToServer(name, config, options);
  cleanups.push(() => disconnectServer(conn));
  return conn;
}
async function v2(legacy?: "stateless" | "reject"): Promise<V2HttpServer> {
  const server = await startV2HttpServer(legacy ? { legacy } : {});
  cleanups.push(() => server.stop());
  return server;
}
const isMethod = (entry: RecordedMessage, method: string): boolean =>
  entry.from === "client" && (entry.message as { method?: unknown }).method === method;
/** A `record` listener that keeps the method of each message the client sends. */
const sentBy =
  (sent: string[]) =>
  (entry: RecordedMessage): void => {
    const method = (entry.message as { method?: unknown }).method;
    if (entry.from === "client" && typeof method === "string") sent.push(method);
  };
const bodies = (server: V2HttpServer) =>
  server.requests
    .filter((r) => r.method === "POST")
    .map((r) => ({
      ...(JSON.parse(r.body) as { id?: number; method: string; params?: Record<string, unknown> }),
      headers: r.headers,
    }));

for (const legacy of [undefined, "reject"] as const) {
  describe(`Streamable HTTP, official SDK v2 server (${legacy === "reject" ? "2026-07-28 only" : "dual era"})`, () => {
    it("negotiates 2026-07-28 by default and speaks its wire: _meta, headers, no session, no GET stream", async () => {
      const server = await v2(legacy);
      const conn = await connect(
        "v2",
        { type: "http", url: server.url },
        { clientInfo: { name: "modern-test", version: "1.2.3" } },
      );
      expect(conn).toMatchObject({
        era: "2026-07-28",
        protocolVersion: "2026-07-28",
        serverInfo: { name: "sdk-v2-test-server" },
      });
      expect(conn.capabilities.tools).toBeDefined();
      expect(conn.discoverResult).toMatchObject({
        supportedVersions: ["2026-07-28"],
        cacheScope: expect.any(String) as string,
      });
      expect((await listTools(conn)).map((t) => t.name)).toEqual(["add", "slow", "ask-name"]);
      expect(textOf(await callTool(conn, "add", { a: 2, b: 3 }))).toBe("5");
      expect(server.requests.some((r) => r.method === "GET" || r.method === "DELETE")).toBe(false);
      const posts = bodies(server);
      expect(posts.map((p) => p.method)).toEqual(["server/discover", "tools/list", "tools/call"]);
      for (const post of posts) {
        expect(post.params?.["_meta"]).toMatchObject({
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1.2.3" },
        });
        expect(post.headers["mcp-protocol-version"]).toBe("2026-07-28");
        expect(post.headers["mcp-method"]).toBe(post.method);
        expect(post.headers["mcp-session-id"]).toBeUndefined();
      }
      expect(posts[2]!.headers["mcp-name"]).toBe("add");
    });

    it("an input_required round trip is answered through onElicitation, on a new id with the exact requestState", async () => {
      const server = await v2(legacy);
      const asked: unknown[] = [];
      const conn = await connect(
        "v2",
        { type: "http", url: server.url },
        {
          onElicitation: async (params) => {
            asked.push(params.message);
            return { action: "accept", content: { name: "Ada" } };
          },
        },
      );
      expect(textOf(await callTool(conn, "ask-name"))).toBe("Hello, Ada");
      expect(asked).toEqual(["Your name?"]);
      const calls = bodies(server).filter((p) => p.method === "tools/call");
      expect(calls).toHaveLength(2);
      expect(calls[0]!.id).not.toBe(calls[1]!.id);
      expect(calls[0]!.params).not.toHaveProperty("requestState");
      expect(calls[1]!.params).toMatchObject({
        name: "ask-name",
        requestState: "asked-once",
        inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      });
      expect(calls[1]!.params?.["_meta"]).toMatchObject({
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      });
    });

    it("prompts, resources, the log level in _meta, removed methods as typed errors", async () => {
      const server = await v2(legacy);
      const conn = await connect("v2", { type: "http", url: server.url });
      expect(JSON.stringify((await getPrompt(conn, "greet", { who: "Bo" })).messages)).toContain("Hi Bo");
      expect((await readResource(conn, "note://hello")).contents[0]).toMatchObject({ text: "hello note" });
      expect(bodies(server).find((p) => p.method === "resources/read")?.headers["mcp-name"]).toBe("note://hello");
      const missing = await readResource(conn, "note://nope").catch((e: unknown) => e);
      expect(ResourceNotFoundError.isInstance(missing)).toBe(true); // 2026-07-28 sends -32602 for it
      expect(isResourceNotFound(missing)).toBe(true);
      const error = await ping(conn).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotInProtocolRevisionError);
      expect((error as Error).message).toBe('ping is not part of MCP 2026-07-28, which MCP server "v2" speaks');
      await setLoggingLevel(conn, "debug");
      await listTools(conn);
      expect(bodies(server).at(-1)?.params?.["_meta"]).toMatchObject({ "io.modelcontextprotocol/logLevel": "debug" });
      expect(bodies(server).some((p) => p.method === "ping" || p.method === "logging/setLevel")).toBe(false);
    });

    it("a call's own log level goes in its _meta, in place of the connection's, for that call only", async () => {
      const server = await v2(legacy);
      const conn = await connect("v2", { type: "http", url: server.url });
      const levelOf = (): unknown =>
        (bodies(server).at(-1)?.params?.["_meta"] as Record<string, unknown> | undefined)?.[
          "io.modelcontextprotocol/logLevel"
        ];
      await callTool(conn, "add", { a: 1, b: 2 }, { logLevel: "warning" });
      expect(levelOf()).toBe("warning");
      await callTool(conn, "add", { a: 1, b: 2 });
      expect(levelOf()).toBeUndefined();
      await setLoggingLevel(conn, "debug");
      await callTool(conn, "add", { a: 1, b: 2 }, { logLevel: "error" });
      expect(levelOf()).toBe("error");
      await callTool(conn, "add", { a: 1, b: 2 });
      expect(levelOf()).toBe("debug");
    });

    it("cancellation closes the request's stream; no notifications/cancelled is sent", async () => {
      const server = await v2(legacy);
      const conn = await connect("v2", { type: "http", url: server.url });
      const controller = new AbortController();
      const slow = callTool(conn, "slow", { ms: 10_000 }, { signal: controller.signal });
      await expect
        .poll(() => bodies(server).some((p) => p.method === "tools/call" && p.params?.["name"] === "slow"))
        .toBe(true);
      controller.abort(new Error("stop"));
      await expect(slow).rejects.toThrow("stop");
      expect(textOf(await callTool(conn, "add", { a: 1, b: 1 }))).toBe("2"); // the connection goes on
      // The server has answered a request sent after the abort: a cancellation the abort sent would have come first.
      expect(
        bodies(server)
          .filter((p) => p.method === "tools/call")
          .map((p) => p.params?.["name"]),
      ).toEqual(["slow", "add"]);
      expect(bodies(server).map((p) => p.method)).not.toContain("notifications/cancelled");
    });
  });
}

describe("subscriptions/listen (official SDK v2 server over HTTP)", () => {
  it("listening for list changes and subscribing to a resource open one listen stream; notifications arrive", async () => {
    const server = await v2();
    const conn = await connect("v2", { type: "http", url: server.url });
    const changed: unknown[] = [];
    const updated: unknown[] = [];
    conn.on("notifications/tools/list_changed", (p) => changed.push(p));
    conn.on("notifications/resources/updated", (p) => updated.push(p));
    await subscribe(conn, "note://hello");
    await expect
      .poll(() => conn.subscriptions)
      .toMatchObject({ toolsListChanged: true, resourceSubscriptions: ["note://hello"] });
    server.notify.toolsChanged();
    server.notify.resourceUpdated("note://hello");
    await expect.poll(() => changed.length).toBe(1);
    await expect.poll(() => updated).toEqual([expect.objectContaining({ uri: "note://hello" })]);
    const listens = bodies(server).filter((p) => p.method === "subscriptions/listen");
    expect(listens.at(-1)?.params).toMatchObject({
      notifications: { toolsListChanged: true, resourceSubscriptions: ["note://hello"] },
    });
    expect(listens.at(-1)?.headers["mcp-method"]).toBe("subscriptions/listen");
    expect(bodies(server).map((p) => p.method)).not.toContain("resources/subscribe");
  });
});

describe("stdio, official SDK v2 server", () => {
  for (const mode of ["serve", "reject"] as const) {
    it(`probes with server/discover and speaks 2026-07-28 (legacy: ${mode})`, async () => {
      const conn = await connect(
        "v2-stdio",
        { command: process.execPath, args: [v2StdioEntry, mode], timeout: 15_000 },
        { onElicitation: async () => ({ action: "accept", content: { name: "Grace" } }) },
      );
      expect(conn).toMatchObject({
        era: "2026-07-28",
        protocolVersion: "2026-07-28",
        serverInfo: { name: "sdk-v2-test-server" },
      });
      expect(textOf(await callTool(conn, "add", { a: 40, b: 2 }))).toBe("42");
      expect(textOf(await callTool(conn, "ask-name"))).toBe("Hello, Grace"); // MRTR over stdio too
    });
  }
});

describe("stdio servers that start slowly", () => {
  it("a dual-era SDK v2 server that starts late and silently is not taken for a 2025 one (no initialize is sent)", async () => {
    // The official SDK v2 stdio server (legacy: serve) behind `sleep`: silent for longer than the
    // probe's short bound. An initialize would pin its process to the 2025 era.
    const seconds = Math.ceil((DISCOVER_PROBE_MS + 1000) / 1000);
    const sent: string[] = [];
    const conn = await connect(
      "late-v2",
      {
        command: "sh",
        args: ["-c", `sleep ${seconds}; exec "$0" "$@"`, process.execPath, v2StdioEntry, "serve"],
        timeout: 30_000,
      },
      { onElicitation: async () => ({ action: "accept", content: { name: "Ada" } }), record: sentBy(sent) },
    );
    expect(conn).toMatchObject({ era: "2026-07-28", protocolVersion: "2026-07-28" });
    expect(textOf(await callTool(conn, "ask-name"))).toBe("Hello, Ada"); // MRTR: the process is modern
    expect(sent).not.toContain("initialize");
  });

  it("a 2026-07-28-only server that showed life but missed the probe refuses initialize naming 2026-07-28; the client then speaks it", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    // A wrapper writes a line to stderr (the server's first sign of life), then starts the official
    // SDK v2 stdio server (legacy: reject) only once the client has given up the probe and sent
    // initialize, and hands it everything the client wrote.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "slow-v2-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const script = path.join(dir, "slow.mjs");
    fs.writeFileSync(
      script,
      [
        'import { spawn } from "node:child_process";',
        'process.stderr.write("slow-v2: starting\\n");',
        "let seen = Buffer.alloc(0);",
        "const onData = (chunk) => {",
        "  seen = Buffer.concat([seen, chunk]);",
        `  if (!seen.includes('"method":"initialize"')) return;`,
        '  process.stdin.off("data", onData);',
        `  const server = spawn(process.execPath, [${JSON.stringify(v2StdioEntry)}, "reject"], { stdio: ["pipe", "inherit", "inherit"] });`,
        "  server.stdin.write(seen);",
        "  process.stdin.pipe(server.stdin);",
        '  server.on("exit", (code) => process.exit(code ?? 0));',
        "};",
        'process.stdin.on("data", onData);',
        "",
      ].join("\n"),
    );
    const sent: string[] = [];
    const conn = await connect(
      "slow-v2",
      { command: process.execPath, args: [script], timeout: 30_000 },
      { record: sentBy(sent) },
    );
    expect(conn).toMatchObject({ era: "2026-07-28", protocolVersion: "2026-07-28" });
    expect(sent.filter((m) => m !== "notifications/cancelled")).toEqual([
      "server/discover",
      "initialize",
      "server/discover",
    ]);
    expect(textOf(await callTool(conn, "add", { a: 2, b: 2 }))).toBe("4");
  });
});

describe("2025-era servers stay on the 2025 era, as before", () => {
  it("server-everything over stdio and Streamable HTTP, and an official SDK 1.x server", async () => {
    const stdio = await connect("e", { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 });
    expect(stdio).toMatchObject({ era: "2025", protocolVersion: "2025-11-25" });
    const everything = await startEverything("streamableHttp");
    cleanups.push(() => everything.stop());
    const http = await connect("e-http", { type: "http", url: everything.url, timeout: 20_000 });
    expect(http).toMatchObject({ era: "2025", protocolVersion: "2025-11-25" });
    expect((http.transport as { sessionId?: string }).sessionId).toMatch(/.+/);
    const sdk1 = await startSdkServer();
    cleanups.push(() => sdk1.stop());
    const v1 = await connect("sdk1", { type: "http", url: sdk1.url });
    expect(v1.era).toBe("2025");
    expect(textOf(await callTool(v1, "add", { a: 1, b: 2 }))).toBe("3");
  });

  it('protocol: "2025" opens a dual-era server with initialize and sends no server/discover ("legacy" too)', async () => {
    for (const protocol of ["2025", "legacy"]) {
      const server = await v2();
      const conn = await connect("v2-2025", { type: "http", url: server.url }, { protocol: protocol as "2025" });
      expect(conn).toMatchObject({ era: "2025", protocolVersion: "2025-11-25", discoverResult: undefined });
      expect(textOf(await callTool(conn, "add", { a: 2, b: 3 }))).toBe("5");
      const methods = bodies(server).map((b) => b.method);
      expect(methods.slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
      expect(methods).not.toContain("server/discover");
    }
  });
});

describe("negotiation edge cases (hand-made servers)", () => {
  it("-32022 naming no version we speak: a clear error naming both lists, and no fallback", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += String(c)));
      req.on("end", () => {
        seen.push(`${req.method} ${body ? (JSON.parse(body) as { method: string }).method : ""}`);
        const id = body ? (JSON.parse(body) as { id?: unknown }).id : null;
        res.writeHead(400, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            error: {
              code: -32022,
              message: "Unsupported protocol version",
              data: { supported: ["2030-01-01"], requested: "2026-07-28" },
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    const error = await connectToServer("future", { type: "http", url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toContain("2030-01-01");
    expect((error as Error).message).toContain("2026-07-28, 2025-11-25");
    expect(seen).toEqual(["POST server/discover"]); // no initialize, no HTTP+SSE GET
  });

  it("a stdio server that never answers server/discover costs the probe's bound after its first output, not the connect timeout", async () => {
    const { fileURLToPath } = await import("node:url");
    const fixture = fileURLToPath(new URL("./fixtures/version-server.mjs", import.meta.url));
    const started = Date.now();
    let firstOutput = 0;
    let initializeSent = 0;
    const conn = await connect(
      "silent",
      {
        command: process.execPath,
        args: [fixture, "2025-06-18", "silent", "banner"],
        timeout: 30_000,
        onStderr: () => (firstOutput ||= Date.now()),
      },
      { record: (e) => void (isMethod(e, "initialize") && (initializeSent = Date.now())) },
    );
    expect(conn.era).toBe("2025");
    expect(firstOutput).toBeGreaterThan(0);
    // The clock started at the banner, and was the short one (not the silent server's).
    expect(initializeSent - firstOutput).toBeGreaterThanOrEqual(DISCOVER_PROBE_MS - 10);
    expect(initializeSent - started).toBeLessThan(DISCOVER_SILENT_MS);
  });

  it("a stdio server that writes nothing and never answers server/discover costs the silent bound (half the connect timeout here)", async () => {
    const { fileURLToPath } = await import("node:url");
    const fixture = fileURLToPath(new URL("./fixtures/version-server.mjs", import.meta.url));
    const timeout = 3 * DISCOVER_PROBE_MS;
    const started = Date.now();
    let initializeSent = 0;
    const conn = await connect(
      "mute",
      { command: process.execPath, args: [fixture, "2025-06-18", "silent"], timeout },
      { record: (e) => void (isMethod(e, "initialize") && (initializeSent = Date.now())) },
    );
    expect(conn.era).toBe("2025");
    expect(initializeSent - started).toBeGreaterThanOrEqual(timeout / 2 - 10);
  });
});
