#!/usr/bin/env node
// The per-file tables of docs/architecture.md, generated from each source file's header comment so
// the document cannot drift from the code. Each table sits between `<!-- files: <folder> -->` and
// `<!-- /files -->`; the folder's `.ts` files (subfolders included, tests and `.d.ts` excluded) are
// its rows, and a row's job is the first sentence of the file's header comment.
//   node scripts/architecture-tables.mjs          check (CI): exit 1 when a table is stale or a file has no header
//   node scripts/architecture-tables.mjs --write  rewrite the tables in place
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const START = /^<!-- files: (\S+) -->$/;
const END = "<!-- /files -->";
/**
 * Files that may lack a header for now, each with its job. Only files at the 400-line cap belong here
 * (a header line would push them over it); one that gets a header must leave this list.
 */
export const NO_HEADER_YET = {
  "packages/manager/src/manager.ts":
    "`MCPManager`: registering servers, the startup gate, tool names, the cache and health checks",
  "packages/manager/src/supervisor.ts":
    "One server: its state, connection attempts and waiters, recovery with backoff, its lists and tools",
};

/** The entry file of a package re-exports its public names; without a header it gets this job. */
const ENTRY_JOB = "The public entry: what the package exports";

/** Every `.ts` source under `dir`, relative to it, sorted (tests, declaration files and fixtures left out). */
export function sourceFiles(dir) {
  const files = [];
  const visit = (folder) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (/\.tsx?$/.test(name) && !/\.d\.ts$|\.test\.tsx?$/.test(name))
        files.push(relative(dir, path).split("\\").join("/"));
    }
  };
  visit(dir);
  return files.sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
}

const depth = (file) => file.split("/").length;

/** Lines of a comment block with the comment markers taken off, or undefined when `lines[at]` starts no comment. */
function commentAt(lines, at) {
  const first = lines[at].trim();
  if (first.startsWith("//")) {
    let end = at;
    while (end < lines.length && lines[end].trim().startsWith("//")) end++;
    return { text: lines.slice(at, end).map((line) => line.trim().replace(/^\/\/\s?/, "")), end, doc: false };
  }
  if (first.startsWith("/*")) {
    let end = at;
    while (end < lines.length && !lines[end].includes("*/")) end++;
    const text = lines.slice(at, end + 1).map((line) =>
      line
        .trim()
        .replace(/^\/\*\*?\s?/, "")
        .replace(/\*\/$/, "")
        .replace(/^\*\s?/, "")
        .trimEnd(),
    );
    return { text, end: end + 1, doc: first.startsWith("/**") };
  }
  return undefined;
}

/** Where the import statement starting at `at` ends (the line after it). */
function importEnd(lines, at) {
  let end = at;
  while (end < lines.length && !/(\bfrom\s+["'][^"']+["']|^import\s+["'][^"']+["'])\s*;?\s*$/.test(lines[end].trim()))
    end++;
  return end + 1;
}

const isImport = (line) =>
  /^(import|export)\s.*\bfrom\s|^import\s+["']|^(import|export)\s+(type\s+)?\{\s*$|^import\s+(type\s+)?[\w*]/.test(
    line.trim(),
  ) &&
  !/^export\s+(const|function|class|interface|type\s+\w+\s*=|async|default|enum|let|abstract|declare)\b/.test(
    line.trim(),
  );

/**
 * A file's header comment: the comment that opens the file (after a `#!` line), or one standing on
 * its own (a blank line after it) among or just after the imports. A `/** … *\/` directly above a
 * declaration documents that declaration, not the file. With `openingOnly`, only the opening
 * comment counts. Undefined when there is none.
 */
export function headerComment(source, openingOnly = false) {
  const lines = source.split(/\r?\n/);
  let at = lines[0]?.startsWith("#!") ? 1 : 0;
  let opening = true;
  while (at < lines.length) {
    const line = lines[at].trim();
    if (line === "") {
      at++;
      continue;
    }
    const comment = commentAt(lines, at);
    if (comment) {
      const next = lines.slice(comment.end).find((l) => l.trim() !== "") ?? "";
      const standsAlone = comment.end >= lines.length || lines[comment.end].trim() === "" || isImport(next);
      const attached = comment.doc ? !isImport(next) && lines[comment.end]?.trim() !== "" : !standsAlone;
      if ((opening && !(comment.doc && attached)) || (!opening && standsAlone)) return comment.text;
      if (openingOnly) return undefined;
      at = comment.end;
      opening = false;
      continue;
    }
    if (!isImport(line) || openingOnly) return undefined;
    at = importEnd(lines, at);
    opening = false;
  }
  return undefined;
}

/** The first sentence of a header: its job, on one line, ready for a table cell. */
export function jobOf(header) {
  const paragraph = [];
  for (const line of header) {
    if (line.trim() === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  const text = paragraph.join(" ").replace(/\s+/g, " ").trim();
  // A sentence ends at ". " before a capital letter, outside backticks.
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "`") inCode = !inCode;
    else if (!inCode && text[i] === "." && text[i + 1] === " " && /[A-Z@`]/.test(text[i + 2] ?? ""))
      return escapeCell(text.slice(0, i));
  }
  return escapeCell(text.replace(/\.$/, ""));
}

const escapeCell = (text) => text.replace(/\|/g, "\\|");

/** The table of one source folder, and the files in it with no header comment. */
export function tableFor(root, folder, noHeaderYet = NO_HEADER_YET) {
  const dir = join(root, folder);
  const rows = ["| file | job |", "|---|---|"];
  const missing = [];
  const excused = [];
  for (const file of sourceFiles(dir)) {
    // An entry file's export list may hold comments about the names below them: only an opening comment is its header.
    const header = headerComment(readFileSync(join(dir, file), "utf8"), file === "index.ts");
    const path = `${folder}/${file}`;
    if (path in noHeaderYet) {
      if (header !== undefined) excused.push(path);
      rows.push(`| \`${file}\` | ${header === undefined ? noHeaderYet[path] : jobOf(header)} |`);
      continue;
    }
    if (header === undefined && file !== "index.ts") {
      missing.push(path);
      continue;
    }
    rows.push(`| \`${file}\` | ${header === undefined ? ENTRY_JOB : jobOf(header)} |`);
  }
  return { table: rows.join("\n"), missing, excused };
}

/** The document with every table regenerated; the problems found on the way. */
export function generate(root, document, noHeaderYet = NO_HEADER_YET) {
  const lines = document.split("\n");
  const out = [];
  const problems = [];
  const folders = new Set();
  for (let i = 0; i < lines.length; i++) {
    const start = START.exec(lines[i].trim());
    out.push(lines[i]);
    if (!start) continue;
    const folder = start[1];
    folders.add(folder);
    let end = i + 1;
    while (end < lines.length && lines[end].trim() !== END) end++;
    if (end === lines.length) {
      problems.push(`docs/architecture.md: "${lines[i].trim()}" has no "${END}" after it`);
      continue;
    }
    if (!existsSync(join(root, folder))) {
      problems.push(
        `docs/architecture.md: the table of ${folder} names a folder that does not exist; remove its section`,
      );
      out.push(...lines.slice(i + 1, end + 1));
      i = end;
      continue;
    }
    const { table, missing, excused } = tableFor(root, folder, noHeaderYet);
    for (const file of excused)
      problems.push(
        `${file} has a header comment now: remove it from NO_HEADER_YET in scripts/architecture-tables.mjs`,
      );
    for (const file of missing)
      problems.push(
        `${file} has no header comment. Add one at its top (after any #! line), e.g. \`// <the file's one job, in one sentence>.\` — its first sentence becomes the file's row in docs/architecture.md; then run \`node scripts/architecture-tables.mjs --write\`.`,
      );
    out.push(table, END);
    i = end;
  }
  for (const group of ["packages"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const folder = `${group}/${name}/src`;
      if (existsSync(join(root, folder)) && !folders.has(folder))
        problems.push(
          `docs/architecture.md has no table for ${folder}: add a "### \`<package>\` — <what it is>" section holding "<!-- files: ${folder} -->" and "${END}", then run \`node scripts/architecture-tables.mjs --write\`.`,
        );
    }
  }
  return { document: out.join("\n"), problems };
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const path = join(root, "docs/architecture.md");
  const write = process.argv.includes("--write");
  const current = readFileSync(path, "utf8");
  const { document, problems } = generate(root, current);
  if (write && document !== current) {
    writeFileSync(path, document);
    console.log("docs/architecture.md: tables regenerated");
  }
  if (!write && document !== current)
    problems.push(
      "docs/architecture.md: the per-file tables are stale (a file was added, removed or renamed, or a header comment changed). Run `node scripts/architecture-tables.mjs --write` and commit the result.",
    );
  if (problems.length > 0) {
    for (const problem of problems) console.error(`architecture-tables: ${problem}`);
    process.exit(1);
  }
  if (!write) console.log("docs/architecture.md: the per-file tables match the sources");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
