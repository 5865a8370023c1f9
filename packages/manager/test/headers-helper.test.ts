// headersHelper against the official SDK server behind a gate that takes one bearer token at a
// time (rotated by the test), with helpers that are real shell commands.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSdkServer, type SdkServer } from "mcp-test-utils";
import { parseHelperOutput as parseHelperOutputForTest } from "../src/headers-helper.js";
import { MCPManager, MemoryPinStore } from "../src/index.js";

let dir: string;
let sdk: SdkServer;
let gate: Server;
let gateUrl: string;
let valid: string;
let managers: MCPManager[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-helper-"));
  sdk = await startSdkServer({ json: true });
  valid = "token-1";
  const target = new URL(sdk.url);
  gate = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${valid}`) {
      req.resume();
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end();
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders(); // an event stream's head goes at once, as the server sent it
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
  gateUrl = `http://127.0.0.1:${(gate.address() as { port: number }).port}/mcp`;
});

afterEach(async () => {
  await Promise.all(managers.map((m) => m.disconnectAll()));
  managers = [];
  gate.closeAllConnections();
  await new Promise<void>((resolve) => gate.close(() => resolve()));
  await sdk.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A helper script: prints `{"Authorization": "Bearer <token file>"}` and counts its runs. */
function helper(body?: string): string {
  const script = join(dir, "helper.mjs");
  writeFileSync(
    script,
    body ??
      `import { appendFileSync, readFileSync } from "node:fs";
appendFileSync(${JSON.stringify(join(dir, "runs"))}, process.env.CLAUDE_CODE_MCP_SERVER_NAME + "\\n");
process.stdout.write(JSON.stringify({ Authorization: "Bearer " + readFileSync(${JSON.stringify(join(dir, "token"))}, "utf8").trim() }));`,
  );
  writeFileSync(join(dir, "token"), valid);
  return `"${process.execPath}" "${script}"`;
}

function runs(): number {
  try {
    return readFileSync(join(dir, "runs"), "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

function manager(): MCPManager {
  const m = new MCPManager({
    pins: { store: new MemoryPinStore() },
    cacheDir: join(dir, "cache"),
    reconnect: false,
    oauth: false,
  });
  managers.push(m);
  return m;
}

describe("headersHelper", () => {
  it("runs at connect, its headers reach the server, and they are kept for their time", async () => {
    const m = manager();
    const result = await m.connectServers({ gated: { type: "http", url: gateUrl, headersHelper: helper() } as never });
    expect(result.errors.size).toBe(0);
    const conn = m.getConnection("gated")!;
    expect(conn).toBeDefined();
    expect(sdk.requests.some((r) => r.headers.authorization === "Bearer token-1")).toBe(true);
    await m.reconnectServer("gated");
    expect(runs()).toBe(1);
  });

  it("runs again on a 401, and the call goes through with the new headers", async () => {
    const m = manager();
    await m.connectServers({ gated: { type: "http", url: gateUrl, headersHelper: helper() } as never });
    valid = "token-2";
    writeFileSync(join(dir, "token"), "token-2");
    const tool = m.getTools().find((t) => t.toolName === "add")!;
    await expect(tool.call({ a: 1, b: 2 })).resolves.toMatchObject({ content: [{ type: "text", text: "3" }] });
    expect(runs()).toBe(2);
  });

  it("a helper that fails is an error naming the server and quoting its stderr; no server request is made", async () => {
    const m = manager();
    const command = helper(`process.stderr.write("vault: login required\\n"); process.exit(3);`);
    const result = await m.connectServers({ gated: { type: "http", url: gateUrl, headersHelper: command } as never });
    expect(result.errors.get("gated")).toMatch(
      /MCP server "gated": headersHelper exited with code 3\nstderr:\nvault: login required/,
    );
    expect(sdk.requests).toEqual([]);
  });

  it("output that could inject a header line, or that is not JSON, is refused without quoting it", async () => {
    const m = manager();
    const injected = helper(
      `process.stdout.write(JSON.stringify({ Authorization: "Bearer s3cr3t\\r\\nX-Injected: 1" }));`,
    );
    const result = await m.connectServers({ gated: { type: "http", url: gateUrl, headersHelper: injected } as never });
    expect(result.errors.get("gated")).toContain(
      'printed header "Authorization", which has a character a header value cannot hold (a control character such as CR or LF',
    );
    expect(result.errors.get("gated")).not.toContain("s3cr3t");
    expect(parseHelperOutputForTest("Bearer s3cr3t")).toBe(
      "did not print JSON (it must print one JSON object of header names to string values)",
    );
    expect(parseHelperOutputForTest('{"Mcp-Session-Id": "x"}')).toBe(
      'printed header "Mcp-Session-Id", which the transport sets itself',
    );
    expect(parseHelperOutputForTest('{"X-Count": 3}')).toBe(
      'printed a number for header "X-Count"; values must be strings',
    );
  });

  it("a project file's helper does not run until the server is approved", async () => {
    const m = manager();
    const command = helper();
    const config = { type: "http", url: gateUrl, headersHelper: command } as never;
    const source = { family: "claude-code", scope: "project", file: join(dir, ".mcp.json") } as const;
    const refused = await m.connectServers(
      { gated: config },
      { gated: { name: "gated", config, source, enabled: true } },
    );
    // Refused before anything runs: the approval policy (see approvals.test.ts) has no approval for it.
    expect(refused.errors.get("gated")).toContain("project server not approved yet");
    expect(m.getConnectionStatus("gated")?.state).toBe("not-approved");
    expect(runs()).toBe(0);
    const approved = await m.connectServers(
      { gated: config },
      { gated: { name: "gated", config, source, enabled: true, approved: true } },
    );
    expect(approved.errors.size).toBe(0);
    expect(runs()).toBe(1);
  });
});
