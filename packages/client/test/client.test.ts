import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { freePort, isAlive, waitFor } from "mcp-test-utils";
import { describe, expect, it } from "vitest";
import {
  applyElicitationDefaults,
  callTool,
  CapabilityNotSupportedError,
  ConnectionTimeoutError,
  connectToServer,
  disconnectServer,
  InvalidConfigError,
  InvalidInitializeResultError,
  NetworkError,
  listPrompts,
  listResources,
  listTools,
  PaginationError,
  readResource,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnknownServerTypeError,
  UnsupportedProtocolVersionError,
  type MCPServerConfig,
  type StdioServerConfig,
} from "../src/index.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const paging = (mode: string): StdioServerConfig => ({
  command: process.execPath,
  args: [fixture("paging-server.mjs"), mode],
  timeout: 10_000,
});
const versioned = (version: string, timeout = 10_000): StdioServerConfig => ({
  command: process.execPath,
  args: [fixture("version-server.mjs"), version],
  timeout,
});

describe("transport selection and config errors", () => {
  const refused = (config: unknown): Promise<unknown> =>
    connectToServer("docs", config as MCPServerConfig).catch((e: unknown) => e);

  it("refuses an unknown type with its documented message, the server and the valid values", async () => {
    const error = await refused({ type: "websocket", url: "ws://x" });
    expect(error).toMatchObject({
      message:
        'Unknown server type: websocket (MCP server "docs"); expected "stdio" (the default), "http" (Streamable HTTP) or "sse" (HTTP+SSE, the 2024-11-05 transport)',
      code: "unknown_server_type",
      serverName: "docs",
      field: "type",
    });
    expect(UnknownServerTypeError.isInstance(error)).toBe(true);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect(ConnectionTimeoutError.isInstance(error)).toBe(false);
  });

  it("names the right type for a known alias (Claude Code's streamable-http)", async () => {
    expect(await refused({ type: "streamable-http", url: "http://127.0.0.1:1/mcp" })).toMatchObject({
      message: expect.stringMatching(
        /^Unknown server type: streamable-http .*; for this transport use "type": "http"$/,
      ) as string,
    });
  });

  it("a url without a type says to add one, instead of asking for a command", async () => {
    expect(await refused({ url: "http://127.0.0.1:1/mcp" })).toMatchObject({
      code: "invalid_config",
      field: "type",
      message:
        'MCP server "docs": "url" is set but "type" is not; add "type": "http" (Streamable HTTP) or "type": "sse" (HTTP+SSE, the 2024-11-05 transport)',
    });
  });

  it("refuses a missing command, a missing url, both at once, and bad timeouts", async () => {
    expect(await refused({ args: ["x"] })).toMatchObject({
      field: "command",
      message: 'MCP server "docs": stdio server requires "command" field',
    });
    expect(await refused({ type: "http" })).toMatchObject({
      field: "url",
      message: 'MCP server "docs": http server requires "url" field',
    });
    expect(await refused({ command: "x", url: "http://y" })).toMatchObject({
      message: expect.stringContaining('both "command" and "url" are set') as string,
    });
    for (const timeout of [0, -5, Number.NaN, "1000"]) {
      expect(await refused({ command: "x", timeout })).toMatchObject({
        field: "timeout",
        message: expect.stringContaining(
          '"timeout" must be a positive number of milliseconds (or Infinity for none)',
        ) as string,
      });
    }
  });

  it("nothing listening: a typed error naming the server and the URL", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const error = await refused({ type: "http", url });
    expect(NetworkError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `Cannot reach MCP server "docs" at ${url}: connection refused (ECONNREFUSED); is the server running and listening on that port?`,
    );
  });
});

describe("disposal", () => {
  it("Symbol.asyncDispose closes the connection and ends the server process", async () => {
    let closed = false;
    const conn = await connectToServer("paging", paging("normal"), { onClose: () => (closed = true) });
    const pid = conn.transport.pid!;
    expect(isAlive(pid)).toBe(true);
    await conn[Symbol.asyncDispose]();
    expect(conn.transport.connected).toBe(false);
    expect(closed).toBe(true);
    await waitFor(() => !isAlive(pid));
  });
});

describe("pagination against a server built on the official SDK", () => {
  it("follows nextCursor to the end", async () => {
    const conn = await connectToServer("paging", paging("normal"));
    try {
      const tools = await listTools(conn);
      expect(tools.map((t) => t.name)).toEqual(Array.from({ length: 25 }, (_, i) => `tool-${i}`));
      expect((await listPrompts(conn)).map((p) => p.name)).toEqual(["prompt-0", "prompt-1", "prompt-2"]);
    } finally {
      await disconnectServer(conn);
    }
  });

  it("stops on a repeated cursor with a clear error", async () => {
    const conn = await connectToServer("looping", paging("repeat"));
    try {
      const error = await listTools(conn).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaginationError);
      expect((error as Error).message).toBe(
        'MCP server "looping" repeated cursor "page-1" in tools/list (page 3); stopping',
      );
    } finally {
      await disconnectServer(conn);
    }
  });

  it("stops at the page cap", async () => {
    const conn = await connectToServer("endless", paging("endless"));
    try {
      await expect(listTools(conn, { maxPages: 5 })).rejects.toThrow(
        'MCP server "endless" returned more than 5 pages for tools/list; stopping',
      );
    } finally {
      await disconnectServer(conn);
    }
  });

  it("stops at the item cap (25 tools come in pages of 10)", async () => {
    const conn = await connectToServer("paging", paging("normal"));
    try {
      await expect(listTools(conn, { maxItems: 20 })).rejects.toThrow(
        'MCP server "paging" returned more than 20 items for tools/list; stopping',
      );
      await expect(listTools(conn, { maxItems: 25 })).resolves.toHaveLength(25);
    } finally {
      await disconnectServer(conn);
    }
  });

  it("does not ask for what the server did not declare", async () => {
    const conn = await connectToServer("paging", paging("normal"));
    try {
      await expect(listResources(conn)).resolves.toEqual([]);
      const error = await readResource(conn, "file:///x").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityNotSupportedError);
      expect((error as Error).message).toBe(
        'MCP server "paging" does not support resources (needed for resources/read)',
      );
    } finally {
      await disconnectServer(conn);
    }
  });
});

describe("protocol version negotiation", () => {
  it.each(SUPPORTED_PROTOCOL_VERSIONS.map((v) => [v]))("accepts a server answering %s", async (version) => {
    const conn = await connectToServer("v", versioned(version));
    try {
      expect(conn.protocolVersion).toBe(version);
      expect(await listTools(conn)).toEqual([]);
    } finally {
      await disconnectServer(conn);
    }
  });

  it("refuses an unknown version, naming both, and leaves no process behind", async () => {
    let closed = 0;
    const error = await connectToServer("future", versioned("2099-01-01"), { onClose: () => closed++ }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toBe(
      'MCP server "future" answered protocol version "2099-01-01", which this client does not support; we offered "2025-11-25" (supported: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)',
    );
    await waitFor(() => closed === 1); // the transport is closed after the rejection: the server process goes
  });

  it("refuses a malformed initialize result", async () => {
    await expect(connectToServer("garbage", versioned("garbage"))).rejects.toBeInstanceOf(InvalidInitializeResultError);
  });
});

describe("handshake failures", () => {
  it("times out with its documented message and kills the server", async () => {
    let closed = false;
    const started = Date.now();
    const error = await connectToServer("slow", versioned("hang", 300), { onClose: () => (closed = true) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect((error as Error).message).toBe('Connection to MCP server "slow" timed out after 300ms');
    expect(Date.now() - started).toBeLessThan(5000);
    await waitFor(() => closed);
  });

  it("the connect option timeout bounds the handshake in place of the config's; a bad one names the field", async () => {
    const error = await connectToServer("slow", { command: "sleep", args: ["100"] }, { timeout: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect((error as Error).message).toBe('Connection to MCP server "slow" timed out after 300ms');
    const invalid = await connectToServer("bad", { command: "sleep", args: ["100"] }, { timeout: -1 }).catch(
      (e: unknown) => e,
    );
    expect((invalid as Error).message).toMatch(/timeout/);
    expect((invalid as { field?: string }).field).toBe("timeout");
  });

  const sleepers: [string, StdioServerConfig][] = [
    ["a child that ignores stdin's end", { command: "sleep", args: ["100"] }],
    ["the same through sh -c", { command: "sh", args: ["-c", "sleep 100"] }],
  ];
  for (const [label, config] of sleepers) {
    it(`rejects on time, and cleans up after: ${label}`, async () => {
      let closed = false;
      const started = Date.now();
      const error = await connectToServer(
        "sleepy",
        { ...config, timeout: 1500 },
        { onClose: () => (closed = true) },
      ).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(ConnectionTimeoutError);
      expect(elapsed).toBeGreaterThanOrEqual(1490);
      // Not 1500 + the 2 s close grace (3500 or more): 1.5 s of it is room for a loaded machine.
      expect(elapsed).toBeLessThan(3000);
      await waitFor(() => closed, 10_000); // and the process group is still ended
    });
  }

  it("a caller's abort ends the handshake with the caller's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user gave up");
    setTimeout(() => controller.abort(reason), 100);
    await expect(connectToServer("slow", versioned("hang"), { signal: controller.signal })).rejects.toBe(reason);
  });

  it("a command that does not exist fails clearly", async () => {
    await expect(connectToServer("missing", { command: "no-such-mcp-server-binary" })).rejects.toThrow(
      'Failed to start MCP server "missing": command "no-such-mcp-server-binary": command not found (ENOENT); is it installed and on PATH?',
    );
  });

  it("callTool on a server without tools rejects with CapabilityNotSupportedError (a promise, never a throw)", async () => {
    const conn = await connectToServer("bare", {
      ...versioned("2025-06-18"),
      args: [fixture("version-server.mjs"), "2025-06-18", "no-tools"],
    });
    try {
      const call = callTool(conn, "x");
      expect(call).toBeInstanceOf(Promise);
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityNotSupportedError);
      expect((error as Error).message).toBe('MCP server "bare" does not support tools (needed for tools/call)');
    } finally {
      await disconnectServer(conn);
    }
  });

  it("disconnectServer ends the server process; calls afterwards fail with Transport closed", async () => {
    const conn = await connectToServer("v", versioned("2025-06-18"));
    const pid = conn.transport.pid!; // a stdio config gives a StdioTransport: no cast
    expect(isAlive(pid)).toBe(true);
    await disconnectServer(conn);
    expect(isAlive(pid)).toBe(false);
    await expect(callTool(conn, "x")).rejects.toThrow("Transport closed");
  });
});

describe("elicitation defaults (SEP-1034)", () => {
  const params = {
    message: "m",
    requestedSchema: {
      type: "object" as const,
      properties: {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        score: { type: "number", default: 95.5 },
        status: { type: "string", enum: ["active", "inactive"], default: "active" },
        verified: { type: "boolean", default: true },
        nickname: { type: "string" },
      },
    },
  };

  it("fills defaults into an accepted answer without overriding what the user gave", () => {
    expect(applyElicitationDefaults(params, { action: "accept", content: { name: "Ada" } })).toEqual({
      action: "accept",
      content: { name: "Ada", age: 30, score: 95.5, status: "active", verified: true },
    });
  });

  it("leaves declined and cancelled answers alone", () => {
    expect(applyElicitationDefaults(params, { action: "decline" })).toEqual({ action: "decline" });
    expect(applyElicitationDefaults(params, { action: "cancel" })).toEqual({ action: "cancel" });
  });
});

describe("HTTP handshake with a server that holds its GET stream", () => {
  it("does not wait for the GET stream forever", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      if (req.method === "GET") return; // never answers
      let body = "";
      req.on("data", (c) => (body += String(c)));
      req.on("end", () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result:
              message.method === "initialize"
                ? { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "held", version: "1" } }
                : {},
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    try {
      const started = Date.now();
      const conn = await connectToServer("held", { type: "http", url, timeout: 10_000 });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(conn.serverInfo.name).toBe("held");
      await disconnectServer(conn);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("a transport of the caller's own", () => {
  it("gets the same treatment: connect(), the handshake, setProtocolVersion, afterHandshake before initialized", async () => {
    const { StdioTransport } = await import("@mcp/transport-stdio");
    const calls: string[] = [];
    class Recording extends StdioTransport {
      override async connect(): Promise<void> {
        calls.push("connect");
        await super.connect();
      }
      override setProtocolVersion(version: string | undefined): void {
        calls.push(`version ${version}`);
        super.setProtocolVersion(version);
      }
      async afterHandshake(context: { protocolVersion: string; listen: boolean }): Promise<void> {
        calls.push(`afterHandshake ${context.protocolVersion} listen=${context.listen}`);
      }
      override notify(method: string, params?: object): Promise<void> {
        calls.push(method);
        return super.notify(method, params);
      }
    }
    const transport = new Recording({ command: process.execPath, args: [fixture("version-server.mjs"), "2025-06-18"] });
    const conn = await connectToServer("mine", { command: "unused" }, { transport, listen: false });
    try {
      expect(conn.transport).toBe(transport); // typed as Recording
      // The server/discover probe (2026-07-28) fails on this 2025-era server, so: initialize.
      expect(calls).toEqual([
        "connect",
        "version 2026-07-28",
        "version undefined",
        "version 2025-06-18",
        "afterHandshake 2025-06-18 listen=false",
        "notifications/initialized",
      ]);
    } finally {
      await disconnectServer(conn);
    }
  });
});

describe("printing a connection", () => {
  it("shows no env values or credential headers", async () => {
    const conn = await connectToServer("v", { ...versioned("2025-06-18"), env: { API_TOKEN: "s3cr3t-token" } });
    try {
      const printed = inspect(conn, { depth: 6 });
      expect(printed).toContain("API_TOKEN");
      expect(printed).not.toContain("s3cr3t-token");
      expect(conn.config).toMatchObject({ env: { API_TOKEN: "s3cr3t-token" } }); // still there for code
    } finally {
      await disconnectServer(conn);
    }
  });
});
