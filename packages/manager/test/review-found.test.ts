// The project servers among those a command found, reviewed before anything starts: approved ones
// stay and are marked approved, the others are left out with the reason; the policy is asked once,
// and not at all when there is no project server. Real files in a temporary HOME and project.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createApprovalStore,
  loadAllMCPConfigs,
  NOT_APPROVED_YET,
  reviewProjectServers,
  type ApprovalRequest,
} from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-review-found-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const repo = join(root, "repo");
mkdirSync(join(home, ".cursor"), { recursive: true });
mkdirSync(repo, { recursive: true });
writeFileSync(join(home, ".cursor", "mcp.json"), JSON.stringify({ mcpServers: { mine: { command: "mine" } } }));
writeFileSync(
  join(repo, ".mcp.json"),
  JSON.stringify({ mcpServers: { good: { command: "good" }, bad: { command: "bad" }, unused: { command: "x" } } }),
);
const load = { home, env: {} };

describe("reviewProjectServers", () => {
  it("keeps the approved project servers (marked approved) and user servers; leaves out the rest, with why", async () => {
    const loaded = await loadAllMCPConfigs(repo, load);
    const { unused: _left, ...configs } = loaded.configs;
    const asked: string[][] = [];
    const store = createApprovalStore({ file: join(root, "approvals.json") });
    const reviewed = await reviewProjectServers(
      { configs, servers: loaded.servers },
      {
        project: repo,
        policy: {
          store,
          approve: (requests: readonly ApprovalRequest[]) => {
            asked.push(requests.map((request) => request.server.name));
            return ["good"];
          },
        },
      },
    );
    // Only the project servers the command would start are asked about, once.
    expect(asked).toEqual([["good", "bad"]]);
    expect(Object.keys(reviewed.configs).sort()).toEqual(["good", "mine"]);
    expect(reviewed.skipped).toEqual(["bad"]);
    expect([...reviewed.whySkipped]).toEqual([["bad", NOT_APPROVED_YET]]);
    expect(reviewed.servers["good"]!.approved).toBe(true);
    expect(reviewed.servers["bad"]!.approved).not.toBe(true);
    // What was given is left as it was.
    expect(loaded.servers["good"]!.approved).not.toBe(true);
    expect(Object.keys(configs).sort()).toEqual(["bad", "good", "mine"]);
  });

  it("without a policy's approve, no project server starts unless the store covers it", async () => {
    const loaded = await loadAllMCPConfigs(repo, load);
    const store = createApprovalStore({ file: join(root, "remembered.json") });
    await store.remember(repo, [loaded.servers["bad"]!]);
    const reviewed = await reviewProjectServers(loaded, { project: repo, policy: { store } });
    expect(Object.keys(reviewed.configs).sort()).toEqual(["bad", "mine"]);
    expect(reviewed.skipped).toEqual(["good", "unused"]);
  });

  it("no project server among those given: nothing is asked, nothing left out", async () => {
    const loaded = await loadAllMCPConfigs(repo, load);
    const reviewed = await reviewProjectServers(
      { configs: { mine: loaded.configs["mine"]! }, servers: loaded.servers },
      {
        project: repo,
        policy: {
          approve: () => {
            throw new Error("asked");
          },
        },
      },
    );
    expect(reviewed).toMatchObject({ configs: { mine: loaded.configs["mine"] }, skipped: [] });
    expect(reviewed.whySkipped.size).toBe(0);
  });
});
