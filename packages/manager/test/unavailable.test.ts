// Why a server cannot serve, in the words every host shows: real files in a temporary HOME and
// project (not approved, invalid, disabled), real failing children and HTTP servers on 127.0.0.1
// (a crash, a 404, a 401 with and without a token in the config), a server that dies or hangs
// under a call, and server-everything's prompts found by name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MCPServerConfig } from "@mcp/client";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  callFailure,
  chooseServers,
  createApprovalStore,
  describeConfig,
  didYouMean,
  failureReport,
  findPromptByName,
  MCPManager,
  MemoryPinStore,
  stderrBlock,
  whyNotStartable,
} from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-unavailable-"));
const home = join(root, "home");
const repo = join(root, "repo");
const dies = fileURLToPath(new URL("./fixtures/dies-on-call.mjs", import.meta.url));
const managers: MCPManager[] = [];
let http: Server;
let base = "";

beforeAll(async () => {
  // 404 on /missing, 401 everywhere else: what a wrong path and a refused token look like.
  http = createServer((req, res) => {
    res.writeHead(req.url === "/missing" ? 404 : 401, { "content-type": "text/plain" }).end("no");
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

function manager(): MCPManager {
  const m = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: { maxAttempts: 0 } });
  managers.push(m);
  return m;
}

async function failed(
  name: string,
  config: MCPServerConfig,
): Promise<ReturnType<MCPManager["getConnectionStatus"]> & object> {
  const m = manager();
  await m.connectServers({ [name]: config });
  const status = m.getConnectionStatus(name)!;
  expect(status.state).toBe("failed");
  return status;
}

describe("whyNotStartable", () => {
  it("says why a project server, an invalid entry and a disabled one cannot start, naming their files from ~", async () => {
    for (const dir of [home, repo]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({
        mcpServers: { off: { command: "off", disabled: true }, bad: { command: 5 }, ok: { command: "ok" } },
      }),
    );
    writeFileSync(
      join(repo, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: { command: "npx", args: ["repo-mcp"] } } }),
    );
    const chosen = await chooseServers({
      cwd: repo,
      home,
      policy: { store: createApprovalStore({ file: join(root, "approvals.json") }) },
    });
    expect(chosen.skipped).toEqual(["proj"]);
    expect(whyNotStartable(chosen, "proj", root)).toEqual({
      reason: "not-approved",
      message:
        'server "proj" comes from the project file ~/repo/.mcp.json and is not approved yet (it would run: npx repo-mcp)',
    });
    const invalid = whyNotStartable(chosen, "bad", home);
    expect(invalid?.reason).toBe("invalid");
    expect(invalid?.message).toMatch(/^server "bad" has an invalid entry in ~\/\.claude\.json: /);
    expect(invalid?.message).not.toMatch(/: MCP server "bad" in /); // the file is said once
    expect(whyNotStartable(chosen, "off", home)).toEqual({
      reason: "disabled",
      message: 'server "off" is disabled in ~/.claude.json',
    });
    expect(whyNotStartable(chosen, "ok", home)).toBeUndefined();
  });
});

describe("failureReport", () => {
  it("a stdio server that crashes at start: its cause, its command, and its stderr once", async () => {
    const config = {
      command: process.execPath,
      args: ["-e", "console.error('Error: cannot open the database'); process.exit(1)"],
      timeout: 15_000,
    };
    const status = await failed("db", config);
    const report = failureReport(status, config);
    expect(report).toBe(
      `server "db" failed to start: cannot open the database (the process exited with code 1)\n    command: ${describeConfig(config)}${stderrBlock(status.stderrTail)}`,
    );
    expect(stderrBlock(status.stderrTail)).toBe("\n    stderr: Error: cannot open the database");
  });

  it("an HTTP server with no endpoint at the path: its URL and a hint to check the path", async () => {
    const config: MCPServerConfig = { type: "http", url: `${base}/missing`, timeout: 15_000 };
    const report = failureReport(await failed("web", config), config);
    expect(report).toMatch(
      /^server "web" failed to start: .*\n {4}url: http:\/\/127\.0\.0\.1:\d+\/missing\n {4}hint: there is no MCP endpoint at /,
    );
  });

  it("a 401: sign in (the host's words for how), or the config's own token refused", async () => {
    const plain: MCPServerConfig = { type: "http", url: `${base}/mcp`, timeout: 15_000 };
    const signIn = failureReport(await failed("needs", plain), plain, { signIn: (s) => `run login ${s.name}` });
    expect(signIn).toMatch(/^server "needs" needs authentication: run login needs \(.+\)$/);
    expect(failureReport(await failed("needs", plain), plain)).toMatch(/needs authentication: sign in to it \(/);
    const withToken: MCPServerConfig = { ...plain, headers: { Authorization: "Bearer abc" } };
    const refused = failureReport(await failed("tok", withToken), withToken, { tokenGiven: "given with --header" });
    expect(refused).toBe(
      `server "tok" failed to start: the server refused the token in the Authorization header (HTTP 401): check the token given with --header\n    url: ${base}/mcp`,
    );
  });
});

describe("callFailure", () => {
  it("a server that dies under a call: the cause its stderr names, how it ended, and to check before calling again", async () => {
    const m = manager();
    await m.connectServers({ store: { command: process.execPath, args: [dies], timeout: 15_000 } });
    const tool = m.getTools().find((t) => t.toolName === "die")!;
    const error = await tool.call({}).catch((e: unknown) => e);
    expect(callFailure(error, "calling store.die")).toEqual({
      kind: "may-have-run",
      message:
        "calling store.die: the server stopped during the call: the disk is full (the process exited with code 1). Check whether it took effect before calling it again.\n    stderr: Error: the disk is full",
    });
  });

  it("a call that gets no answer in time says how long; any other error is not its to word", async () => {
    const m = manager();
    await m.connectServers({ store: { command: process.execPath, args: [dies], timeout: 15_000 } });
    const tool = m.getTools().find((t) => t.toolName === "hang")!;
    const error = await tool.call({}, { timeout: 300 }).catch((e: unknown) => e);
    expect(callFailure(error, "calling store.hang")).toEqual({
      kind: "timeout",
      message: "calling store.hang timed out after 300ms",
    });
    expect(callFailure(new Error("boom"), "calling x")).toBeUndefined();
  });
});

describe("findPromptByName and didYouMean", () => {
  it("server.prompt names one; a bare name every server's; the rest are there for did-you-mean", async () => {
    const m = manager();
    const everything = { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 };
    await m.connectServers({ a: everything, b: everything });
    const dotted = await findPromptByName(m, "b.simple-prompt", ["a", "b"]);
    expect(dotted.matches.map((p) => `${p.server}.${p.prompt.name}`)).toEqual(["b.simple-prompt"]);
    const bare = await findPromptByName(m, "simple-prompt", ["a", "b"]);
    expect(bare.matches.map((p) => p.server)).toEqual(["a", "b"]);
    const none = await findPromptByName(m, "simple-promp", ["a"]);
    expect(none.matches).toEqual([]);
    expect(
      didYouMean(
        "simple-promp",
        none.all.map((p) => p.prompt.name),
      ),
    ).toBe('; did you mean "simple-prompt"?');
    expect(didYouMean("zzz", ["echo"])).toBe("");
  });
});
