#!/usr/bin/env node
// The release, tried before it is made (CI, after the build): the pending changesets are read and
// planned the way `changeset version` will plan them, and every public package is packed as
// `pnpm publish` would pack it, then its tarball is checked. Needs no network and publishes nothing.
//   1. Each `.changeset/*.md` names only public workspace packages, each with major, minor or patch,
//      and says something.
//   2. `changeset status` (against the base branch of .changeset/config.json, when that branch
//      exists here) plans the release; no package may be bumped to a major its own changesets did
//      not ask for (a dependent dragged along by a range it left).
//   3. `pnpm pack` per public package: every file `main`, `types`, `bin`, `exports` and `imports`
//      name is in the tarball, a README is, no test file is, and no `workspace:` range is left.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const BUMPS = new Set(["major", "minor", "patch"]);
const TEST_FILE = /(^|\/)(test|tests|__tests__|fixtures)\/|\.(test|spec)\.[cm]?[jt]sx?$/;

/** Every workspace package: name, folder, manifest. */
export function workspacePackages(root) {
  const packages = [];
  for (const group of ["packages", "apps", "tools"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const file = join(base, name, "package.json");
      if (!existsSync(file)) continue;
      const json = JSON.parse(readFileSync(file, "utf8"));
      packages.push({ name: json.name, dir: join(base, name), json });
    }
  }
  return packages;
}

/** The problems of the changeset files in `dir` (each named by its file), and the bumps each package asked for. */
export function checkChangesets(dir, publicNames) {
  const problems = [];
  const asked = new Map();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort()) {
    const text = readFileSync(join(dir, file), "utf8").replace(/\r\n/g, "\n");
    const match = /^---\n([\s\S]*?)\n?---\n([\s\S]*)$/.exec(text);
    if (!match) {
      problems.push(
        `.changeset/${file}: no frontmatter; it starts with "---", one line per package ("@mcp/x": minor), then "---"`,
      );
      continue;
    }
    const lines = match[1].split("\n").filter((line) => line.trim() !== "");
    if (lines.length === 0) problems.push(`.changeset/${file}: names no package`);
    for (const line of lines) {
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(\S+)\s*$/.exec(line);
      if (!entry) {
        problems.push(`.changeset/${file}: cannot read "${line}"; write "<package>": major | minor | patch`);
        continue;
      }
      const [, name, bump] = entry;
      if (!publicNames.has(name))
        problems.push(`.changeset/${file}: ${name} is not a public package of this workspace`);
      if (!BUMPS.has(bump)) problems.push(`.changeset/${file}: ${name}: "${bump}" is not major, minor or patch`);
      const before = asked.get(name);
      if (before === undefined || bump === "major" || (bump === "minor" && before === "patch")) asked.set(name, bump);
    }
    if (match[2].trim() === "")
      problems.push(`.changeset/${file}: says nothing; a changeset's text is its changelog entry`);
  }
  return { problems, asked };
}

/** Majors in a release plan that no changeset asked for. */
export function unaskedMajors(plan, asked) {
  return plan.releases
    .filter((release) => release.type === "major" && asked.get(release.name) !== "major")
    .map(
      (release) =>
        `${release.name} would be bumped to a major (${release.oldVersion} -> ${release.newVersion}) that no changeset asks for: a package it depends on left its range`,
    );
}

/** Every file path a manifest points to (main, module, types, bin, exports, imports), normalised. */
export function manifestTargets(json) {
  const targets = new Set();
  const add = (value) => {
    if (typeof value === "string") targets.add(posix.normalize(value.replace(/^\.\//, "")));
    else if (Array.isArray(value)) value.forEach(add);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(add);
  };
  for (const field of ["main", "module", "types", "typings", "bin", "exports"]) add(json[field]);
  // `imports` may map to another package (`"#x": "some-package"`); only relative targets are files.
  for (const value of Object.values(json.imports ?? {})) {
    const relative = (v) =>
      typeof v === "string"
        ? v.startsWith("./")
          ? add(v)
          : undefined
        : v !== null && typeof v === "object"
          ? Object.values(v).forEach(relative)
          : undefined;
    relative(value);
  }
  return [...targets].filter((target) => !target.includes("*"));
}

/** The problems of one packed package: its tarball's file list and its packed manifest. */
export function checkTarball(name, files, packed) {
  const problems = [];
  const have = new Set(files);
  for (const target of manifestTargets(packed))
    if (!have.has(target))
      problems.push(
        `${name}: its package.json names ${target}, which the tarball does not hold (not built, or not in "files")`,
      );
  if (!files.some((file) => /^readme(\.md)?$/i.test(file))) problems.push(`${name}: no README in the tarball`);
  for (const file of files.filter((f) => TEST_FILE.test(f))) problems.push(`${name}: ships a test file, ${file}`);
  const ranges = JSON.stringify(packed).match(/"[^"]+":"workspace:[^"]*"/g) ?? [];
  for (const range of ranges) problems.push(`${name}: the packed package.json keeps a workspace range, ${range}`);
  return problems;
}

/** The pnpm this script runs as (under `pnpm run`), else the pinned one through npx. */
function pnpmCommand(root) {
  const exec = process.env.npm_execpath;
  if (exec && /pnpm/.test(exec)) return [process.execPath, [exec]];
  const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;
  return ["npx", ["-y", pinned]];
}

function changesetStatus(root, asked) {
  const config = JSON.parse(readFileSync(join(root, ".changeset/config.json"), "utf8"));
  const base = config.baseBranch ?? "main";
  const hasBase =
    spawnSync("git", ["rev-parse", "--verify", "--quiet", `refs/heads/${base}`], { cwd: root }).status === 0;
  if (!hasBase) {
    console.log(
      `release-check: no local branch ${base}, so changeset status is not run here (the changeset files were still checked)`,
    );
    return [];
  }
  const out = mkdtempSync(join(tmpdir(), "release-plan-"));
  try {
    const file = join(out, "plan.json");
    const bin = join(root, "node_modules/@changesets/cli/bin.js");
    // changeset joins --output to the folder it runs in, so the path is given relative to it.
    const run = spawnSync(process.execPath, [bin, "status", "--output", relative(root, file)], {
      cwd: root,
      encoding: "utf8",
    });
    if (run.status !== 0) return [`changeset status failed:\n${run.stdout}${run.stderr}`];
    const plan = JSON.parse(readFileSync(file, "utf8"));
    return unaskedMajors(plan, asked);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function packAll(root, published) {
  const out = mkdtempSync(join(tmpdir(), "release-pack-"));
  const problems = [];
  try {
    const [command, prefix] = pnpmCommand(root);
    const filters = published.flatMap((p) => ["--filter", p.name]);
    const run = spawnSync(command, [...prefix, "-r", ...filters, "pack", "--pack-destination", out], {
      cwd: root,
      encoding: "utf8",
    });
    if (run.status !== 0) return [`pnpm pack failed:\n${run.stdout}${run.stderr}`];
    for (const pkg of published) {
      const tarball = join(out, `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.json.version}.tgz`);
      if (!existsSync(tarball)) {
        problems.push(`${pkg.name}: pnpm pack made no ${tarball}`);
        continue;
      }
      const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
        .split("\n")
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ""));
      const packed = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
      problems.push(...checkTarball(pkg.name, files, packed));
    }
    return problems;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const started = performance.now();
  const published = workspacePackages(root).filter((p) => p.json.private !== true);
  const { problems, asked } = checkChangesets(join(root, ".changeset"), new Set(published.map((p) => p.name)));
  problems.push(...changesetStatus(root, asked));
  problems.push(...packAll(root, published));
  if (problems.length > 0) {
    for (const problem of problems) console.error(`release-check: ${problem}`);
    process.exit(1);
  }
  console.log(
    `release-check: ${published.length} packages packed and checked, the changesets planned, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
