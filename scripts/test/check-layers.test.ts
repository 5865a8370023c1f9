import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { removeWorkspaces, workspace } from "./workspace.js";
// @ts-expect-error -- a plain .mjs script without types
import { checkLayers, importsOf } from "../check-layers.mjs";

const check = checkLayers as (root: string) => string[];
const script = fileURLToPath(new URL("../check-layers.mjs", import.meta.url));
const repoRoot = dirname(dirname(script));

function pkg(name: string, dependencies: Record<string, string> = {}) {
  return { name, dependencies };
}

afterEach(removeWorkspaces);

describe("layer check", () => {
  it("passes on this repository", () => {
    expect(check(repoRoot)).toEqual([]);
  });

  it("passes on a clean graph", () => {
    const root = workspace({
      "packages/jsonrpc/package.json": pkg("@mcp/jsonrpc"),
      "packages/jsonrpc/src/index.ts": 'import { x } from "./x.js";\nimport fs from "node:fs";\n',
      "packages/client/package.json": pkg("@mcp/client", {
        "@mcp/jsonrpc": "workspace:*",
        "@mcp/transport-stdio": "workspace:*",
      }),
      "packages/client/src/index.ts":
        'import type { A } from "@mcp/jsonrpc";\nexport { b } from "@mcp/transport-stdio";\n',
      "apps/cli/package.json": pkg("cli", { "@mcp/manager": "workspace:*" }),
      "apps/cli/src/index.ts": 'import "@mcp/manager";\n',
    });
    expect(check(root)).toEqual([]);
  });

  it.each([
    ["jsonrpc importing client", "@mcp/jsonrpc", "jsonrpc", "@mcp/client"],
    ["client importing manager", "@mcp/client", "client", "@mcp/manager"],
    ["transport-stdio importing transport-http", "@mcp/transport-stdio", "transport-stdio", "@mcp/transport-http"],
    ["lite importing transport-http", "@mcp/lite", "lite", "@mcp/transport-http"],
  ])("fails on %s", (_label, name, dir, forbidden) => {
    const root = workspace({
      [`packages/${dir}/package.json`]: pkg(name, { [forbidden]: "workspace:*" }),
      [`packages/${dir}/src/index.ts`]: `// a comment mentioning "${forbidden}" is fine\nimport { thing } from "${forbidden}";\n`,
    });
    const violations = check(root);
    expect(violations).toContain(
      `packages/${dir}/package.json: ${name} declares ${forbidden} in dependencies, which is not below it`,
    );
    expect(violations).toContain(
      `packages/${dir}/src/index.ts:2: ${name} imports ${forbidden}, which is not below it in the package graph`,
    );
  });

  it("fails on an undeclared dependency, a dynamic import, and a relative import into a sibling", () => {
    const root = workspace({
      "packages/lite/package.json": pkg("@mcp/lite", { "@mcp/jsonrpc": "workspace:*" }),
      "packages/lite/src/index.ts":
        'import { createParser } from "eventsource-parser";\nconst m = await import("@mcp/jsonrpc");\nimport { y } from "../../jsonrpc/src/y.js";\n',
    });
    expect(check(root)).toEqual([
      "packages/lite/src/index.ts:1: @mcp/lite imports eventsource-parser, which its package.json does not declare in dependencies",
      'packages/lite/src/index.ts:3: relative import "../../jsonrpc/src/y.js" reaches outside @mcp/lite',
    ]);
  });

  it("lets store-redis's tests read the gateway's types (TEST_TYPES_ONLY), and nothing more of it", () => {
    const root = workspace({
      "packages/store-redis/package.json": {
        name: "@mcp/store-redis",
        devDependencies: { "@mcp/gateway": "workspace:*" },
      },
      "packages/store-redis/test/ok.test.ts": 'import type { RateLimitStore } from "@mcp/gateway";\n',
      "packages/store-redis/test/value.test.ts": 'import { createGateway } from "@mcp/gateway";\n',
      "packages/store-redis/src/a.ts": 'import type { SessionStore } from "@mcp/gateway";\n',
    });
    expect(check(root)).toEqual([
      "packages/store-redis/src/a.ts:1: @mcp/store-redis may read @mcp/gateway's types only, with `import type` in a test (TEST_TYPES_ONLY)",
      "packages/store-redis/test/value.test.ts:1: @mcp/store-redis may read @mcp/gateway's types only, with `import type` in a test (TEST_TYPES_ONLY)",
    ]);
  });

  it("lets an app import packages, never another app (declared or imported, in src or tests)", () => {
    const root = workspace({
      "packages/manager/package.json": pkg("@mcp/manager"),
      "packages/manager/src/index.ts": "export {};\n",
      "apps/inspector/package.json": pkg("@mcp/inspector-app"),
      "apps/inspector/src/index.ts": "export {};\n",
      "apps/cli/package.json": {
        name: "@mcp/cli",
        dependencies: { "@mcp/manager": "workspace:*", "@mcp/inspector-app": "workspace:*" },
      },
      "apps/cli/src/index.ts": 'import "@mcp/manager";\nimport { page } from "@mcp/inspector-app";\n',
      "apps/cli/test/a.test.ts": 'import "@mcp/inspector-app";\n',
    });
    expect(check(root)).toEqual([
      "apps/cli/package.json: @mcp/cli declares @mcp/inspector-app in dependencies, which is an app: an app may import packages, never another app",
      "apps/cli/src/index.ts:2: @mcp/cli imports @mcp/inspector-app, which is an app: an app may import packages, never another app",
      "apps/cli/test/a.test.ts:1: @mcp/cli imports @mcp/inspector-app, which is an app: an app may import packages, never another app",
    ]);
  });

  it("lets tests use dev dependencies but not src", () => {
    const root = workspace({
      "package.json": { devDependencies: { vitest: "1" } },
      "packages/jsonrpc/package.json": { name: "@mcp/jsonrpc", devDependencies: { "fast-check": "1" } },
      "packages/jsonrpc/test/a.test.ts": 'import fc from "fast-check";\nimport { it } from "vitest";\n',
      "packages/jsonrpc/src/a.ts": 'import fc from "fast-check";\n',
    });
    expect(check(root)).toEqual([
      "packages/jsonrpc/src/a.ts:1: @mcp/jsonrpc imports fast-check, which its package.json does not declare in dependencies",
    ]);
  });

  it("exits 1 with the violations when run as a command", () => {
    const root = workspace({
      "packages/jsonrpc/package.json": pkg("@mcp/jsonrpc"),
      "packages/jsonrpc/src/index.ts": 'import "@mcp/client";\n',
    });
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, [script, root], { stdio: "pipe", encoding: "utf8" });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain("@mcp/jsonrpc imports @mcp/client, which is not below it in the package graph");
  });

  it("finds every import form", () => {
    const found = (importsOf as (c: string) => { specifier: string }[])(
      'import a from "a";\nimport type { B } from "b";\nimport "c";\nexport * from "d";\nexport { e } from "e";\nconst f = await import("f");\nconst g = require("g");\n/* import "h"; */\n',
    ).map((x) => x.specifier);
    expect(found.sort()).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
  });
});
