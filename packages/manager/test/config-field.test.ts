// readConfigField: one top-level field of our own mcp-client.json, for packages above the manager
// (@mcp/registry reads `registry`), from real files in a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OWN_FILE, readConfigField, userConfigDir } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-config-field-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("readConfigField", () => {
  it("reads the field of the user's own file, comments and trailing commas allowed", async () => {
    const file = join(userConfigDir({ home: root, env: {}, platform: "linux" }), OWN_FILE);
    expect(file).toBe(join(root, ".config", "mcp-client", "mcp-client.json"));
    mkdirSync(join(root, ".config", "mcp-client"), { recursive: true });
    writeFileSync(file, '// mine\n{ "registry": "https://registry.example.com", "servers": {}, }');
    expect(await readConfigField(file, "registry")).toBe("https://registry.example.com");
    expect(await readConfigField(file, "servers")).toEqual({});
  });

  it("is undefined for a missing file, a missing field, a field only inherited, or a document that is not an object", async () => {
    expect(await readConfigField(join(root, "nothing.json"), "registry")).toBeUndefined();
    const file = join(root, "other.json");
    writeFileSync(file, '{ "servers": {} }');
    expect(await readConfigField(file, "registry")).toBeUndefined();
    expect(await readConfigField(file, "constructor")).toBeUndefined();
    writeFileSync(file, '["registry"]');
    expect(await readConfigField(file, "0")).toBeUndefined();
  });

  it("a file that is not JSON is an error naming the file, line and column", async () => {
    const file = join(root, "bad.json");
    writeFileSync(file, '{\n  "registry": "https://x.example"\n  "servers": {}\n}');
    await expect(readConfigField(file, "registry")).rejects.toThrow(`${file}:3:3: invalid JSON (CommaExpected)`);
  });
});
