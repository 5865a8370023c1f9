// updateFromRegistry and addFromRegistry against a stand-in registry on 127.0.0.1 (mcp-test-utils'
// startRegistry) and real config files in a temporary project: the plan `mcp registry update`
// prints (each entry's outcome) and a project entry's approval carried over, moved from the CLI
// (its end-to-end tests in apps/cli/test/registry.test.ts stay).
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApprovalStore, loadAllMCPConfigs } from "@mcp/manager";
import { startRegistry, type StandInRegistry } from "mcp-test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { addFromRegistry, getRegistryServer, installedIn, RegistryError, updateFromRegistry } from "../src/index.js";

let registry: StandInRegistry;
beforeAll(async () => {
  registry = await startRegistry();
  registry.publish({
    name: "io.github.t/retired",
    version: "1.0.0",
    description: "x",
    remotes: [{ type: "streamable-http", url: "http://127.0.0.1:9/a" }],
  });
  registry.publish(
    {
      name: "io.github.t/retired",
      version: "2.0.0",
      description: "x",
      remotes: [{ type: "streamable-http", url: "http://127.0.0.1:9/b" }],
    },
    "deprecated",
  );
});
afterAll(() => registry.close());
const roots: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});
async function project(): Promise<{ cwd: string; file: string; approvals: string }> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), "mcp-registry-update-")));
  roots.push(cwd);
  return { cwd, file: join(cwd, "mcp-client.json"), approvals: join(cwd, "approvals.json") };
}
const knap = "io.github.joelverhagen/knapcode-samplemcpserver";

describe("addFromRegistry", () => {
  it("writes the entry the server makes, with the record an update needs, keeping the file's other entries and comments", async () => {
    const { file } = await project();
    await writeFile(file, '{\n  // mine\n  "servers": { "mine": { "command": "node" } }\n}\n');
    const entry = await getRegistryServer(knap, "0.4.0-beta", { registry: registry.url });
    const made = await addFromRegistry(entry, { file, name: "kn", registry: registry.url });
    expect(made.version).toBe("0.4.0-beta");
    const [found] = await installedIn([{ file, scope: "project" }]);
    expect(found!.local).toBe("kn");
    expect(found!.record).toEqual({ name: knap, version: "0.4.0-beta", url: registry.url, package: made.kind });
    expect(found!.entry).toEqual({ ...made.config, registry: found!.record });
    const text = await readFile(file, "utf8");
    expect(text).toContain("// mine");
    expect(text).toMatch(/"mine": \{\s*"command": "node"\s*\}/);
  });

  it("a choice the server cannot make is a RegistryError, and nothing is written", async () => {
    const { file } = await project();
    const entry = await getRegistryServer(knap, "0.4.0-beta", { registry: registry.url });
    const error = await addFromRegistry(entry, { file, name: "kn", registry: registry.url, package: "oci" }).catch(
      (e: unknown) => e,
    );
    expect(RegistryError.isInstance(error) && error.reason).toBe("unsupported_package");
    await expect(readFile(file, "utf8")).rejects.toThrow(/ENOENT/);
  });
});

describe("updateFromRegistry", () => {
  it("one outcome per entry: updated, current, retired (not updated without force), failed; approvals carried over only for an entry approved as it was", async () => {
    const { cwd, file, approvals } = await project();
    const old = await getRegistryServer(knap, "0.4.0-beta", { registry: registry.url });
    const retired = await getRegistryServer("io.github.t/retired", "1.0.0", { registry: registry.url });
    const latest = await getRegistryServer(knap, "latest", { registry: registry.url });
    await addFromRegistry(old, { file, name: "approved", registry: registry.url });
    await addFromRegistry(old, { file, name: "unapproved", registry: registry.url });
    await addFromRegistry(latest, { file, name: "current", registry: registry.url });
    await addFromRegistry(retired, { file, name: "retired", registry: registry.url });
    await addFromRegistry(old, { file, name: "elsewhere", registry: "http://127.0.0.1:9" });
    const store = createApprovalStore({ file: approvals });
    await store.remember(cwd, [(await loadAllMCPConfigs(cwd)).servers["approved"]!]);
    const items = (await installedIn([{ file, scope: "project" }])).map((item) => ({ ...item, project: true }));
    // 0.5.0 reads WEATHER_CHOICES: set, the updated entry loads and is approved as it is now.
    vi.stubEnv("WEATHER_CHOICES", "sunny");
    const outcomes = await updateFromRegistry(items, { registry: registry.url, cwd, approvals });
    expect(outcomes.map((o) => [o.item.local, o.action, o.version, o.status, o.approved])).toEqual([
      ["approved", "updated", "0.5.0", undefined, true],
      ["unapproved", "updated", "0.5.0", undefined, false],
      ["current", "current", "0.5.0", undefined, undefined],
      ["retired", "retired", "2.0.0", "deprecated", undefined],
      ["elsewhere", "failed", undefined, undefined, undefined],
    ]);
    expect(outcomes[4]!.problem).toMatch(/^not checked: /);
    expect(outcomes[0]!.update!.made.version).toBe("0.5.0");
    const now = (await loadAllMCPConfigs(cwd)).servers;
    expect(await store.isApproved(cwd, now["approved"]!)).toBe(true);
    expect(await store.isApproved(cwd, now["unapproved"]!)).toBe(false);
    const written = await installedIn([{ file, scope: "project" }]);
    expect(written.map((i) => [i.local, i.record.version])).toEqual([
      ["approved", "0.5.0"],
      ["unapproved", "0.5.0"],
      ["current", "0.5.0"],
      ["retired", "1.0.0"],
      ["elsewhere", "0.4.0-beta"],
    ]);

    const forced = await updateFromRegistry(
      items.filter((i) => i.local === "retired"),
      { registry: registry.url, cwd, approvals, force: true },
    );
    expect(forced.map((o) => [o.action, o.version, o.status])).toEqual([["updated", "2.0.0", "deprecated"]]);
  });

  it("a project entry approved as it was whose new version does not load yet (a variable not set) is not approved, and says why", async () => {
    const { cwd, file, approvals } = await project();
    await addFromRegistry(await getRegistryServer(knap, "0.4.0-beta", { registry: registry.url }), {
      file,
      name: "kn",
      registry: registry.url,
    });
    await createApprovalStore({ file: approvals }).remember(cwd, [(await loadAllMCPConfigs(cwd)).servers["kn"]!]);
    const items = (await installedIn([{ file, scope: "project" }])).map((item) => ({ ...item, project: true }));
    const [outcome] = await updateFromRegistry(items, { registry: registry.url, cwd, approvals });
    expect([outcome!.action, outcome!.approved]).toEqual(["updated", false]);
    expect(outcome!.notApproved).toMatch(/environment variable "WEATHER_CHOICES" is not set/);
  });
});
