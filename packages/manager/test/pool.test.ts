import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fingerprintOf } from "../src/approvals/fingerprint.js";
import { fileSpecs } from "../src/config/families.js";
import { parseJsonFile, parseTomlFile } from "../src/config/parse.js";
import {
  hostFiles,
  hostStatus,
  parseShimArgs,
  poolFile,
  PoolError,
  shimArgs,
  unpoolFile,
  unwrapShimConfig,
  type HostFile,
  type PoolFamily,
  type PoolOptions,
} from "../src/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "pool");

/** Each family's fixture, where the family keeps it (relative to home or to the project), its stdio entries and its HTTP ones. */
const CASES: { family: PoolFamily; fixture: string; at: string; stdio: string[]; http: string[] }[] = [
  { family: "claude-code", fixture: "claude.json", at: "~/.claude.json", stdio: ["github", "db"], http: ["sentry"] },
  { family: "claude-code", fixture: "mcp.json", at: ".mcp.json", stdio: ["everything", "files"], http: ["remote"] },
  {
    family: "claude-desktop",
    fixture: "claude-desktop.json",
    at: "~/.config/Claude/claude_desktop_config.json",
    stdio: ["filesystem"],
    http: [],
  },
  {
    family: "cursor",
    fixture: "cursor.json",
    at: "~/.cursor/mcp.json",
    stdio: ["weather", "docker-thing"],
    http: ["linear"],
  },
  {
    family: "vscode",
    fixture: "vscode.json",
    at: ".vscode/mcp.json",
    stdio: ["Perplexity", "fetch"],
    http: ["github"],
  },
  {
    family: "vscode",
    fixture: "vscode.json",
    at: "~/.config/Code/User/mcp.json",
    stdio: ["Perplexity", "fetch"],
    http: ["github"],
  },
  { family: "codex", fixture: "codex.toml", at: "~/.codex/config.toml", stdio: ["docs", "time-now"], http: ["figma"] },
  {
    family: "gemini",
    fixture: "gemini.json",
    at: "~/.gemini/settings.json",
    stdio: ["pythonTools"],
    http: ["httpServer", "sseServer"],
  },
  {
    family: "opencode",
    fixture: "opencode.jsonc",
    at: "opencode.jsonc",
    stdio: ["everything", "multi"],
    http: ["context7"],
  },
  {
    family: "zed",
    fixture: "zed.json",
    at: "~/.config/zed/settings.json",
    stdio: ["postgres", "puppeteer"],
    http: ["remote"],
  },
  {
    family: "windsurf",
    fixture: "windsurf.json",
    at: "~/.codeium/windsurf/mcp_config.json",
    stdio: ["brave"],
    http: ["remote-figma"],
  },
];

const cleanup: string[] = [];
afterEach(async () => {
  for (const dir of cleanup.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function setup(
  at: string,
  text: string,
): Promise<{ host: HostFile; options: PoolOptions; home: string; cwd: string; file: string }> {
  const root = await mkdtemp(join(tmpdir(), "pool-"));
  cleanup.push(root);
  const home = join(root, "home");
  const cwd = join(root, "project");
  const file = at.startsWith("~/") ? join(home, at.slice(2)) : join(cwd, at);
  await mkdir(dirname(file), { recursive: true });
  await mkdir(cwd, { recursive: true });
  await writeFile(file, text);
  const hosts = await hostFiles({ home, cwd, platform: "linux", env: {} });
  const host = hosts.find((h) => h.file === file);
  if (!host) throw new Error(`no host file found at ${file}`);
  return { host, options: { backupDir: join(home, ".config", "mcp-client", "pooled"), home }, home, cwd, file };
}

/** The entries as the manager's own reader for that file sees them. */
function read(host: HostFile, home: string, cwd: string, text: string): Map<string, Record<string, unknown>> {
  const spec = fileSpecs({ home, cwd, platform: "linux", env: {} }, { document: undefined, approvals: {} }).find(
    (s) => s.file === host.file && s.family === host.family && s.scope !== "local",
  );
  const document = host.format === "toml" ? parseTomlFile(host.file, text) : parseJsonFile(host.file, text);
  const out = new Map<string, Record<string, unknown>>();
  for (const candidate of spec!.read(document).candidates) out.set(candidate.name, candidate.config);
  // `~/.claude.json` also has each project's local entries.
  if (host.file.endsWith(".claude.json"))
    for (const project of Object.values(
      (document as { projects: Record<string, { mcpServers: Record<string, Record<string, unknown>> }> }).projects,
    ))
      for (const [name, raw] of Object.entries(project.mcpServers)) out.set(name, raw);
  return out;
}

describe("mcp hosts pool / unpool on every family's file", () => {
  for (const c of CASES) {
    it(`${c.family} ${c.at}: pool wraps each stdio entry, leaves the rest, is idempotent; unpool restores byte for byte`, async () => {
      const original = await readFile(join(FIXTURES, c.fixture));
      const { host, options, home, cwd, file } = await setup(c.at, original.toString("utf8"));
      const before = read(host, home, cwd, original.toString("utf8"));

      const pooled = await poolFile(host, options);
      expect(pooled.action).toBe("pooled");
      expect(pooled.entries.sort()).toEqual([...c.stdio].sort());
      const text = await readFile(file, "utf8");
      const after = read(host, home, cwd, text);
      for (const name of c.stdio) {
        const was = before.get(name)!;
        const now = after.get(name)!;
        expect(now["command"]).toBe("mcp");
        expect(now["args"]).toEqual(
          shimArgs(
            name,
            `${c.family}:${host.scope}`,
            was["command"] as string,
            (was["args"] as string[] | undefined) ?? [],
          ),
        );
        // env, cwd, timeouts stay where they were: the host still gives them to the shim.
        expect({ ...now, command: undefined, args: undefined }).toEqual({
          ...was,
          command: undefined,
          args: undefined,
        });
      }
      for (const name of c.http) expect(after.get(name)).toEqual(before.get(name));
      // Comments survive (the text around the entries did not move).
      for (const line of original.toString("utf8").split("\n"))
        if (/^\s*(\/\/|#)/.test(line)) expect(text).toContain(line);

      const again = await poolFile(host, options);
      expect(again.action).toBe("unchanged");
      expect(again.entries.sort()).toEqual([...c.stdio].sort());
      expect(await readFile(file, "utf8")).toBe(text);

      const unpooled = await unpoolFile(host, options);
      expect(unpooled.action).toBe("restored");
      expect((await readFile(file)).equals(original)).toBe(true);
      expect(await readdir(options.backupDir)).toEqual([]);
      expect((await unpoolFile(host, options)).action).toBe("unchanged");
    });

    it(`${c.family} ${c.at}: after an edit, unpool refuses; --keep-edits unwraps each entry in place and keeps the edit`, async () => {
      const original = await readFile(join(FIXTURES, c.fixture), "utf8");
      const { host, options, file } = await setup(c.at, original);
      await poolFile(host, options);
      const edited = `${await readFile(file, "utf8")}\n`;
      await writeFile(file, edited);
      const refused = await unpoolFile(host, options).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PoolError);
      expect((refused as PoolError).code).toBe("changed");
      expect((refused as PoolError).message).toContain("--keep-edits");
      expect(await readFile(file, "utf8")).toBe(edited);
      const unwrapped = await unpoolFile(host, { ...options, keepEdits: true });
      expect(unwrapped.action).toBe("unwrapped");
      // The per-entry undo is exact too: the original with the user's edit.
      expect(await readFile(file, "utf8")).toBe(`${original}\n`);
    });
  }

  it("unpool with no backup says what to do, and --keep-edits unwraps without one", async () => {
    const original = await readFile(join(FIXTURES, "cursor.json"), "utf8");
    const { host, options, file } = await setup("~/.cursor/mcp.json", original);
    await poolFile(host, options);
    const pooled = await readFile(file, "utf8");
    await rm(options.backupDir, { recursive: true });
    const error = (await unpoolFile(host, options).catch((e: unknown) => e)) as PoolError;
    expect(error).toBeInstanceOf(PoolError);
    expect(error.code).toBe("no-backup");
    expect(error.message).toMatch(/mcp hosts unpool cursor --keep-edits/);
    expect(await readFile(file, "utf8")).toBe(pooled);
    expect((await unpoolFile(host, { ...options, keepEdits: true })).action).toBe("unwrapped");
    expect(await readFile(file, "utf8")).toBe(original);
  });

  it("unpool with a backup gone missing (the record kept) says so and changes nothing", async () => {
    const { host, options, file } = await setup(
      "~/.cursor/mcp.json",
      await readFile(join(FIXTURES, "cursor.json"), "utf8"),
    );
    const { backup } = await poolFile(host, options);
    const pooled = await readFile(file, "utf8");
    await rm(backup!);
    const error = (await unpoolFile(host, options).catch((e: unknown) => e)) as PoolError;
    expect(error.code).toBe("no-backup");
    expect(error.message).toContain("is missing or not the original");
    expect(await readFile(file, "utf8")).toBe(pooled);
  });

  it("a pooled file given a new stdio entry is not pooled over its backup", async () => {
    const { host, options, file } = await setup(".mcp.json", await readFile(join(FIXTURES, "mcp.json"), "utf8"));
    await poolFile(host, options);
    const text = (await readFile(file, "utf8")).replace(
      '"mcpServers": {',
      '"mcpServers": {\n    "added": { "command": "node", "args": ["x.js"] },',
    );
    await writeFile(file, text);
    const error = (await poolFile(host, options).catch((e: unknown) => e)) as PoolError;
    expect(error.code).toBe("changed");
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("keeps the file's mode, writes through a symlink, and a CRLF TOML file round-trips", async () => {
    const crlf = (await readFile(join(FIXTURES, "codex.toml"), "utf8")).replace(/\n/g, "\r\n");
    const { host, options, home, file } = await setup("~/.codex/config.toml", crlf);
    const real = join(home, "dotfiles-config.toml");
    await writeFile(real, crlf);
    await chmod(real, 0o640);
    await rm(file);
    await symlink(real, file);
    await poolFile(host, options);
    const pooled = await readFile(real, "utf8");
    expect(pooled).not.toMatch(/[^\r]\n/);
    expect(
      (parseTomlFile(real, pooled) as { mcp_servers: { "time-now": { args: string[] } } }).mcp_servers["time-now"].args,
    ).toEqual(shimArgs("time-now", "codex:user", "uvx", []));
    expect((await stat(real)).mode & 0o777).toBe(0o640);
    await unpoolFile(host, options);
    expect(await readFile(real, "utf8")).toBe(crlf);
    expect((await stat(file, { bigint: false })).isFile()).toBe(true);
  });

  it("refuses a file that is not valid JSON and lists it as a problem", async () => {
    const { host, options, home } = await setup("~/.cursor/mcp.json", '{ "mcpServers": { "x": { "command": "npx", } ');
    const error = (await poolFile(host, options).catch((e: unknown) => e)) as PoolError;
    expect(error.code).toBe("unreadable");
    const status = await hostStatus({ home, cwd: home, platform: "linux", env: {} }, options.backupDir, "cursor");
    expect(status[0]?.problem).toMatch(/invalid JSON/);
  });

  it("hostStatus lists families found and which entries are pooled", async () => {
    const { host, options, home } = await setup(
      "~/.gemini/settings.json",
      await readFile(join(FIXTURES, "gemini.json"), "utf8"),
    );
    const cwd = join(dirname(home), "project");
    expect(await hostStatus({ home, cwd, platform: "linux", env: {} }, options.backupDir)).toMatchObject([
      { family: "gemini", stdio: ["pythonTools"], pooled: [], backup: false },
    ]);
    await poolFile(host, options);
    expect(await hostStatus({ home, cwd, platform: "linux", env: {} }, options.backupDir)).toMatchObject([
      { family: "gemini", stdio: ["pythonTools"], pooled: ["pythonTools"], backup: true },
    ]);
  });

  it("shim arguments round-trip, and anything else is not a shim's", () => {
    expect(parseShimArgs(shimArgs("a b", "cursor:user", "npx", ["-y", "--", "x"]))).toEqual({
      name: "a b",
      from: "cursor:user",
      command: "npx",
      args: ["-y", "--", "x"],
    });
    expect(parseShimArgs(["daemon", "stdio", "x"])).toBeUndefined();
    expect(parseShimArgs(["-y", "server"])).toBeUndefined();
  });

  it("a pooled entry unwraps to its original, and an approval of one covers the other", () => {
    const original = { command: "npx", args: ["-y", "pkg"], env: { TOKEN: "t" }, cwd: "/p" };
    const pooled = { ...original, command: "mcp", args: shimArgs("x", "claude-code:project", "npx", ["-y", "pkg"]) };
    expect(unwrapShimConfig(pooled)).toEqual(original);
    expect(unwrapShimConfig(original)).toBeUndefined();
    expect(fingerprintOf(pooled, "salt")).toEqual(fingerprintOf(original, "salt"));
    expect(
      fingerprintOf({ ...pooled, args: shimArgs("x", "claude-code:project", "node", ["evil.js"]) }, "salt")["args"],
    ).not.toBe(fingerprintOf(original, "salt")["args"]);
  });

  it("a Codex entry written as an inline table is named and left alone; the others are pooled", async () => {
    const text =
      '[mcp_servers]\ninline = { command = "npx", args = ["-y", "x"] }\n\n[mcp_servers.table]\ncommand = "uvx"\nargs = ["y"]\n';
    const { host, options, file } = await setup("~/.codex/config.toml", text);
    const outcome = await poolFile(host, options);
    expect(outcome.entries).toEqual(["table"]);
    expect(outcome.skipped).toEqual([
      { name: "inline", reason: expect.stringContaining("[mcp_servers.<name>] table") as unknown },
    ]);
    expect(await readFile(file, "utf8")).toContain('inline = { command = "npx", args = ["-y", "x"] }');
    await unpoolFile(host, options);
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
