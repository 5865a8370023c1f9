// The entry a pool shim serves, found among the servers chosen from real config files in a temporary
// HOME and project: a pooled entry's original, the files whose variables matter, the command the
// shim was given compared; and each reason it cannot serve, as a typed error.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  chooseServers,
  createApprovalStore,
  pooledEntry,
  PooledEntryError,
  shimArgs,
  type PooledEntryProblem,
} from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-pooled-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const repo = join(root, "repo");
for (const dir of [home, repo]) mkdirSync(dir, { recursive: true });
const file = join(root, "servers.json");
writeFileSync(
  file,
  JSON.stringify({
    mcpServers: {
      plain: { command: "node", args: ["server.js"], env: { LEVEL: "debug" } },
      pooled: { command: "mcp", args: shimArgs("pooled", "claude:user", "node", ["orig.js", "--flag"]) },
      web: { url: "http://127.0.0.1:9/mcp" },
      loops: { command: "mcp", args: ["--config", "x.json", "daemon", "stdio", "loops"] },
      broken: { command: 5 },
    },
  }),
);
writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: "proj" } } }));
const policy = { store: createApprovalStore({ file: join(root, "approvals.json") }) };
const found = () => chooseServers({ cwd: root, home, files: [file] });

/** The problem and message `pooledEntry` throws for `server`. */
function refusal(chosen: Parameters<typeof pooledEntry>[0], server: string): [PooledEntryProblem, string] {
  try {
    pooledEntry(chosen, server);
  } catch (error) {
    expect(PooledEntryError.isInstance(error)).toBe(true);
    expect((error as PooledEntryError).code).toBe("not_servable");
    expect((error as PooledEntryError).serverName).toBe(server);
    return [(error as PooledEntryError).problem, (error as Error).message];
  }
  throw new Error(`${server} was served`);
}

describe("pooledEntry", () => {
  it("serves a stdio entry as written, naming its file and the files read", async () => {
    const entry = pooledEntry(await found(), "plain");
    expect(entry).toMatchObject({
      config: { command: "node", args: ["server.js"], env: { LEVEL: "debug" } },
      source: file,
      files: expect.arrayContaining([file]) as string[],
      otherCommand: undefined,
    });
  });

  it("serves a pooled entry's original command, and says when the shim was given another", async () => {
    const chosen = await found();
    expect(pooledEntry(chosen, "pooled").config).toMatchObject({ command: "node", args: ["orig.js", "--flag"] });
    // The same words: nothing to say.
    expect(pooledEntry(chosen, "pooled", ["node", "orig.js", "--flag"]).otherCommand).toBeUndefined();
    // Other words (another file's, or unexpanded): the entry wins, and the words given are returned.
    expect(pooledEntry(chosen, "pooled", ["node", "other.js"])).toMatchObject({
      config: { command: "node", args: ["orig.js", "--flag"] },
      otherCommand: ["node", "other.js"],
    });
  });

  it("refuses an HTTP server, an entry that runs the shim itself and one that could not be read", async () => {
    const chosen = await found();
    expect(refusal(chosen, "web")).toEqual([
      "not_stdio",
      'server "web" is an HTTP server: a host reaches it directly, the pool serves stdio servers',
    ]);
    expect(refusal(chosen, "loops")).toEqual(["runs_shim", `server "loops" in ${file} runs mcp daemon stdio itself`]);
    const [problem, message] = refusal(chosen, "broken");
    expect(problem).toBe("invalid");
    expect(message).toMatch(/^server "broken" cannot be served: .+/);
    expect(refusal(chosen, "nobody")).toEqual(["invalid", 'server "nobody" cannot be served']);
  });

  it("refuses a project server not approved, saying why", async () => {
    const chosen = await chooseServers({ cwd: repo, home, policy });
    expect(chosen.skipped).toEqual(["proj"]);
    expect(refusal(chosen, "proj")).toEqual(["not_approved", 'project server "proj" is not served: not approved yet']);
  });
});
