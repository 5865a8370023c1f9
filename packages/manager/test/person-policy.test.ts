// personPolicy (a person's run: --yes, a question, else skip and say) and approveProjectServers
// (`mcp config approve`'s choice and write), on real config and approvals files in a temporary
// project; the CLI's end-to-end tests of both stay in apps/cli/test.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  approveProjectServers,
  createApprovalStore,
  loadAllMCPConfigs,
  NotProjectServerError,
  personPolicy,
  reviewApprovals,
  type ApprovalRequest,
  type DiscoveredServer,
  type LoadOptions,
} from "../src/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with two servers of its own (`a`, `b`), a user file with `mine`, and an approvals file. */
function project() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-person-")));
  dirs.push(root);
  const [home, repo] = [join(root, "home"), join(root, "repo")];
  const write = (file: string, doc: object): void => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc));
  };
  const userFile = join(home, ".config", "mcp-client", "mcp-client.json");
  write(userFile, { servers: { mine: { command: "node", args: ["mine.js"] } } });
  const projectServers = (b = "b.js") => ({
    servers: { a: { command: "node", args: ["a.js"] }, b: { command: "node", args: [b] } },
  });
  write(join(repo, "mcp-client.json"), projectServers());
  const options: LoadOptions = { home, env: { HOME: home }, platform: "linux" };
  const approvals = join(root, "approvals.json");
  return {
    repo,
    userFile,
    approvals,
    store: createApprovalStore({ file: approvals }),
    load: () => loadAllMCPConfigs(repo, options),
    /** Changes what `b` runs. */
    changeB: () => write(join(repo, "mcp-client.json"), projectServers("other.js")),
  };
}

const projectOnes = (servers: Record<string, DiscoveredServer>) =>
  Object.values(servers).filter((s) => s.source.scope === "project");

describe("personPolicy", () => {
  it("yes starts every project server asked about and remembers nothing; without ask none starts and skipped hears of those not declined", async () => {
    const p = project();
    const servers = projectOnes((await p.load()).servers);
    const yes = await reviewApprovals(servers, {
      project: p.repo,
      policy: personPolicy({ store: p.store, yes: true }),
    });
    expect([...yes.approved].sort()).toEqual(["a", "b"]);
    expect(await p.store.isApproved(p.repo, servers[0]!)).toBe(false);

    await p.store.deny(p.repo, ["a"]);
    const skipped: string[][] = [];
    const policy = personPolicy({ store: p.store, skipped: (r) => void skipped.push(r.map((x) => x.server.name)) });
    const no = await reviewApprovals(servers, { project: p.repo, policy });
    expect(no.approved.size).toBe(0);
    expect([...no.refused.keys()].sort()).toEqual(["a", "b"]);
    expect(skipped).toEqual([["b"]]);
    // Every one declined: skipped is not told at all.
    await p.store.deny(p.repo, ["b"]);
    await reviewApprovals(servers, { project: p.repo, policy });
    expect(skipped).toEqual([["b"]]);
  });

  it("with ask, a person's yes starts and remembers them, a no declines them for the project (askingPolicy)", async () => {
    const p = project();
    const servers = projectOnes((await p.load()).servers);
    const asked: ApprovalRequest[][] = [];
    const answer = (yes: boolean) =>
      personPolicy({ store: p.store, ask: (r) => (asked.push([...r]), yes), skipped: () => expect.unreachable() });
    const no = await reviewApprovals(servers, { project: p.repo, policy: answer(false) });
    expect(no.approved.size).toBe(0);
    expect(no.refused.get("a")).toContain("declined");
    expect(await p.store.isApproved(p.repo, servers[0]!)).toBe(false);

    const other = project();
    const fresh = projectOnes((await other.load()).servers);
    const yes = await reviewApprovals(fresh, {
      project: other.repo,
      policy: personPolicy({ store: other.store, ask: () => true }),
    });
    expect([...yes.approved].sort()).toEqual(["a", "b"]);
    expect(await other.store.isApproved(other.repo, fresh[1]!)).toBe(true);
    expect(asked.map((r) => r.map((x) => x.server.name))).toEqual([["a", "b"]]);
  });
});

describe("approveProjectServers", () => {
  it("approves the project servers named (all when none is) as loaded: a later change to one asks again", async () => {
    const p = project();
    const loaded = await p.load();
    const chosen = await approveProjectServers(loaded, ["b"], { project: p.repo, approvals: p.approvals });
    expect(chosen?.map((s) => s.name)).toEqual(["b"]);
    const again = await p.load();
    expect(await p.store.isApproved(p.repo, again.servers["b"]!)).toBe(true);
    expect(await p.store.isApproved(p.repo, again.servers["a"]!)).toBe(false);
    // What was approved is what was loaded: the file changed since is not covered.
    p.changeB();
    expect(await p.store.isApproved(p.repo, (await p.load()).servers["b"]!)).toBe(false);

    const all = await approveProjectServers(await p.load(), [], { project: p.repo, approvals: p.approvals });
    expect(all?.map((s) => s.name)).toEqual(["a", "b"]);
    expect(await p.store.isApproved(p.repo, (await p.load()).servers["b"]!)).toBe(true);
  });

  it("confirm sees the servers first; its no approves nothing and declines nothing", async () => {
    const p = project();
    const seen: string[][] = [];
    const chosen = await approveProjectServers(await p.load(), [], {
      project: p.repo,
      approvals: p.approvals,
      confirm: (servers) => (seen.push(servers.map((s) => s.name)), false),
    });
    expect(chosen).toBeUndefined();
    expect(seen).toEqual([["a", "b"]]);
    const checks = await p.store.check(p.repo, projectOnes((await p.load()).servers));
    expect(checks.map((c) => [c.approved, !c.approved && c.declined])).toEqual([
      [false, false],
      [false, false],
    ]);
  });

  it("a name that is no project server is a NotProjectServerError, with the file of a user's entry of that name; nothing approved", async () => {
    const p = project();
    const loaded = await p.load();
    const refuse = (names: string[]) =>
      approveProjectServers(loaded, names, { project: p.repo, approvals: p.approvals }).catch((e: unknown) => e);
    const mine = await refuse(["a", "mine"]);
    expect(mine).toBeInstanceOf(NotProjectServerError);
    expect(mine).toMatchObject({ code: "unknown_server", serverName: "mine", file: p.userFile });
    expect((mine as Error).message).toBe(`"mine" is not a project server (${p.userFile}): it needs no approval`);
    const nope = await refuse(["nope"]);
    expect(nope).toMatchObject({ serverName: "nope", file: undefined, message: 'no project server named "nope"' });
    expect(await p.store.isApproved(p.repo, loaded.servers["a"]!)).toBe(false);
    // A project that defines none: nothing to approve, nothing asked.
    const none = { ...loaded, servers: { mine: loaded.servers["mine"]! } };
    expect(await approveProjectServers(none, [], { project: p.repo, confirm: () => expect.unreachable() })).toEqual([]);
  });
});
