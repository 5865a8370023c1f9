// poolHost: every file of a host family here pooled (or unpooled) at once, one scope's when asked,
// a file that stops listed with its error while the others go on. Moved from the CLI's `mcp hosts
// pool | unpool` (its e2e tests stay in apps/cli/test/hosts.test.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hostStatus, poolHost, poolState } from "../src/index.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function place(): Promise<{
  l: { home: string; cwd: string; platform: NodeJS.Platform; env: Record<string, string | undefined> };
  user: string;
  project: string;
  backupDir: string;
}> {
  const root = await mkdtemp(join(tmpdir(), "mcp-pool-host-"));
  roots.push(root);
  const home = join(root, "home");
  const cwd = join(root, "project");
  const user = join(home, ".cursor", "mcp.json");
  const project = join(cwd, ".cursor", "mcp.json");
  for (const file of [user, project]) await mkdir(join(file, ".."), { recursive: true });
  await writeFile(user, JSON.stringify({ mcpServers: { files: { command: "npx", args: ["-y", "fs"] } } }, null, 2));
  await writeFile(project, JSON.stringify({ mcpServers: { local: { command: "node", args: ["s.js"] } } }, null, 2));
  return { l: { home, cwd, platform: "linux", env: {} }, user, project, backupDir: join(root, "backups") };
}

describe("poolHost", () => {
  it("pools every file of the family, then undoes it byte for byte; one scope only when asked", async () => {
    const { l, user, project, backupDir } = await place();
    const before = [await readFile(user, "utf8"), await readFile(project, "utf8")];
    const only = await poolHost(l, "cursor", { backupDir, home: l.home, scope: "user" });
    expect(only.files.map((o) => [o.scope, o.action, o.entries])).toEqual([["user", "pooled", ["files"]]]);
    expect(await readFile(project, "utf8")).toBe(before[1]);
    const all = await poolHost(l, "cursor", { backupDir, home: l.home });
    expect(all.files.map((o) => [o.scope, o.action])).toEqual([
      ["project", "pooled"],
      ["user", "unchanged"],
    ]);
    expect(all.errors).toEqual([]);
    const undone = await poolHost(l, "cursor", { backupDir, home: l.home, undo: true });
    expect(undone.files.map((o) => o.action)).toEqual(["restored", "restored"]);
    expect([await readFile(user, "utf8"), await readFile(project, "utf8")]).toEqual(before);
  });

  it("a file that cannot be pooled is an error of its own; the others are pooled; no file at all is two empty lists", async () => {
    const { l, user, project, backupDir } = await place();
    await writeFile(project, "{ not json");
    const result = await poolHost(l, "cursor", { backupDir, home: l.home });
    expect(result.files.map((o) => [o.file, o.action])).toEqual([[user, "pooled"]]);
    expect(result.errors).toEqual([{ file: project, message: expect.stringContaining(project) }]);
    expect(await poolHost(l, "zed", { backupDir, home: l.home })).toEqual({ files: [], errors: [] });
  });

  it("poolState says each file's state: not pooled, pooled, some of them pooled, no stdio servers, unreadable", async () => {
    const { l, user, project, backupDir } = await place();
    const states = async (): Promise<string[]> =>
      (await hostStatus(l, backupDir, "cursor")).map((s) => `${s.scope}: ${poolState(s)}`);
    expect(await states()).toEqual(["project: not pooled", "user: not pooled"]);
    await poolHost(l, "cursor", { backupDir, home: l.home, scope: "user" });
    expect(await states()).toEqual(["project: not pooled", "user: pooled"]);
    // One more stdio entry, written after pooling: one of two pooled.
    const pooled = JSON.parse(await readFile(user, "utf8")) as { mcpServers: Record<string, unknown> };
    pooled.mcpServers["more"] = { command: "node", args: ["more.js"] };
    await writeFile(user, JSON.stringify(pooled, null, 2));
    await writeFile(project, JSON.stringify({ mcpServers: { remote: { url: "http://127.0.0.1:1/mcp" } } }));
    expect(await states()).toEqual(["project: no stdio servers", "user: 1 of 2 pooled"]);
    await writeFile(project, "{ not json");
    expect(await states()).toEqual(["project: unreadable", "user: 1 of 2 pooled"]);
  });
});
