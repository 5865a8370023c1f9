import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { removeWorkspaces, workspace } from "./workspace.js";
// @ts-expect-error -- a plain .mjs script without types
import { generate, headerComment, jobOf } from "../architecture-tables.mjs";

const generateTables = generate as (
  root: string,
  document: string,
  noHeaderYet?: Record<string, string>,
) => { document: string; problems: string[] };
const header = headerComment as (source: string, openingOnly?: boolean) => string[] | undefined;
const job = jobOf as (header: string[]) => string;
const repoRoot = dirname(dirname(fileURLToPath(new URL("../architecture-tables.mjs", import.meta.url))));

afterEach(removeWorkspaces);

const doc = (folder: string): string =>
  `# A\n\n### \`pkg\`\n<!-- files: ${folder} -->\nold table\n<!-- /files -->\n\nafter\n`;

describe("the architecture tables", () => {
  it("match the sources in this repository", () => {
    const current = readFileSync(join(repoRoot, "docs/architecture.md"), "utf8");
    const { document, problems } = generateTables(repoRoot, current);
    expect(problems).toEqual([]);
    expect(document).toBe(current);
  });

  it("take a file's header: the opening comment, or one standing alone after the imports; not a declaration's doc", () => {
    expect(header('#!/usr/bin/env node\n// The entry.\nimport x from "y";\n')).toEqual(["The entry."]);
    expect(
      header(
        'import { a } from "./a.js";\nimport {\n  b,\n} from "./b.js";\n\n// After the imports.\n\nexport const c = 1;\n',
      ),
    ).toEqual(["After the imports."]);
    expect(header("/** Splits words. */\nexport function split(): void {}\n")).toBeUndefined();
    expect(header('import { a } from "./a.js";\n/** The constant. */\nexport const c = a;\n')).toBeUndefined();
    expect(header("/**\n * The file's job.\n */\n\nexport const c = 1;\n")).toEqual(["", "The file's job.", ""]);
    expect(
      header('export { a } from "./a.js";\n\n// A note on the names below.\nexport { b } from "./b.js";\n', true),
    ).toBeUndefined();
  });

  it("use the first sentence of the header's first paragraph as the job, a pipe escaped", () => {
    expect(job(["`mcp x | y`: does one thing. Then more", "on the next line.", "", "Another paragraph."])).toBe(
      "`mcp x \\| y`: does one thing",
    );
    expect(job(["Names `a. B` inside code, e.g. the end."])).toBe("Names `a. B` inside code, e.g. the end");
  });

  it("rewrite a stale table: one row per file, subfolders after the folder's own files, tests left out", () => {
    const root = workspace({
      "packages/p/src/b.ts": "// Bee.\nexport const b = 1;\n",
      "packages/p/src/a.ts": "// Ay: the first.\nexport const a = 1;\n",
      "packages/p/src/index.ts": 'export { a } from "./a.js";\n',
      "packages/p/src/sub/c.ts": "// Sea.\nexport const c = 1;\n",
      "packages/p/src/a.test.ts": "export {};\n",
    });
    const { document, problems } = generateTables(root, doc("packages/p/src"));
    expect(problems).toEqual([]);
    expect(document).toBe(
      "# A\n\n### `pkg`\n<!-- files: packages/p/src -->\n| file | job |\n|---|---|\n| `a.ts` | Ay: the first |\n| `b.ts` | Bee |\n| `index.ts` | The public entry: what the package exports |\n| `sub/c.ts` | Sea |\n<!-- /files -->\n\nafter\n",
    );
  });

  it("name a file without a header and say how to fix it, and a package without a table", () => {
    const root = workspace({
      "packages/p/src/a.ts": "export const a = 1;\n",
      "packages/q/src/b.ts": "// Bee.\nexport const b = 1;\n",
    });
    const { problems } = generateTables(root, doc("packages/p/src"));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain("packages/p/src/a.ts has no header comment");
    expect(problems[0]).toContain("node scripts/architecture-tables.mjs --write");
    expect(problems[1]).toContain("docs/architecture.md has no table for packages/q/src");
  });

  it("give a listed file without a header its listed job, and refuse the listing once it has one", () => {
    const root = workspace({
      "packages/p/src/big.ts": "export const a = 1;\n",
      "packages/p/src/done.ts": "// Done.\nexport const d = 1;\n",
    });
    const { document, problems } = generateTables(root, doc("packages/p/src"), {
      "packages/p/src/big.ts": "Big",
      "packages/p/src/done.ts": "Old",
    });
    expect(document).toContain("| `big.ts` | Big |\n| `done.ts` | Done |");
    expect(problems).toEqual([
      "packages/p/src/done.ts has a header comment now: remove it from NO_HEADER_YET in scripts/architecture-tables.mjs",
    ]);
  });
});
