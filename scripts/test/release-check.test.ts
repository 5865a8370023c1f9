import { afterEach, describe, expect, it } from "vitest";
import { removeWorkspaces, workspace } from "./workspace.js";
// @ts-expect-error -- a plain .mjs script without types
import { checkChangesets, checkTarball, manifestTargets, unaskedMajors } from "../release-check.mjs";

type Plan = { releases: { name: string; type: string; oldVersion: string; newVersion: string }[] };
const changesets = checkChangesets as (
  dir: string,
  publicNames: Set<string>,
) => { problems: string[]; asked: Map<string, string> };
const majors = unaskedMajors as (plan: Plan, asked: Map<string, string>) => string[];
const targets = manifestTargets as (json: object) => string[];
const tarball = checkTarball as (name: string, files: string[], packed: object) => string[];

afterEach(removeWorkspaces);

describe("the release check", () => {
  it("reads each changeset's frontmatter, and names the file of each problem", () => {
    const dir = workspace({
      "good.md": '---\n"@mcp/a": patch\n"@mcp/b": minor\n---\n\nSomething.\n',
      "bigger.md": "---\n'@mcp/a': minor\n---\n\nMore.\n",
      "private.md": '---\n"@mcp/example": minor\n---\n\nText.\n',
      "typo.md": '---\n"@mcp/b": mayor\n---\n\nText.\n',
      "empty.md": '---\n"@mcp/b": patch\n---\n\n',
      "bare.md": "No frontmatter.\n",
      "README.md": "Not a changeset.\n",
    });
    const { problems, asked } = changesets(dir, new Set(["@mcp/a", "@mcp/b"]));
    expect(problems).toEqual([
      '.changeset/bare.md: no frontmatter; it starts with "---", one line per package ("@mcp/x": minor), then "---"',
      ".changeset/empty.md: says nothing; a changeset's text is its changelog entry",
      ".changeset/private.md: @mcp/example is not a public package of this workspace",
      '.changeset/typo.md: @mcp/b: "mayor" is not major, minor or patch',
    ]);
    expect(asked.get("@mcp/a")).toBe("minor");
  });

  it("refuses a major that no changeset asked for, and lets one that was asked for through", () => {
    const plan = {
      releases: [
        { name: "@mcp/store-redis", type: "major", oldVersion: "0.1.0", newVersion: "1.0.0" },
        { name: "@mcp/client", type: "major", oldVersion: "1.2.0", newVersion: "2.0.0" },
        { name: "@mcp/manager", type: "minor", oldVersion: "0.1.0", newVersion: "0.2.0" },
      ],
    };
    expect(
      majors(
        plan,
        new Map([
          ["@mcp/client", "major"],
          ["@mcp/manager", "minor"],
        ]),
      ),
    ).toEqual([
      "@mcp/store-redis would be bumped to a major (0.1.0 -> 1.0.0) that no changeset asks for: a package it depends on left its range",
    ]);
  });

  it("checks a tarball: every file the manifest names, a README, no tests, no workspace range", () => {
    const manifest = {
      main: "./dist/index.js",
      types: "./dist/index.d.ts",
      bin: { mcp: "dist/bin.js" },
      exports: {
        ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
        "./x": { default: "./dist/x.js" },
        "./package.json": "./package.json",
      },
      imports: {
        "#platform": { node: "./dist/platform-node.js", default: "./dist/platform-web.js" },
        "#dep": "some-package",
      },
      peerDependencies: { "@mcp/manager": "workspace:^" },
    };
    expect(targets(manifest).sort()).toEqual([
      "dist/bin.js",
      "dist/index.d.ts",
      "dist/index.js",
      "dist/platform-node.js",
      "dist/platform-web.js",
      "dist/x.js",
      "package.json",
    ]);
    const files = [
      "package.json",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/bin.js",
      "dist/platform-node.js",
      "dist/platform-web.js",
      "dist/test/a.test.js",
    ];
    expect(tarball("@mcp/a", files, manifest)).toEqual([
      '@mcp/a: its package.json names dist/x.js, which the tarball does not hold (not built, or not in "files")',
      "@mcp/a: no README in the tarball",
      "@mcp/a: ships a test file, dist/test/a.test.js",
      '@mcp/a: the packed package.json keeps a workspace range, "@mcp/manager":"workspace:^"',
    ]);
    expect(
      tarball("@mcp/a", [...files.slice(0, 6), "dist/x.js", "README.md"], {
        ...manifest,
        peerDependencies: { "@mcp/manager": "^0.1.0" },
      }),
    ).toEqual([]);
  });
});
