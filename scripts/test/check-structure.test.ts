import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { removeWorkspaces, workspace } from "./workspace.js";
// @ts-expect-error -- a plain .mjs script without types
import { checkStructure, MAX_LINES } from "../check-structure.mjs";

const check = checkStructure as (root: string, oversized?: Record<string, number>, knownCycles?: string[]) => string[];
const repoRoot = dirname(dirname(fileURLToPath(new URL("../check-structure.mjs", import.meta.url))));

const lines = (n: number): string => "export const x = 1;\n".repeat(n);

afterEach(removeWorkspaces);

describe("the structure check", () => {
  it("passes on this repository", () => {
    expect(check(repoRoot)).toEqual([]);
  });

  it("refuses a source file over the limit, and a listed one that grew or no longer needs listing", () => {
    const root = workspace({
      "packages/a/src/big.ts": lines(MAX_LINES + 1),
      "packages/a/src/listed.ts": lines(450),
      "packages/a/src/small.ts": lines(10),
    });
    expect(check(root, { "packages/a/src/listed.ts": 449, "packages/a/src/small.ts": 500 })).toEqual([
      `packages/a/src/big.ts: ${MAX_LINES + 1} lines; a source file has at most ${MAX_LINES} (split it by job)`,
      "packages/a/src/listed.ts: 450 lines; it is listed as oversized at 449 and may only shrink",
      `packages/a/src/small.ts: 10 lines, under ${MAX_LINES} now: remove it from OVERSIZED in scripts/check-structure.mjs`,
    ]);
  });

  it("refuses an import cycle between files, type-only imports included; a chain is fine", () => {
    const root = workspace({
      "packages/a/src/one.ts": 'import { two } from "./two.js";\nexport const one = two;\n',
      "packages/a/src/two.ts": 'import type { Three } from "./three.js";\nexport const two = 2 as unknown as Three;\n',
      "packages/a/src/three.ts": 'import type { one } from "./one.js";\nexport type Three = typeof one;\n',
      "apps/b/src/x.ts": 'import { y } from "./y.js";\nexport const x = y;\n',
      "apps/b/src/y.ts": "export const y = 1;\n",
    });
    expect(check(root, {})).toEqual([
      "import cycle: packages/a/src/one.ts -> packages/a/src/two.ts -> packages/a/src/three.ts -> (back to the first); give the shared part a file of its own that both import",
    ]);
  });
});
