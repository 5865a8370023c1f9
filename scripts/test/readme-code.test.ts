import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without types
import { checkExamples, examples } from "../check-readme-code.mjs";

const check = checkExamples as (base?: string) => string[];
const list = examples as (base?: string) => { readme: string; index: number; code: string }[];
const repoRoot = dirname(dirname(fileURLToPath(new URL("../check-readme-code.mjs", import.meta.url))));
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("the README examples", () => {
  it("every package README's TypeScript example compiles against the built packages", () => {
    expect(list().length).toBeGreaterThanOrEqual(8);
    expect(check()).toEqual([]);
  }, 60_000);

  it("an example that imports what a package does not export fails, naming its README and line", () => {
    const base = mkdtempSync(join(tmpdir(), "readme-check-"));
    roots.push(base);
    cpSync(join(repoRoot, "tsconfig.base.json"), join(base, "tsconfig.base.json"));
    symlinkSync(join(repoRoot, "node_modules"), join(base, "node_modules"));
    mkdirSync(join(base, "packages", "demo", "dist"), { recursive: true });
    writeFileSync(join(base, "packages", "demo", "dist", "index.d.ts"), "export declare function hello(): string;\n");
    writeFileSync(
      join(base, "packages", "demo", "README.md"),
      '# demo\n\n```ts\nimport { hello } from "@mcp/demo";\nconsole.log(hello());\n```\n\n```ts\nimport { goodbye } from "@mcp/demo";\nconsole.log(goodbye());\n```\n',
    );
    const problems = check(base);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(
      /^packages\/demo\/README\.md, example 2, line 1: error TS2305: Module '"@mcp\/demo"' has no exported member 'goodbye'/,
    );
  }, 60_000);
});
