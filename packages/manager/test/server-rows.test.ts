// Every row a listing shows, from real config files (a user file and a project's .mcp.json) and a
// manager running what they name: a stdio server, one that crashes at start with a line on
// stderr, a loopback HTTP server that refuses every request with a 401 (needs a sign-in), and one
// whose config sends a token it refuses; plus a project server left out and an entry not readable.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chooseServers,
  createApprovalStore,
  MCPManager,
  MemoryPinStore,
  serverRows,
  OWN_FILE,
  userConfigDir,
  type ChosenServers,
} from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "mcp-server-rows-"));
const home = join(root, "home");
const repo = join(root, "repo");
const userFile = join(userConfigDir({ home, platform: process.platform, env: process.env }), OWN_FILE);
let refusing: Server;
let manager: MCPManager;
let found: ChosenServers;

beforeAll(async () => {
  refusing = createServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(refusing.address() as { port: number }).port}/mcp`;
  mkdirSync(dirname(userFile), { recursive: true });
  mkdirSync(repo, { recursive: true });
  writeFileSync(
    userFile,
    JSON.stringify({
      mcpServers: {
        fine: { command: process.execPath, args: [fixture] },
        crashy: { command: process.execPath, args: [fixture, "--crash"] },
        locked: { type: "http", url },
        token: { type: "http", url, headers: { Authorization: "Bearer nope" } },
      },
    }),
  );
  writeFileSync(
    join(repo, ".mcp.json"),
    JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [fixture] }, broken: { command: 5 } } }),
  );
  const policy = { store: createApprovalStore({ file: join(root, "approvals.json") }) };
  found = await chooseServers({ cwd: repo, home, policy });
  manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: false, oauth: false });
  await manager.connectServers(found.configs, found.servers);
});
afterAll(async () => {
  await manager?.disconnectAll();
  refusing?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("serverRows", () => {
  it("the manager's servers, each error once, then the project servers left out and the entries not read", () => {
    const rows = serverRows(manager, found);
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ["fine", "connected"],
      ["crashy", "failed"],
      ["locked", "needs authentication"],
      ["token", "failed"],
      ["proj", "not approved"],
      ["broken", "invalid"],
    ]);
    const row = (name: string) => rows.find((r) => r.name === name)!;
    expect(row("fine")).toMatchObject({ source: userFile, lastError: undefined });
    expect(row("fine").tools).toBeGreaterThan(0);
    // A crash's stderr is in its tail, not repeated in its error.
    const crashy = manager.getConnectionStatus("crashy")!;
    expect(crashy.lastError).toContain("stderr:");
    expect(row("crashy").stderrTail).toBe(crashy.stderrTail);
    expect(row("crashy").lastError).toBe(crashy.lastError!.slice(0, crashy.lastError!.indexOf("\nstderr:")).trim());
    // Signing in is the way out: said first, the error after it.
    expect(row("locked").lastError).toBe(`sign in (${manager.getConnectionStatus("locked")!.lastError})`);
    // The token the config sends was refused: where it is, not a sign-in.
    expect(row("token").lastError).toBe(
      `the server refused the token in the Authorization header (HTTP 401): check the token in "headers" of its config (${userFile})`,
    );
    expect(row("proj")).toMatchObject({ transport: "stdio", lastError: "not approved yet" });
    expect(row("broken").lastError).toBe(found.configErrors[0]!.message);
  });

  it("the host's words: where each server comes from, its way to sign in, where a token was given, a project server's way in", () => {
    const rows = serverRows(manager, found, {
      source: (name) => `from ${name}`,
      signIn: (s) => `run: sign-in ${s.name}`,
      tokenGiven: "on the command line",
      notApproved: (row) => `left out: ${row.lastError}; approve ${row.name}`,
    });
    const row = (name: string) => rows.find((r) => r.name === name)!;
    expect(row("fine").source).toBe("from fine");
    expect(row("locked").lastError).toBe(`run: sign-in locked (${manager.getConnectionStatus("locked")!.lastError})`);
    expect(row("proj").lastError).toBe("left out: not approved yet; approve proj");
    // Rows the manager does not run keep their file.
    expect(row("proj").source).toBe(join(repo, ".mcp.json"));
    // A token given by the host (no config file): where the host says.
    const given = { ...manager.getConnectionStatus("token")!, source: undefined };
    const one = serverRows({ getStatuses: () => [given] }, found, { tokenGiven: "on the command line" });
    expect(one[0]!.lastError).toContain("check the token on the command line");
  });
});
