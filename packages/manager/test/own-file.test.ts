// Our own config file written in place (moved from the CLI's `mcp config add | remove` and `mcp registry add | update`).
import { chmod, lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { editOwnConfig, looksLikeSecret, readOwnServers } from "../src/index.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "own-file-"));
  dirs.push(dir);
  return dir;
}

describe("our own config file", () => {
  it("editOwnConfig makes a missing file and its folder, adds, replaces and removes an entry, keeping comments", async () => {
    const file = join(await folder(), "nested", "mcp-client.json");
    expect(await readOwnServers(file)).toEqual({});
    await editOwnConfig(file, ["servers", "a"], { command: "node", args: ["a.js"] });
    expect(await readOwnServers(file)).toEqual({ a: { command: "node", args: ["a.js"] } });
    await writeFile(file, (await readFile(file, "utf8")).replace("{\n", "{\n  // mine, keep me\n"));
    await editOwnConfig(file, ["servers", "b"], { url: "https://example.invalid/mcp", type: "http" });
    await editOwnConfig(file, ["servers", "a"], undefined);
    const text = await readFile(file, "utf8");
    expect(text).toContain("// mine, keep me");
    expect(await readOwnServers(file)).toEqual({ b: { url: "https://example.invalid/mcp", type: "http" } });
  });

  it("editOwnConfig: edits sent at once all land, the file whole at each step (it lost all but the last, issue 55)", async () => {
    const dir = await folder();
    const file = join(dir, "mcp-client.json");
    await writeFile(file, '{\n  // mine\n  "servers": {}\n}\n');
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    await Promise.all(names.map((name) => editOwnConfig(file, ["servers", name], { command: "node", args: [name] })));
    expect(Object.keys(await readOwnServers(file)).sort()).toEqual([...names].sort());
    await Promise.all(names.slice(0, 10).map((name) => editOwnConfig(file, ["servers", name], undefined)));
    expect(Object.keys(await readOwnServers(file)).sort()).toEqual(names.slice(10).sort());
    expect(await readFile(file, "utf8")).toContain("// mine");
    // No temporary file is left beside it.
    expect(await readdir(dir)).toEqual(["mcp-client.json"]);
  });

  it("editOwnConfig replaces the file whole but keeps its mode, and a symlinked file's link (its target edited)", async () => {
    const dir = await folder();
    const real = join(dir, "dotfiles", "mcp-client.json");
    await editOwnConfig(real, ["servers", "a"], { command: "a" });
    await chmod(real, 0o600);
    const link = join(dir, "mcp-client.json");
    await symlink(real, link);
    await editOwnConfig(link, ["servers", "b"], { command: "b" });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await stat(real)).mode & 0o777).toBe(0o600);
    expect(await readOwnServers(real)).toEqual({ a: { command: "a" }, b: { command: "b" } });
  });

  it("editOwnConfig takes turns with another process through <file>.lock: waits for a live holder, takes over a dead one's", async () => {
    const dir = await folder();
    const file = join(dir, "mcp-client.json");
    await editOwnConfig(file, ["servers", "first"], { command: "first" });
    // Another process holds the lock (a live child's pid) and is mid-edit.
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      await once(holder, "spawn");
      await writeFile(`${file}.lock`, `${holder.pid}\n`);
      let settled = false;
      const ours = editOwnConfig(file, ["servers", "ours"], { command: "ours" }).finally(() => (settled = true));
      // The holder writes its edit, then lets go: ours must start from what it wrote.
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace('"servers": {', '"servers": {\n    "theirs": { "command": "theirs" },'));
      expect(settled).toBe(false);
      await rm(`${file}.lock`);
      await ours;
      expect(Object.keys(await readOwnServers(file)).sort()).toEqual(["first", "ours", "theirs"]);
    } finally {
      holder.kill();
    }
    // A lock left by a process that is gone is taken over, and removed after the edit.
    const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await once(gone, "exit");
    await writeFile(`${file}.lock`, `${gone.pid}\n`);
    await editOwnConfig(file, ["servers", "after"], { command: "after" });
    expect(Object.keys(await readOwnServers(file))).toContain("after");
    expect(await readdir(dir)).toEqual(["mcp-client.json"]);
  });

  it("readOwnServers reads what it can: no servers, not an object, or a file with comments", async () => {
    const dir = await folder();
    await writeFile(join(dir, "none.json"), '{ "registry": "https://r.example" }');
    await writeFile(join(dir, "list.json"), '{ "servers": [1] }');
    await writeFile(join(dir, "jsonc.json"), '{\n  // c\n  "servers": { "x": { "command": "y", }, },\n}');
    expect(await readOwnServers(join(dir, "none.json"))).toEqual({});
    expect(await readOwnServers(join(dir, "list.json"))).toEqual({});
    expect(await readOwnServers(join(dir, "jsonc.json"))).toEqual({ x: { command: "y" } });
  });

  it("looksLikeSecret: a long mixed token, with or without a scheme; never a ${VAR}, a path, a URL or a word", () => {
    expect(looksLikeSecret("Bearer ghp_abcdefghijklmnop1234567890")).toBe(true);
    expect(looksLikeSecret("sk-proj-0123456789abcdefghij")).toBe(true);
    expect(looksLikeSecret("Bearer ${GITHUB_TOKEN}")).toBe(false);
    expect(looksLikeSecret("/usr/local/share/some-folder-2024")).toBe(false);
    expect(looksLikeSecret("https://example.com/a1b2c3d4e5f6g7h8")).toBe(false);
    expect(looksLikeSecret("application-json-content-type")).toBe(false);
    expect(looksLikeSecret("short1")).toBe(false);
  });
});
