// toolNotFound against real files and servers: a temporary HOME and project (a project server not
// approved, an invalid entry), a fixture server that starts and one that crashes; the words a host
// shows when no tool has the name a person gave, with a host's own ways out on top.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chooseServers,
  createApprovalStore,
  MCPManager,
  MemoryPinStore,
  toolNotFound,
  ToolNotFoundError,
  type ChosenServers,
} from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "mcp-tool-not-found-"));
const [home, repo] = [join(root, "home"), join(root, "home", "repo")];
const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: { maxAttempts: 0 } });
const policy = { store: createApprovalStore({ file: join(root, "approvals.json") }) };
let chosen: ChosenServers;

/** The repo's project servers, as a command finds them (none approved). */
async function choose(project: Record<string, unknown>): Promise<ChosenServers> {
  writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: project }));
  return chooseServers({ cwd: repo, home, policy });
}

beforeAll(async () => {
  mkdirSync(repo, { recursive: true });
  const own = { command: process.execPath, args: [fixture, "--tool", "echo"], timeout: 15_000 };
  const dies = { command: process.execPath, args: [fixture, "--crash"], timeout: 15_000 };
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ mcpServers: { own, dies, bad: { command: 5 } } }));
  chosen = await choose({ proj: { command: "npx", args: ["repo-mcp"] } });
  await manager.connectServers(chosen.configs, chosen.servers);
});
afterAll(async () => {
  await manager.disconnectAll();
  rmSync(root, { recursive: true, force: true });
});

describe("toolNotFound", () => {
  it("on a named server: the closest names there, and where to see them (the host's words)", () => {
    const error = toolNotFound(chosen, manager.getStatuses(), "ecoh", manager.getTools(), {
      server: "own",
      home,
      words: { see: (server) => ` (see: tools ${server})` },
    });
    expect(ToolNotFoundError.isInstance(error)).toBe(true);
    expect([error.code, error.tool, error.serverName, error.near, error.notAsked]).toEqual([
      "unknown_tool",
      "ecoh",
      "own",
      ["echo"],
      [],
    ]);
    expect(error.message).toBe('unknown tool "ecoh" on server "own"; did you mean "echo"? (see: tools own)');
  });

  it("a project server not approved may have it: that it was not asked, why, and the host's way to approve it", () => {
    const error = toolNotFound(chosen, manager.getStatuses(), "search", manager.getTools(), {
      home,
      words: { notApproved: (name) => `; approve ${name}` },
    });
    expect(error.notAsked).toEqual(["proj"]);
    expect(error.message).toBe(
      'none of the servers that started offers tool "search", and it was not asked: server "proj" comes from the project file ~/repo/.mcp.json and is not approved yet (it would run: npx repo-mcp); approve proj',
    );
  });

  it("several project servers not approved: their names, and what approves them all", async () => {
    const two = await choose({ p1: { command: "a" }, p2: { command: "b" } });
    const error = toolNotFound(two, [], "search", [], {
      home,
      words: { approveAll: (names) => ` Approve: ${names.join(" ")}` },
    });
    expect(error.message).toBe(
      'tool "search" may be on a project server, but 2 project servers (p1, p2) are not approved, so they were not asked. Approve: p1 p2',
    );
  });

  it("a tool the started servers offer is not said to be elsewhere; the servers that could not be asked are listed", () => {
    const error = toolNotFound({ ...chosen, skipped: [] }, manager.getStatuses(), "nope", manager.getTools(), {
      home,
      words: { signIn: () => "sign in" },
    });
    const [head, title, ...lines] = error.message.split("\n");
    expect(head).toBe('unknown tool "nope"');
    expect(title).toBe("These servers could not be asked:");
    expect(lines[0]).toMatch(/^ {2}server "dies" failed to start: .*exited with code 1\)$/);
    expect(lines.join("\n")).toContain(`    command: ${process.execPath} ${fixture} --crash`);
    expect(lines.at(-1)).toMatch(/^ {2}server "bad" has an invalid entry in ~\/\.claude\.json: /);
  });
});
