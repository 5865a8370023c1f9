// Entries added from the registry: their record, finding them, which registry to ask, and the
// entry a newer version makes (the user's own settings kept). Moved from the CLI with its logic.
import { describe, expect, it } from "vitest";
import { registryExamples as ex } from "mcp-test-utils";
import {
  configFromRegistry,
  installedEntries,
  isNewerVersion,
  localNameFor,
  parseRegistrySpec,
  registryRecordOf,
  registryToAsk,
  retiredStatus,
  updatedEntry,
  type RegistryEntry,
  type RegistryServer,
} from "../src/index.js";

const USER = "https://registry.modelcontextprotocol.io";

describe("registry records", () => {
  it("registryRecordOf takes only the shape add writes", () => {
    expect(
      registryRecordOf({
        name: "io.github.a/b",
        version: "1.0.0",
        url: USER,
        package: "npm",
        transport: "http",
        values: { X: "1", Y: ["a", "b"] },
      }),
    ).toBeDefined();
    expect(registryRecordOf({ name: "io.github.a/b" })).toBeUndefined();
    expect(registryRecordOf({ name: "a", version: "1", url: 3 })).toBeUndefined();
    expect(registryRecordOf({ name: "a", version: "1", package: "cargo" })).toBeUndefined();
    expect(registryRecordOf({ name: "a", version: "1", transport: "ws" })).toBeUndefined();
    expect(registryRecordOf({ name: "a", version: "1", values: { X: 1 } })).toBeUndefined();
    expect(registryRecordOf(["a"])).toBeUndefined();
  });

  it("installedEntries finds the entries that carry a record, and nothing else", () => {
    const servers = {
      mine: { command: "node" },
      wx: { command: "npx", registry: { name: "io.github.u/weather", version: "1.0.0" } },
      broken: "x",
      odd: { registry: { name: 1 } },
    };
    expect(installedEntries(servers).map((i) => [i.local, i.record.name])).toEqual([["wx", "io.github.u/weather"]]);
    expect(installedEntries(undefined)).toEqual([]);
    expect(installedEntries([1])).toEqual([]);
  });

  it("registryToAsk: a project's entry is asked about only at the user's registry; the user's own entries name their own", () => {
    const record = { name: "io.github.u/w", version: "1.0.0", url: "https://evil.example/" };
    expect(registryToAsk({ local: "w", record, project: true }, USER)).toEqual({
      refused: expect.stringMatching(
        /names the registry https:\/\/evil\.example.*--registry https:\/\/evil\.example/,
      ) as unknown,
    });
    expect(registryToAsk({ local: "w", record, project: false }, USER)).toEqual({ url: "https://evil.example" });
    expect(registryToAsk({ local: "w", record: { name: "x", version: "1" }, project: true }, USER)).toEqual({
      url: USER,
    });
    expect(registryToAsk({ local: "w", record: { ...record, url: "ftp://x" }, project: false }, USER)).toEqual({
      refused: expect.stringContaining('the "registry" record of "w"') as unknown,
    });
  });

  it("isNewerVersion orders semantic versions and says 'different' for others", () => {
    expect(isNewerVersion("1.10.0", "1.9.0")).toBe(true);
    expect(isNewerVersion("1.0.0", "1.0.0")).toBe(false);
    expect(isNewerVersion("1.0.0-beta", "1.0.0")).toBe(false);
    expect(isNewerVersion("2024-06", "2024-05")).toBe(true);
    expect(isNewerVersion("same", "same")).toBe(false);
  });

  it("parseRegistrySpec and localNameFor", () => {
    expect(parseRegistrySpec("io.github.u/weather@2.1.0")).toEqual({ name: "io.github.u/weather", version: "2.1.0" });
    expect(parseRegistrySpec("io.github.u/weather")).toEqual({ name: "io.github.u/weather", version: "latest" });
    expect(parseRegistrySpec("io.github.u/weather@")).toEqual({ name: "io.github.u/weather", version: "latest" });
    expect(parseRegistrySpec("@scope/x")).toEqual({ name: "@scope/x", version: "latest" });
    expect(localNameFor("io.github.User/Weather MCP!")).toBe("weather-mcp");
    expect(localNameFor("io.github.u/---")).toBe("server");
  });

  it("retiredStatus says deprecated or deleted, nothing for active", () => {
    const entry = (status: string): RegistryEntry =>
      ({
        server: { name: "a/b", version: "1" },
        _meta: { "io.modelcontextprotocol.registry/official": { status } },
      }) as unknown as RegistryEntry;
    expect(retiredStatus(entry("deprecated"))).toBe("deprecated");
    expect(retiredStatus(entry("deleted"))).toBe("deleted");
    expect(retiredStatus(entry("active"))).toBeUndefined();
  });

  it("updatedEntry keeps the user's fields and values, moves the record, and drops values the new version has no input for", () => {
    const server = ex.braveSearch as unknown as RegistryServer;
    const made = configFromRegistry(
      { ...server, version: "9.9.9" },
      { name: "wx", values: { gone: "1" }, ignoreUnknownValues: true },
    );
    const env = (made.config as { env?: Record<string, string> }).env ?? {};
    const [firstEnv] = Object.keys(env);
    expect(firstEnv).toBe("BRAVE_API_KEY");
    const old = {
      command: "old",
      args: ["old"],
      env: firstEnv ? { [firstEnv]: "mine", STALE: "x" } : {},
      timeout: 5000,
      includeTools: ["a"],
      registry: {},
    };
    const record = { name: server.name, version: "1.0.0", url: USER, package: "npm" as const, values: { gone: "1" } };
    const { entry, record: moved, dropped } = updatedEntry(old, made, record);
    expect(dropped).toEqual(["gone"]);
    expect(moved).toEqual({ name: server.name, version: "9.9.9", url: USER, package: made.kind });
    expect(entry["command"]).toBe((made.config as { command: string }).command);
    expect(entry["timeout"]).toBe(5000);
    expect(entry["includeTools"]).toEqual(["a"]);
    expect(entry["registry"]).toEqual(moved);
    expect((entry["env"] as Record<string, string>)["BRAVE_API_KEY"]).toBe("mine");
    expect((entry["env"] as Record<string, string> | undefined)?.["STALE"]).toBeUndefined();
  });
});
