// diagnoseServers: one finding a server, against real files in a temporary HOME and project, real
// children (server-everything, a crash, a missing command, one that never answers) and an HTTP
// server on 127.0.0.1 that answers 401.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseServers, createApprovalStore, diagnoseServers, MCPManager, MemoryPinStore } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-doctor-"));
const home = join(root, "home");
const repo = join(root, "repo");
let http: Server;
let manager: MCPManager | undefined;

beforeAll(async () => {
  http = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { "content-type": "text/plain" }).end("no");
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await manager?.disconnectAll();
  await new Promise((resolve) => http.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe("diagnoseServers", () => {
  it("says for each server whether it connected, and why not: its kind, in words, with its stderr apart", async () => {
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
    for (const dir of [home, repo]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({
        mcpServers: {
          ev: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 30_000 },
          nocmd: { command: "definitely-not-installed-xyz" },
          tok: { type: "http", url, headers: { Authorization: "Bearer sometoken" } },
          plain: { type: "http", url },
          slow: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], timeout: 300 },
          crash: { command: process.execPath, args: ["-e", "console.error('Error: no key'); process.exit(3)"] },
          unset: { command: "echo", args: ["${DOCTOR_UNSET_VARIABLE}"] },
        },
      }),
    );
    writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: "npx", args: ["x"] } } }));
    const chosen = await chooseServers({
      cwd: repo,
      home,
      policy: { store: createApprovalStore({ file: join(root, "approvals.json") }) },
    });
    manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: { maxAttempts: 0 } });
    await manager.connectServers(chosen.configs, chosen.servers);

    const findings = diagnoseServers(chosen, manager.getStatuses(), { cwd: repo, home, tokenGiven: "given here" });
    const by = Object.fromEntries(findings.map((f) => [f.server, f]));
    expect(findings.map((f) => f.server)).toEqual(["unset", "proj", ...manager.getStatuses().map((s) => s.name)]);
    expect(by["unset"]).toMatchObject({ ok: false, kind: "invalid", stderr: "" });
    expect(by["unset"]!.finding).toMatch(
      /environment variable "DOCTOR_UNSET_VARIABLE" is not set and has no default; set it \(export DOCTOR_UNSET_VARIABLE=…\) or give a default: \$\{DOCTOR_UNSET_VARIABLE:-value\}$/,
    );
    expect(by["proj"]).toMatchObject({
      kind: "not-approved",
      finding: "a project server that is not approved (not approved yet)",
    });
    expect(by["ev"]).toMatchObject({ ok: true, kind: "connected", stderr: "" });
    expect(by["ev"]!.finding).toMatch(/^connected in \d+ ms, \d+ tools$/);
    expect(by["nocmd"]).toMatchObject({
      kind: "not-installed",
      finding: 'command "definitely-not-installed-xyz" is not installed or not on PATH (~/.claude.json)',
    });
    expect(by["tok"]).toMatchObject({ kind: "token-refused" });
    expect(by["tok"]!.finding).toBe(
      `the server refused the token in the Authorization header (HTTP 401): check the token in "headers" of its config (${join(home, ".claude.json")})`,
    );
    expect(by["plain"]).toMatchObject({ kind: "needs-sign-in" });
    expect(by["plain"]!.finding).toMatch(/^needs authorization \((OAuth|HTTP 401)\): /);
    expect(by["slow"]).toMatchObject({ kind: "timeout" });
    expect(by["slow"]!.finding).toMatch(/timed out after 300ms/);
    expect(by["crash"]).toMatchObject({ kind: "failed", finding: "no key (the process exited with code 3)" });
    expect(by["crash"]!.stderr).toBe("\n    stderr: Error: no key");
    expect(findings.filter((f) => f.ok).map((f) => f.server)).toEqual(["ev"]);
  });
});
