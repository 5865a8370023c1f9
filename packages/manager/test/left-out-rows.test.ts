// The rows a listing adds besides the manager's servers (project servers left out, entries that
// could not be read), chosen from real config files; and a failed row's cause, from a real server
// process that crashes at start with a line on stderr, and from one whose command is not installed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  chooseServers,
  createApprovalStore,
  leftOutRows,
  MCPManager,
  MemoryPinStore,
  rowCause,
  serverRow,
} from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-left-out-"));
const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: false, oauth: false });
afterAll(async () => {
  await manager.disconnectAll();
  rmSync(root, { recursive: true, force: true });
});

describe("leftOutRows", () => {
  it("a row for each project server left out, saying why, and for each entry that could not be read", async () => {
    const home = join(root, "home");
    const repo = join(root, "repo");
    mkdirSync(home, { recursive: true });
    mkdirSync(repo, { recursive: true });
    const project = join(repo, ".mcp.json");
    writeFileSync(
      project,
      JSON.stringify({ mcpServers: { proj: { type: "http", url: "http://127.0.0.1:9/mcp" }, broken: { command: 5 } } }),
    );
    const policy = { store: createApprovalStore({ file: join(root, "approvals.json") }) };
    const found = await chooseServers({ cwd: repo, home, policy });
    const broken = found.configErrors.find((error) => error.server === "broken")!;
    expect(leftOutRows(found)).toEqual([
      {
        name: "proj",
        transport: "http",
        source: project,
        status: "not approved",
        tools: undefined,
        connectMs: undefined,
        lastError: "not approved yet",
      },
      {
        name: "broken",
        transport: "",
        source: project,
        status: "invalid",
        tools: undefined,
        connectMs: undefined,
        lastError: broken.message,
      },
    ]);
  });
});

describe("rowCause", () => {
  it("a crash's cause from its stderr, and a failure's message without the line that names the server", async () => {
    await manager.connectServers({
      crashes: {
        command: process.execPath,
        args: ["-e", "console.error('Error: the database is locked'); process.exit(3)"],
      },
      missing: { command: "no-such-command-for-left-out-rows" },
    });
    const crashed = serverRow(manager.getConnectionStatus("crashes")!);
    expect(crashed.status).toBe("failed");
    expect(crashed.lastError).toContain("stderr");
    expect(rowCause(crashed)).toBe("the database is locked (the process exited with code 3)");
    const missing = serverRow(manager.getConnectionStatus("missing")!);
    expect(missing.lastError).toMatch(/^Failed to start MCP server "missing": /);
    expect(rowCause(missing)).toBe(missing.lastError!.replace('Failed to start MCP server "missing": ', ""));
    expect(rowCause(missing)).toMatch(/^command "no-such-command-for-left-out-rows": command not found/);
  });
});
