// checkForUpdates against a stand-in registry on 127.0.0.1 (mcp-test-utils' startRegistry): each
// entry's latest version, a retired latest, a project entry naming another registry, a failing one.
// Moved from the CLI's `mcp registry outdated | update` (its e2e tests in apps/cli/test/registry.test.ts stay).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type StandInRegistry } from "mcp-test-utils";
import { checkForUpdates, installedEntries, outdatedRows } from "../src/index.js";

let registry: StandInRegistry;
let other: StandInRegistry;
beforeAll(async () => {
  registry = await startRegistry();
  other = await startRegistry({ servers: [] });
});
afterAll(async () => {
  await registry.close();
  await other.close();
});

const knap = "io.github.joelverhagen/knapcode-samplemcpserver";

describe("outdatedRows", () => {
  it("a row an entry: its file, the registry asked (else its record's, else the user's), versions, and a problem escaped for a terminal", async () => {
    const [entry] = installedEntries({ old: { command: "dotnet", registry: { name: knap, version: "0.4.0-beta" } } });
    const item = { ...entry!, file: "/f.json" };
    const rows = outdatedRows(
      [
        ...(await checkForUpdates([item], { registry: registry.url })),
        { item: { ...item, local: "bad" }, problem: "no \u001b[31mred\u001b[0m here" },
      ],
      "http://127.0.0.1:1",
    );
    expect(rows).toEqual([
      {
        name: "old",
        server: knap,
        file: "/f.json",
        registry: registry.url,
        current: "0.4.0-beta",
        latest: "0.5.0",
        outdated: true,
        status: undefined,
        problem: undefined,
      },
      expect.objectContaining({
        name: "bad",
        registry: "http://127.0.0.1:1",
        latest: undefined,
        problem: "no \\u{001b}[31mred\\u{001b}[0m here",
      }),
    ]);
  });
});

describe("checkForUpdates", () => {
  it("says which entries are behind their registry's latest, which are current, and which latest is retired", async () => {
    registry.publish({ name: "io.github.t/retired", version: "1.0.0", description: "x" });
    registry.publish({ name: "io.github.t/retired", version: "2.0.0", description: "x" }, "deprecated");
    const items = installedEntries({
      old: { command: "dotnet", registry: { name: knap, version: "0.4.0-beta" } },
      same: { command: "dotnet", registry: { name: knap, version: "0.5.0" } },
      gone: { command: "x", registry: { name: "io.github.t/retired", version: "1.0.0" } },
    });
    const checks = await checkForUpdates(items, { registry: registry.url });
    expect(checks.map((c) => [c.item.local, c.url, c.latest?.server.version, c.outdated, c.status, c.problem])).toEqual(
      [
        ["old", registry.url, "0.5.0", true, undefined, undefined],
        ["same", registry.url, "0.5.0", false, undefined, undefined],
        ["gone", registry.url, "2.0.0", true, "deprecated", undefined],
      ],
    );
  });

  it("a project's entry that names another registry is not asked there; the user's own entry is; a failure is that entry's problem only", async () => {
    const before = other.requests.length;
    const record = { name: knap, version: "0.4.0-beta", url: other.url };
    const [entry] = installedEntries({ p: { command: "dotnet", registry: record } });
    const checks = await checkForUpdates(
      [
        { ...entry!, project: true },
        { ...entry!, local: "mine", project: false },
        ...installedEntries({ fine: { command: "dotnet", registry: { name: knap, version: "0.5.0" } } }),
      ],
      { registry: registry.url },
    );
    expect(checks[0]).toEqual({
      item: expect.objectContaining({ local: "p" }) as unknown,
      problem: `not checked: it names the registry ${other.url}, not the one you use (${registry.url}); to ask that one: --registry ${other.url}`,
    });
    // The user's own entry names its registry, which has no such server: a problem, not a rejection.
    expect(checks[1]).toMatchObject({ url: other.url, problem: expect.stringContaining(knap) as unknown });
    expect(checks[1]!.latest).toBeUndefined();
    expect(other.requests.length - before).toBe(1); // only the user's own entry was asked there
    expect(checks[2]).toMatchObject({ url: registry.url, outdated: false });
  });

  it("rejects when its signal aborts", async () => {
    const items = installedEntries({ old: { command: "dotnet", registry: { name: knap, version: "0.4.0-beta" } } });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(checkForUpdates(items, { registry: registry.url, signal: controller.signal })).rejects.toThrow("stop");
  });
});
