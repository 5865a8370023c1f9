// Config loaders fed random bytes and mutated valid files: every problem is a ConfigError naming
// its file, nothing throws, and what loads is a usable config.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadAllMCPConfigs } from "@mcp/manager";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "mcp-fuzz-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A file of each format and family, project and user scope.
const FILES = [
  ".mcp.json",
  "mcp-client.json",
  ".cursor/mcp.json",
  ".vscode/mcp.json",
  ".gemini/settings.json",
  "opencode.json",
  ".zed/settings.json",
  "~/.claude.json",
  "~/.codex/config.toml",
];

let run = 0;
/** Writes `contents` to `file` in a fresh project + home, then loads everything there. */
async function load(
  file: string,
  contents: string | Uint8Array,
): Promise<Awaited<ReturnType<typeof loadAllMCPConfigs>>> {
  const dir = join(root, String(run++));
  const home = join(dir, "home");
  const cwd = join(dir, "project");
  const path = file.startsWith("~/") ? join(home, file.slice(2)) : join(cwd, file);
  mkdirSync(dirname(path), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(path, contents);
  try {
    return await loadAllMCPConfigs(cwd, { home, env: { HOME: home }, platform: "linux" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function checkResult(result: Awaited<ReturnType<typeof loadAllMCPConfigs>>): void {
  for (const error of result.errors) {
    expect(typeof error.file).toBe("string");
    expect(error.file.length).toBeGreaterThan(0);
    expect(typeof error.message).toBe("string");
    expect(error.message.length).toBeGreaterThan(0);
  }
  for (const [name, config] of Object.entries(result.configs)) {
    const c = config as { command?: unknown; url?: unknown };
    expect(typeof c.command === "string" || typeof c.url === "string", `server ${name} has a command or url`).toBe(
      true,
    );
    expect(typeof result.sources[name]).toBe("string");
  }
}

// Values of every JSON type where the loaders expect one in particular.
const anyJson = fc.jsonValue({ maxDepth: 3 });
const entry = fc.record(
  {
    type: fc.oneof(fc.constantFrom("stdio", "http", "sse", "streamable-http", "websocket", ""), anyJson),
    command: fc.oneof(fc.constantFrom("node", "npx", "", "/bin/sh"), anyJson),
    args: fc.oneof(fc.array(fc.string()), anyJson),
    env: fc.oneof(fc.dictionary(fc.string(), fc.string()), anyJson),
    url: fc.oneof(fc.constantFrom("http://127.0.0.1:1/mcp", "not a url", "file:///etc/passwd", "${HOME}/x"), anyJson),
    headers: fc.oneof(fc.dictionary(fc.string(), fc.string()), anyJson),
    timeout: fc.oneof(fc.integer(), fc.double(), anyJson),
    enabled: anyJson,
  },
  { requiredKeys: [] },
);
const servers = fc.dictionary(fc.string({ maxLength: 20 }), fc.oneof(entry, anyJson), { maxKeys: 4 });
/** A document in the shape one of the families reads, with hostile values inside. */
const document = fc.oneof(
  servers.map((s) => ({ mcpServers: s })),
  servers.map((s) => ({ servers: s })),
  servers.map((s) => ({ mcp: s })),
  servers.map((s) => ({ context_servers: s })),
  servers.map((s) => ({ projects: { "/somewhere": { mcpServers: s } }, mcpServers: s })),
  anyJson,
);

describe("config loaders under random input", () => {
  it("random bytes in any config file: typed errors naming the file, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILES), fc.uint8Array({ maxLength: 300 }), async (file, bytes) => {
        checkResult(await load(file, bytes));
      }),
      { numRuns: 150 },
    );
  });

  it("valid JSON in the families' shapes with hostile values: typed errors, usable configs", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILES.filter((f) => !f.endsWith(".toml"))), document, async (file, doc) => {
        checkResult(await load(file, JSON.stringify(doc)));
      }),
      { numRuns: 300 },
    );
  });

  it("valid files with one byte changed: never a throw", async () => {
    const valid = JSON.stringify(
      {
        mcpServers: {
          a: { command: "node", args: ["x.js"], env: { K: "v" } },
          b: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer t" } },
        },
      },
      null,
      2,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(".mcp.json", "~/.claude.json", ".cursor/mcp.json"),
        fc.nat(valid.length - 1),
        fc.integer({ min: 0, max: 255 }),
        async (file, at, byte) => {
          const bytes = Buffer.from(valid);
          bytes[at] = byte;
          checkResult(await load(file, bytes));
        },
      ),
      { numRuns: 200 },
    );
  });
});
