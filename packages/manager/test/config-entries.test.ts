// configEntries: every entry the loader found, as `mcp config list --json` gives it (moved from the
// CLI; its e2e tests stay in apps/cli/test/cli.test.ts). Real files in a temporary home and project.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configEntries, loadAllMCPConfigs } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-entries-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const project = join(root, "project");
function write(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

describe("configEntries", () => {
  it("active, disabled, shadowed and invalid entries, what runs said with passwords hidden", async () => {
    const user = write(join(home, ".config", "mcp-client", "mcp-client.json"), {
      servers: {
        tool: { command: "node", args: ["server.js", "--port", "3"] },
        off: { command: "x", disabled: true },
        web: { type: "http", url: "https://user:pw@example.com/mcp", proxy: "http://me:secret@proxy:8080" },
        direct: { type: "sse", url: "https://example.com/sse", proxy: false },
        broken: { command: "echo", args: ["${ENTRIES_TEST_UNSET}"] },
      },
    });
    const own = write(join(project, "mcp-client.json"), { servers: { tool: { command: "mine" } } });
    const result = await loadAllMCPConfigs(project, { home, env: {}, platform: "linux", enableProjectConfig: true });
    const entries = configEntries(result, home);
    const by = (name: string, state: string) => entries.find((e) => e.name === name && e.state === state);
    expect(by("tool", "active")).toMatchObject({ file: own, detail: "mine" });
    expect(by("tool", "shadowed")).toEqual({
      name: "tool",
      family: "mcp-client",
      scope: "user",
      file: user,
      state: "shadowed",
      detail: `overridden by ${own}`,
    });
    expect(by("off", "disabled")?.detail).toBe("x");
    expect(by("web", "active")?.detail).toMatch(
      /^http https:\/\/.*example\.com\/mcp via proxy http:\/\/.*proxy:8080\/$/,
    );
    expect(by("web", "active")?.detail).not.toMatch(/pw|secret/);
    expect(by("direct", "active")?.detail).toBe("sse https://example.com/sse (no proxy)");
    expect(by("broken", "invalid")).toMatchObject({ family: "", scope: "", file: user });
    expect(by("broken", "invalid")?.detail).toContain("ENTRIES_TEST_UNSET");
    // Errors come last, shadowed entries before them.
    expect(entries.map((e) => e.state).join(" ")).toMatch(/^(active |disabled )+shadowed invalid$/);
  });

  it("a shadowing file under home is named from ~", async () => {
    const result = await loadAllMCPConfigs(project, { home, env: {}, platform: "linux" });
    const inHome = { ...result, shadowed: [{ ...result.servers["tool"]!, name: "tool" }] };
    inHome.servers = {
      ...result.servers,
      tool: {
        ...result.servers["tool"]!,
        source: { ...result.servers["tool"]!.source, file: join(home, ".claude.json") },
      },
    };
    expect(configEntries(inHome, home).find((e) => e.state === "shadowed")?.detail).toBe(
      "overridden by ~/.claude.json",
    );
  });
});
