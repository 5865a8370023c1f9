// Tests run against the sources: a Vite plugin that resolves the workspace's `@mcp/*` packages
// (`@mcp/client`, `@mcp/jsonrpc/internal`, and a package's own `#subpath` imports) to their
// `src/*.ts` instead of the `dist/*.js` their package.json names. It reads every package.json of
// the workspace, so a new package, export or subpath import needs nothing here. Only Vitest uses
// it: `tsc` builds and the published packages still read `exports` as written. The test helpers
// (`mcp-test-utils`) stay built: their servers run as Node scripts by path, which needs `.js`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The conditions Node matches for an `import` in a Node process, in the order it tries keys. */
const CONDITIONS = new Set(["node", "import", "default"]);

/** Every workspace package of `root` (packages/*, apps/*, tools/*): name, folder, exports, imports. */
export function workspacePackages(root) {
  const found = [];
  for (const group of ["packages", "apps", "tools"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const manifest = join(base, name, "package.json");
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, "utf8"));
      found.push({ name: json.name, dir: join(base, name), exports: json.exports, imports: json.imports });
    }
  }
  return found;
}

/** The path a conditional target gives a Node `import`, or undefined (Node's order: first matching key). */
function pick(target) {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return target.map(pick).find((t) => t !== undefined);
  if (target === null || typeof target !== "object") return undefined;
  for (const [key, value] of Object.entries(target)) if (CONDITIONS.has(key)) return pick(value);
  return undefined;
}

/** The target of `subpath` ("." or "./x" or "#x") in an exports or imports map, `*` patterns included. */
export function lookup(map, subpath) {
  if (map === undefined || map === null) return undefined;
  if (
    typeof map === "string" ||
    Array.isArray(map) ||
    !Object.keys(map).some((k) => k.startsWith(".") || k.startsWith("#"))
  )
    return subpath === "." ? pick(map) : undefined;
  if (subpath in map) return pick(map[subpath]);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf("*");
    if (star < 0 || !subpath.startsWith(key.slice(0, star)) || !subpath.endsWith(key.slice(star + 1))) continue;
    const matched = subpath.slice(star, subpath.length - (key.length - star - 1));
    return pick(value)?.replaceAll("*", matched);
  }
  return undefined;
}

/** `./dist/x.js` in `dir` as the source file it is built from (`src/x.ts`, `.tsx`, `.mts`), else the file itself. */
export function sourceOf(dir, target) {
  const file = join(dir, target);
  const built = /^\.\/dist\/(.+)\.[cm]?js$/.exec(target);
  if (built === null) return existsSync(file) ? file : undefined;
  for (const ext of [".ts", ".tsx", ".mts"]) {
    const source = join(dir, "src", built[1] + ext);
    if (existsSync(source)) return source;
  }
  return undefined;
}

/** The Vite plugin: workspace package specifiers (and a package's own `#` imports) to their sources. */
export function sourcePackages(root) {
  const packages = workspacePackages(root).filter((p) => typeof p.name === "string" && p.name.startsWith("@mcp/"));
  const byName = new Map(packages.map((p) => [p.name, p]));
  return {
    name: "mcp-workspace-sources",
    enforce: "pre",
    resolveId(id, importer) {
      if (id.startsWith("#")) {
        if (importer === undefined) return null;
        const owner = packages.find(
          (p) =>
            !relative(p.dir, importer).startsWith("..") && !relative(p.dir, importer).includes(`node_modules${sep}`),
        );
        const target = owner && lookup(owner.imports, id);
        return (target && sourceOf(owner.dir, target)) ?? null;
      }
      const parts = id.split("/");
      const name = id.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
      const pkg = byName.get(name);
      if (pkg === undefined) return null;
      const subpath = id === name ? "." : `.${id.slice(name.length)}`;
      const target = lookup(pkg.exports, subpath);
      return (target && sourceOf(pkg.dir, target)) ?? null;
    },
  };
}
