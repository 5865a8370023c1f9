// searchServers (one entry per server, the latest, read only as far as the limit), RegistryError's
// `usage`, and checkForUpdates with many entries on one signal, against a stand-in registry on
// 127.0.0.1 (mcp-test-utils' startRegistry). Moved from the CLI's `mcp registry search | outdated`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type StandInRegistry } from "mcp-test-utils";
import { checkForUpdates, getRegistryServer, installedEntries, RegistryError, searchServers } from "../src/index.js";

let registry: StandInRegistry;
beforeAll(async () => {
  registry = await startRegistry();
  registry.publish({ name: "io.github.t/many", version: "1.0.0", description: "first" });
  registry.publish({ name: "io.github.t/many", version: "1.1.0", description: "second" });
});
afterAll(() => registry.close());

/** A registry that ignores `version=latest` (some subregistries do): every version of a server comes back. */
const ignoringLatest: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  url.searchParams.delete("version");
  return fetch(url, init);
};

describe("searchServers", () => {
  it("gives each server once, its latest, when the registry lists every version", async () => {
    const found = await searchServers("many", { registry: registry.url, fetch: ignoringLatest });
    expect(found.map((e) => [e.server.name, e.server.version])).toEqual([["io.github.t/many", "1.1.0"]]);
  });

  it("stops at the limit: no further page is asked for, the page size is the limit", async () => {
    const before = registry.requests.length;
    const found = await searchServers("", { registry: registry.url, limit: 4 });
    expect(found).toHaveLength(4);
    const asked = registry.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.get("limit")).toBe("4");
    await expect(searchServers("", { registry: registry.url, limit: 0 })).rejects.toThrow(RangeError);
  });
});

describe("RegistryError.usage", () => {
  it("is true for what the caller asked wrong, false for the registry failing", async () => {
    const missing = await getRegistryServer("io.github.t/none", "latest", { registry: registry.url }).then(
      () => {
        throw new Error("found a server that is not there");
      },
      (e: unknown) => e as RegistryError,
    );
    expect([missing.reason, missing.usage]).toEqual(["not_found", true]);
    expect(new RegistryError("network", "down").usage).toBe(false);
    expect(new RegistryError("invalid_response", "bad").usage).toBe(false);
  });
});

describe("checkForUpdates on one signal", () => {
  it("checks a dozen entries without piling listeners on the caller's signal (no MaxListenersExceededWarning)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const servers = Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [
          `s${i}`,
          { command: "x", registry: { name: "io.github.t/many", version: "1.0.0" } },
        ]),
      );
      const checks = await checkForUpdates(installedEntries(servers), {
        registry: registry.url,
        signal: new AbortController().signal,
      });
      expect(checks.map((c) => c.outdated)).toEqual(Array(12).fill(true));
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("an aborted signal still stops the checks", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const items = installedEntries({ a: { command: "x", registry: { name: "io.github.t/many", version: "1.0.0" } } });
    await expect(checkForUpdates(items, { registry: registry.url, signal: controller.signal })).rejects.toThrow();
  });
});
