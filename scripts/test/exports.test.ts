// Each package's runtime exports, pinned in exports.json: adding or removing one is a decision made
// in review (and a changeset), never a side effect of moving code between files. Type-only exports
// are checked by the type checker where they are used (and in the README examples). Reads the
// built packages (the test command builds first).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const pinned = JSON.parse(readFileSync(new URL("./exports.json", import.meta.url), "utf8")) as Record<string, string[]>;

describe("the runtime exports of each package", () => {
  it.each(Object.keys(pinned))("%s exports what exports.json lists", async (name) => {
    // "@mcp/client" is packages/client/dist/index.js; a public subpath "@mcp/client/apps" is packages/client/dist/apps.js.
    const [dir, entry = "index"] = name.slice("@mcp/".length).split("/");
    const module = (await import(new URL(`../../packages/${dir}/dist/${entry}.js`, import.meta.url).href)) as Record<
      string,
      unknown
    >;
    expect(Object.keys(module).sort()).toEqual(pinned[name]);
  });

  it("every package is pinned", async () => {
    const { readdirSync } = await import("node:fs");
    const names = readdirSync(new URL("../../packages/", import.meta.url)).map((dir) => `@mcp/${dir}`);
    expect(names.filter((name) => !(name in pinned))).toEqual([]);
  });
});
