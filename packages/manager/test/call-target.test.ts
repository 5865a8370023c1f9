// The server a command names started and the tool a call's words name found (checkStartable,
// startNamedServer, findCallTool, serversForWords, connectedServers, startServersNamed), against
// real files and servers: a temporary HOME and project (a project server not approved, which logs
// every request it gets, so that it never starting is seen; an invalid entry), fixture servers
// that start and one that crashes; each failure a typed error with a host's words on top.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AmbiguousToolError,
  checkStartable,
  chooseServers,
  connectedServers,
  createApprovalStore,
  findCallTool,
  MCPManager,
  MemoryPinStore,
  NoToolNamedError,
  ServerNotStartedError,
  serversForWords,
  startNamedServer,
  startServersNamed,
  ToolNotFoundError,
  type ChosenServers,
  type StartWords,
} from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "mcp-call-target-"));
const [home, repo] = [join(root, "home"), join(root, "home", "repo")];
/** Every request the project server gets: the file exists once it was started. */
const projLog = join(root, "proj.log");
const words: StartWords = { notApproved: (name) => `; approve ${name}`, notChosen: " (see: servers)" };
let chosen: ChosenServers;

const managers: MCPManager[] = [];
function manager(): MCPManager {
  const m = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: { maxAttempts: 0 } });
  managers.push(m);
  return m;
}
const states = (m: MCPManager) => Object.fromEntries(m.getStatuses().map((s) => [s.name, s.state]));

beforeAll(async () => {
  mkdirSync(repo, { recursive: true });
  const server = (...args: string[]) => ({ command: process.execPath, args: [fixture, ...args], timeout: 15_000 });
  writeFileSync(
    join(home, ".claude.json"),
    JSON.stringify({
      mcpServers: {
        own: server("--tool", "echo", "--tool", "alpha"),
        twin: server("--tool", "echo"),
        dies: server("--crash"),
        bad: { command: 5 },
      },
    }),
  );
  const proj = { ...server("--tool", "search"), env: { FIXTURE_LOG: projLog } };
  writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { proj } }));
  chosen = await chooseServers({
    cwd: repo,
    home,
    policy: { store: createApprovalStore({ file: join(root, "approvals.json") }) },
  });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The error `run` fails with. */
async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("checkStartable", () => {
  it("a project server not approved: why, its file and what it would run, and the host's way to approve it", async () => {
    const error = await failure(() => checkStartable(chosen, "proj", { home, words }));
    expect(ServerNotStartedError.isInstance(error)).toBe(true);
    const e = error as ServerNotStartedError;
    expect([e.code, e.serverName, e.reason]).toEqual(["server_unavailable", "proj", "not-approved"]);
    expect(e.message).toBe(
      `server "proj" comes from the project file ~/repo/.mcp.json and is not approved yet (it would run: ${process.execPath} ${fixture} --tool search); approve proj`,
    );
  });

  it("an invalid entry says where; a server that may start passes", async () => {
    const error = (await failure(() => checkStartable(chosen, "bad", { home }))) as ServerNotStartedError;
    expect([error.reason, error.serverName]).toEqual(["invalid", "bad"]);
    expect(error.message).toMatch(/^server "bad" has an invalid entry in ~\/\.claude\.json: /);
    expect(() => checkStartable(chosen, "own", { home })).not.toThrow();
  });
});

describe("startNamedServer", () => {
  it("starts only the server named and waits for it", async () => {
    const m = manager();
    await m.addServers(chosen.configs, chosen.servers);
    await startNamedServer(m, chosen, "own", { home });
    expect(states(m)).toEqual({ own: "connected", twin: "idle", dies: "idle" });
  });

  it("one that is not one of the servers chosen, and one that failed: typed, with why", async () => {
    const m = manager();
    await m.addServers(chosen.configs, chosen.servers);
    const nope = (await failure(() => startNamedServer(m, chosen, "nope", { home, words }))) as ServerNotStartedError;
    expect([nope.reason, nope.message]).toEqual([
      "not-chosen",
      `server "nope" is not one of this command's servers (see: servers)`,
    ]);
    const dies = (await failure(() => startNamedServer(m, chosen, "dies", { home }))) as ServerNotStartedError;
    expect(ServerNotStartedError.isInstance(dies)).toBe(true);
    expect(dies.reason).toBe("failed");
    expect(dies.message).toMatch(/^server "dies" failed to start: .*exited with code 1\)\n {4}command: /);
    expect(dies.message).toContain("stderr: fatal: cannot open the database");
  });

  it("an unapproved project server never starts", async () => {
    const m = manager();
    await m.addServers(chosen.configs, chosen.servers);
    const error = (await failure(() => startNamedServer(m, chosen, "proj", { home }))) as ServerNotStartedError;
    expect(error.reason).toBe("not-approved");
    expect(m.getConnectionStatus("proj")).toBeUndefined();
    expect(existsSync(projLog)).toBe(false);
  });
});

describe("findCallTool", () => {
  it("server.tool starts that server alone; the words after the tool are its arguments", async () => {
    const m = manager();
    const { tool, rest } = await findCallTool(m, chosen, ["own.alpha", "message=hi", "x=1"], { home });
    expect([tool.serverName, tool.toolName, rest]).toEqual(["own", "alpha", ["message=hi", "x=1"]]);
    expect(states(m)).toEqual({ own: "connected", twin: "idle", dies: "idle" });
    const result = await tool.call({ message: "hi" });
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^alpha: hi/) });
  });

  it("a bare name offered by one server is found; by several is ambiguous; no words name no tool", async () => {
    const m = manager();
    const { tool } = await findCallTool(m, chosen, ["alpha"], { home });
    expect(tool.name).toBe("mcp__own__alpha");
    const ambiguous = await failure(() => findCallTool(m, chosen, ["echo"], { home }));
    expect(AmbiguousToolError.isInstance(ambiguous)).toBe(true);
    expect([(ambiguous as AmbiguousToolError).code, (ambiguous as AmbiguousToolError).matches]).toEqual([
      "ambiguous_tool",
      ["own.echo", "twin.echo"],
    ]);
    expect((ambiguous as Error).message).toBe(
      'tool "echo" is offered by several servers: own.echo, twin.echo; name one as server.tool',
    );
    const none = await failure(() => findCallTool(m, chosen, [], { home }));
    expect(NoToolNamedError.isInstance(none)).toBe(true);
    expect((none as NoToolNamedError).code).toBe("no_tool_named");
  });

  it("a tool nobody offers: the unapproved project server was not asked (and never started)", async () => {
    const m = manager();
    const error = await failure(() => findCallTool(m, chosen, ["search"], { home, words }));
    expect(ToolNotFoundError.isInstance(error)).toBe(true);
    expect((error as ToolNotFoundError).notAsked).toEqual(["proj"]);
    expect((error as Error).message).toMatch(/^none of the servers that started offers tool "search", and it was not/);
    expect((error as Error).message).toMatch(/; approve proj$/);
    const named = await failure(() => findCallTool(m, chosen, ["proj.search"], { home, words }));
    expect([(named as ServerNotStartedError).reason, (named as ServerNotStartedError).serverName]).toEqual([
      "not-approved",
      "proj",
    ]);
    expect(m.getConnectionStatus("proj")).toBeUndefined();
    expect(existsSync(projLog)).toBe(false);
  });

  it("a tool the named server does not offer: its closest names, the server named", async () => {
    const error = (await failure(() =>
      findCallTool(manager(), chosen, ["own", "alpah"], { home }),
    )) as ToolNotFoundError;
    expect([error.code, error.tool, error.serverName, error.near[0]]).toEqual([
      "unknown_tool",
      "alpah",
      "own",
      "alpha",
    ]);
  });
});

describe("serversForWords", () => {
  it("the server the words name, else every one", () => {
    expect(serversForWords(chosen, ["twin.echo"])).toEqual(["twin"]);
    expect(serversForWords(chosen, ["own", "alpha"])).toEqual(["own"]);
    expect(serversForWords(chosen, ["echo"])).toEqual(["own", "twin", "dies"]);
    expect(serversForWords(chosen, [])).toEqual(["own", "twin", "dies"]);
  });
});

describe("startServersNamed and connectedServers", () => {
  it("the server named alone, or every one: the names of those connected", async () => {
    const one = manager();
    expect(await startServersNamed(one, chosen, "twin", { home })).toEqual(["twin"]);
    expect(states(one)).toEqual({ own: "idle", twin: "connected", dies: "idle" });
    const all = manager();
    expect((await startServersNamed(all, chosen, undefined, { home })).sort()).toEqual(["own", "twin"]);
    expect(states(all)).toEqual({ own: "connected", twin: "connected", dies: "failed" });
    expect(await connectedServers(all, chosen, "own")).toEqual(["own"]);
    const unapproved = await failure(() => startServersNamed(manager(), chosen, "proj", { home }));
    expect((unapproved as ServerNotStartedError).reason).toBe("not-approved");
    expect(existsSync(projLog)).toBe(false);
  });
});
