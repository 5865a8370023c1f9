// The test tiers (scripts/test-tiers.mjs) and the source resolution every tier runs with
// (scripts/vitest-source.mjs): a file lands in the tier its needs call for, `pnpm test` (the unit
// tier) names no build, browser, Redis or tmux, and `@mcp/*` specifiers reach `src`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module of the repository's scripts, without types
import { globRegExp, RULES, TIERS, tierOf } from "../test-tiers.mjs";
// @ts-expect-error -- a plain ES module of the repository's scripts, without types
import { lookup, sourceOf, sourcePackages } from "../vitest-source.mjs";

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** Every test file of the repository, by its path from the root. */
function testFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (["node_modules", "dist", ".git", ".turbo"].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name)) found.push(relative(root, path).split("\\").join("/"));
    }
  };
  for (const group of ["packages", "apps", "tools", "scripts"]) walk(join(root, group));
  return found;
}

/** What puts a file outside the unit tier, as its text shows it. */
const NEEDS: [string, RegExp][] = [
  ["a build (its own dist/)", /new URL\(["'`](\.\.\/)+dist\//],
  ["Chromium", /from ["'`]playwright|CHROMIUM_PATH/],
  ["redis-server", /REDIS_SERVER_PATH|startRedis|redis-server/],
  ["tmux", /from ["'`]\.\/tmux\.js|spawn\w*\(["'`]tmux/],
  ["the built CLI", /\bbin\b[^}]*\} from ["'`]\.\/helpers\.js/],
];

/** A script run by Node (not Vitest) imports a package's build: by a relative `dist/` path or by name. */
const CHILD_NEEDS_BUILD = /["'`](\.\.\/)+dist\/|from ["'`]@mcp\//;

describe("test tiers", () => {
  it("a path takes the first rule that matches it; a file no rule names is a unit test", () => {
    expect(tierOf("apps/cli/test/serve.test.ts")).toBe("e2e");
    expect(tierOf("packages/inspector/test/inspect-browser.test.ts")).toBe("e2e");
    expect(tierOf("apps/inspector/test/own-project-terminal.test.ts")).toBe("e2e");
    expect(tierOf("tools/runtimes/test/runtimes.test.ts")).toBe("matrix");
    expect(tierOf("tools/reliability/test/soak.test.ts")).toBe("soak");
    expect(tierOf("tools/reliability/test/faults-http.test.ts")).toBe("unit");
    expect(tierOf("packages/gateway/test/a-new.test.ts")).toBe("unit");
    expect(tierOf("packages/jsonrpc/test/errors.test.ts")).toBe("e2e");
    for (const rule of RULES as { tier: string }[]) expect(TIERS).toContain(rule.tier);
  });

  it("globs: `*` stays within a folder, `**/` spans any number of them, other characters are literal", () => {
    expect(globRegExp("a/*.ts").test("a/b.ts")).toBe(true);
    expect(globRegExp("a/*.ts").test("a/b/c.ts")).toBe(false);
    expect(globRegExp("**/test/*.ts").test("x/y/test/z.ts")).toBe(true);
    expect(globRegExp("**/test/*.ts").test("test/z.ts")).toBe(true);
    expect(globRegExp("a/**").test("a/b/c")).toBe(true);
    expect(globRegExp("a.ts").test("abts")).toBe(false);
  });

  it("`pnpm test` (the unit tier) holds no file that needs a build, Chromium, redis-server, tmux or the built CLI", () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    const unit = files.filter((file) => tierOf(file) === "unit" && file !== "scripts/test/test-tiers.test.ts");
    expect(unit.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const file of unit) {
      const text = readFileSync(join(root, file), "utf8");
      for (const [need, marker] of NEEDS)
        if (marker.test(text)) wrong.push(`${file} needs ${need}: add a rule to scripts/test-tiers.mjs`);
      // A fixture it runs as a child process: Node resolves that one's imports, to the build.
      for (const [, fixture] of text.matchAll(/["'`]\.\/(fixtures\/[\w.-]+\.m?js)["'`]/g)) {
        const code = readFileSync(join(root, dirname(file), fixture!), "utf8");
        if (CHILD_NEEDS_BUILD.test(code))
          wrong.push(`${file} runs ${fixture}, which imports a build: add a rule to scripts/test-tiers.mjs`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the markers find what they look for (in the files the rules send elsewhere)", () => {
    const elsewhere = testFiles()
      .filter((file) => tierOf(file) !== "unit")
      .map((file) => readFileSync(join(root, file), "utf8"));
    for (const [need, marker] of NEEDS)
      expect(
        elsewhere.some((text) => marker.test(text)),
        need,
      ).toBe(true);
    expect(
      CHILD_NEEDS_BUILD.test(readFileSync(join(root, "packages/manager/test/fixtures/discover-here.mjs"), "utf8")),
    ).toBe(true);
    expect(
      CHILD_NEEDS_BUILD.test(readFileSync(join(root, "packages/client/test/fixtures/error-matrix.mjs"), "utf8")),
    ).toBe(true);
  });
});

describe("workspace packages resolved from their sources", () => {
  const plugin = sourcePackages(root) as { resolveId(id: string, importer?: string): string | null };

  it("a package, a subpath export and a package's own # import reach src/*.ts", () => {
    expect(plugin.resolveId("@mcp/client")).toBe(join(root, "packages/client/src/index.ts"));
    expect(plugin.resolveId("@mcp/transport-stdio/config")).toBe(join(root, "packages/transport-stdio/src/config.ts"));
    expect(plugin.resolveId("#stdio", join(root, "packages/client/src/connect.ts"))).toBe(
      join(root, "packages/client/src/stdio-node.ts"),
    );
    expect(plugin.resolveId("#platform", join(root, "packages/lite/src/index.ts"))).toBe(
      join(root, "packages/lite/src/platform-node.ts"),
    );
  });

  it("a file that is not built (package.json, a JSON schema) is itself; anything else is left to Vite", () => {
    expect(plugin.resolveId("@mcp/client/package.json")).toBe(join(root, "packages/client/package.json"));
    expect(plugin.resolveId("@mcp/manager/schema.json")).toBe(
      join(root, "packages/manager/schema/mcp-client.schema.json"),
    );
    expect(plugin.resolveId("@mcp/client/not-exported")).toBeNull();
    expect(plugin.resolveId("undici")).toBeNull();
    expect(plugin.resolveId("mcp-test-utils")).toBeNull();
    expect(plugin.resolveId("#stdio", join(root, "packages/jsonrpc/src/index.ts"))).toBeNull();
  });

  it("exports maps: conditions in Node's order, `*` patterns, sugar", () => {
    const map = {
      ".": { types: "./dist/index.d.ts", bun: "./dist/bun.js", node: "./dist/node.js", default: "./dist/web.js" },
      "./sub/*": { default: "./dist/sub/*.js" },
    };
    expect(lookup(map, ".")).toBe("./dist/node.js");
    expect(lookup(map, "./sub/a")).toBe("./dist/sub/a.js");
    expect(lookup(map, "./other")).toBeUndefined();
    expect(lookup("./dist/index.js", ".")).toBe("./dist/index.js");
    expect(lookup({ import: "./dist/index.js" }, ".")).toBe("./dist/index.js");
    expect(sourceOf(join(root, "packages/jsonrpc"), "./dist/nowhere.js")).toBeUndefined();
  });
});
