// installFromRegistry (`mcp registry add`'s step: ask, refuse a retired version unless forced, write,
// approve a project's entry) against a stand-in registry on 127.0.0.1 and real files in a temporary
// project; the CLI's end-to-end tests stay in apps/cli/test/registry.test.ts.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApprovalStore, loadAllMCPConfigs, readOwnServers } from "@mcp/manager";
import { startRegistry, type StandInRegistry } from "mcp-test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { installedIn, installFromRegistry, RegistryError } from "../src/index.js";

let registry: StandInRegistry;
beforeAll(async () => {
  registry = await startRegistry();
  const remote = (url: string) => ({ description: "x", remotes: [{ type: "streamable-http", url }] });
  registry.publish({ name: "io.github.t/old", version: "1.0.0", ...remote("http://127.0.0.1:9/a") }, "deprecated");
  // A hostile registry's version: a terminal's title set and the screen cleared, if printed as it is.
  registry.publish(
    { name: "io.github.t/hostile", version: "2.0\u001b]0;owned\u0007\u001b[2J", ...remote("http://127.0.0.1:9/b") },
    "deleted",
  );
});
afterAll(() => registry.close());
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});
async function project(): Promise<{ cwd: string; file: string; approvals: string }> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), "mcp-registry-install-")));
  roots.push(cwd);
  return { cwd, file: join(cwd, "mcp-client.json"), approvals: join(cwd, "approvals.json") };
}
const knap = "io.github.joelverhagen/knapcode-samplemcpserver";

describe("installFromRegistry", () => {
  it("writes the version asked for with its record, and approves a project's entry as it loads", async () => {
    const { cwd, file, approvals } = await project();
    const added = await installFromRegistry(knap, {
      version: "0.4.0-beta",
      file,
      name: "kn",
      registry: registry.url,
      approve: { cwd, approvals },
    });
    expect(added).toMatchObject({ status: undefined, notApproved: undefined });
    expect(added.entry.server.version).toBe("0.4.0-beta");
    const [found] = await installedIn([{ file, scope: "project" }]);
    expect(found!.record).toMatchObject({ name: knap, version: "0.4.0-beta", url: registry.url });
    const store = createApprovalStore({ file: approvals });
    expect(await store.isApproved(cwd, (await loadAllMCPConfigs(cwd)).servers["kn"]!)).toBe(true);
    // Without approve: written, not approved.
    const other = await project();
    await installFromRegistry(knap, { version: "0.4.0-beta", file: other.file, name: "kn", registry: registry.url });
    const plain = createApprovalStore({ file: other.approvals });
    expect(await plain.isApproved(other.cwd, (await loadAllMCPConfigs(other.cwd)).servers["kn"]!)).toBe(false);
  });

  it("a deprecated version is a RegistryError `retired` (a usage error), nothing written; with force it is added and says so", async () => {
    const { file } = await project();
    const refused = await installFromRegistry("io.github.t/old", { file, name: "old", registry: registry.url }).catch(
      (e: unknown) => e,
    );
    expect(RegistryError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ reason: "retired", usage: true, registry: registry.url });
    expect((refused as Error).message).toBe(`io.github.t/old 1.0.0 is deprecated in ${registry.url}`);
    expect(await readOwnServers(file)).toEqual({});

    const forced = await installFromRegistry("io.github.t/old", {
      file,
      name: "old",
      registry: registry.url,
      force: true,
    });
    expect(forced.status).toBe("deprecated");
    expect(Object.keys(await readOwnServers(file))).toEqual(["old"]);
  });

  it("a retired version's message shows the registry's text without its control characters, as every other message does", async () => {
    const { file } = await project();
    const refused = await installFromRegistry("io.github.t/hostile", { file, name: "h", registry: registry.url }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ reason: "retired" });
    const message = (refused as Error).message;
    // eslint-disable-next-line no-control-regex
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(message).toBe(`io.github.t/hostile 2.0 ]0;owned [2J is deleted in ${registry.url}`);
  });
});
