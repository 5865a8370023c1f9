// The published JSON Schema of mcp-client.json (packages/manager/schema) and the loader agree:
// an entry the schema accepts loads without a problem, and one it refuses is reported as invalid.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { loadAllMCPConfigs } from "../src/index.js";

const schema = JSON.parse(readFileSync(new URL("../schema/mcp-client.schema.json", import.meta.url), "utf8")) as object;
// "format": "uri" is not checked here; the schema's own pattern (^https?://) is.
const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), "mcp-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function loads(entry: unknown): Promise<boolean> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ servers: { s: entry } }));
  const result = await loadAllMCPConfigs(dir, { home: dir, extraFiles: [file], families: [] });
  return result.errors.length === 0 && result.servers["s"] !== undefined;
}

const valid: unknown[] = [
  { command: "node" },
  { command: "node", args: ["server.js"], env: { TOKEN: "x" }, cwd: "/tmp", timeout: 1000 },
  { type: "stdio", command: "node", enabled: false, includeTools: ["a"], excludeTools: ["b"] },
  { url: "http://127.0.0.1:3000/mcp" },
  { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } },
  { type: "sse", url: "https://example.com/sse" },
  {
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-everything@2026.8.31"],
    registry: {
      name: "io.modelcontextprotocol/everything",
      version: "2026.8.31",
      url: "https://registry.modelcontextprotocol.io",
      package: "npm",
    },
  },
];
const invalid: unknown[] = [
  {},
  { command: "" },
  { command: "node", url: "http://x/mcp" },
  { url: "ftp://example.com/mcp" },
  { type: "ws", url: "ws://example.com" },
  { command: "node", args: "server.js" },
  { command: "node", env: { TOKEN: 1 } },
  { type: "http" },
  { command: "node", timeout: -1 },
  { url: "http://x/mcp", headers: { a: 1 } },
  "node server.js",
];

describe("the published schema of mcp-client.json", () => {
  it("takes the registry to install from beside the servers", () => {
    expect(validate({ registry: "https://registry.example.com", servers: {} })).toBe(true);
    expect(validate({ registry: "ftp://registry.example.com", servers: {} })).toBe(false);
  });

  it.each(valid.map((entry) => [JSON.stringify(entry), entry]))(
    "accepts what the loader accepts: %s",
    async (_label, entry) => {
      expect(validate({ servers: { s: entry } }), JSON.stringify(validate.errors)).toBe(true);
      expect(await loads(entry)).toBe(true);
    },
  );
  it.each(invalid.map((entry) => [JSON.stringify(entry), entry]))(
    "refuses what the loader refuses: %s",
    async (_label, entry) => {
      expect(validate({ servers: { s: entry } })).toBe(false);
      expect(await loads(entry)).toBe(false);
    },
  );
});
