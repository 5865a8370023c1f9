// removeOwnServer and approveOwnServer on real files in a temporary project (moved from the CLI's
// `mcp config add | remove` and `mcp registry add | update`; their end-to-end tests stay in apps/cli/test).
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  addOwnServer,
  approveOwnServer,
  OwnServerExistsError,
  createApprovalStore,
  editOwnConfig,
  loadAllMCPConfigs,
  readOwnServers,
  removeOwnServer,
} from "../src/index.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function folder(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "own-servers-")));
  dirs.push(dir);
  return dir;
}

describe("removeOwnServer", () => {
  it("removes the entry from the first file that has it (comments kept), and says which; undefined when none has it", async () => {
    const root = await folder();
    const [first, second] = [join(root, "a.json"), join(root, "b.json")];
    await writeFile(first, '{\n  // keep\n  "servers": { "x": { "command": "a" } }\n}\n');
    await editOwnConfig(second, ["servers", "x"], { command: "b" });
    await editOwnConfig(second, ["servers", "y"], { command: "b" });
    expect(await removeOwnServer([join(root, "missing.json"), first, second], "x")).toBe(first);
    expect(await readOwnServers(first)).toEqual({});
    expect(await readFile(first, "utf8")).toContain("// keep");
    expect(Object.keys(await readOwnServers(second))).toEqual(["x", "y"]);
    expect(await removeOwnServer([first, second], "y")).toBe(second);
    expect(await removeOwnServer([first, second], "nope")).toBeUndefined();
  });
});

describe("approveOwnServer", () => {
  it("approves the project entry as it loads; one that does not load, or that another file's entry shadows, is not approved and says why", async () => {
    const cwd = await folder();
    const file = join(cwd, "mcp-client.json");
    const approvals = join(cwd, "approvals.json");
    const store = createApprovalStore({ file: approvals });
    await editOwnConfig(file, ["servers", "ok"], { command: "node", args: ["s.js"] });
    await editOwnConfig(file, ["servers", "unset"], { command: "node", env: { K: "${OWN_SERVERS_UNSET_VAR}" } });
    expect(await approveOwnServer(file, "ok", { cwd, approvals })).toBeUndefined();
    expect(await store.isApproved(cwd, (await loadAllMCPConfigs(cwd)).servers["ok"]!)).toBe(true);

    expect(await approveOwnServer(file, "unset", { cwd, approvals })).toMatch(
      /environment variable "OWN_SERVERS_UNSET_VAR" is not set/,
    );
    // A file that is not the one that defines it (another file's "ok" comes first): not approved.
    expect(await approveOwnServer(join(cwd, "other.json"), "ok", { cwd, approvals })).toBe(
      `another file's "ok" comes first`,
    );
    const record = JSON.parse(await readFile(approvals, "utf8")) as {
      projects: Record<string, { fingerprints: object }>;
    };
    expect(Object.keys(record.projects[cwd]!.fingerprints)).toEqual(["ok"]);
  });
});

describe("addOwnServer", () => {
  it("writes the entry (comments kept), refuses a name already there unless replacing, says which values look like secrets, and approves it as it loads", async () => {
    const cwd = await folder();
    const file = join(cwd, "mcp-client.json");
    const approvals = join(cwd, "approvals.json");
    await writeFile(file, '{\n  // mine\n  "servers": { "odd": 5 }\n}\n');
    const config = { command: "node", args: ["s.js"], env: { API_TOKEN: "abcdefghijklmnop1234567890" } };
    const added = await addOwnServer(file, "ok", config, { approve: { cwd, approvals } });
    expect(added).toEqual({
      replaced: false,
      secrets: [{ kind: "env", key: "API_TOKEN", value: "abcdefghijklmnop1234567890" }],
      notApproved: undefined,
    });
    expect(
      await createApprovalStore({ file: approvals }).isApproved(cwd, (await loadAllMCPConfigs(cwd)).servers["ok"]!),
    ).toBe(true);
    expect(await readFile(file, "utf8")).toContain("// mine");

    const again = addOwnServer(file, "ok", { command: "other" });
    await expect(again).rejects.toBeInstanceOf(OwnServerExistsError);
    await expect(again).rejects.toMatchObject({
      file,
      server: "ok",
      runs: "node s.js",
      message: `${file} already has "ok": node s.js`,
    });
    // An entry that names nothing to run is refused too, without saying what it runs.
    await expect(addOwnServer(file, "odd", { command: "x" })).rejects.toMatchObject({ runs: undefined });
    expect((await readOwnServers(file))["ok"]).toEqual(config);

    const replaced = await addOwnServer(file, "ok", { command: "other" }, { replace: true });
    expect(replaced).toEqual({ replaced: true, secrets: [], notApproved: undefined });
    expect((await readOwnServers(file))["ok"]).toEqual({ command: "other" });
  });
});
