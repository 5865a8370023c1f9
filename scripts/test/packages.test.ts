// What each published package ships: its source maps must point at files in the tarball, and its
// manifest must say where it lives. Run after `pnpm build` (as CI does).
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dirs = readdirSync(join(root, "packages")).map((name) => join(root, "packages", name));
const manifests = dirs.map((dir) => ({
  dir,
  json: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>,
}));
const published = manifests.filter((m) => m.json["private"] !== true);

describe("published packages", () => {
  // One `npm pack` for every package (each npm start costs seconds on a loaded machine; seventeen
  // of them, one per test, overran the per-test timeout there). The timeout only guards a hang.
  const packed = new Map<string, Set<string>>();
  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts", ...published.map((m) => `./${relative(root, m.dir)}`)],
      { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    for (const pack of JSON.parse(stdout) as { name: string; files: { path: string }[] }[])
      packed.set(pack.name, new Set(pack.files.map((f) => normalize(f.path))));
  }, 300_000);

  it("are the ones with code; a package without code stays private", () => {
    for (const { dir, json } of manifests) {
      const index = readFileSync(join(dir, "src", "index.ts"), "utf8").trim();
      if (index === "export {};") expect(json["private"], `${String(json["name"])} has no code yet`).toBe(true);
    }
    expect(published.length).toBeGreaterThanOrEqual(5);
  });

  for (const { dir, json } of published) {
    it(`${String(json["name"])}: ships what its source maps point to, and names its repository directory`, () => {
      expect(json["repository"]).toMatchObject({ type: "git", directory: relative(root, dir) });
      const files = packed.get(String(json["name"]));
      if (files === undefined) throw new Error(`npm pack did not pack ${String(json["name"])}`);
      const maps = [...files].filter((path) => path.endsWith(".map"));
      expect(maps.length).toBeGreaterThan(0);
      for (const map of maps) {
        const { sources } = JSON.parse(readFileSync(join(dir, map), "utf8")) as { sources: string[] };
        for (const source of sources) {
          const target = normalize(join(dirname(map), source));
          expect(files.has(target), `${map} points to ${target}, which the package does not ship`).toBe(true);
          expect(existsSync(join(dir, target))).toBe(true);
        }
      }
      expect(
        [...files].some((path) => path.startsWith("test/")),
        "tests are not shipped",
      ).toBe(false);
    });
  }
});
