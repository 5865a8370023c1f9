#!/usr/bin/env node
// The structure check: no source file over MAX_LINES lines, and no import cycle between the files
// of a package (a type-only import counts: a cycle of types is still two files that each need the
// other). Run by CI next to the layer check; exits 1 on any violation.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { importsOf, walk } from "./check-layers.mjs";

export const MAX_LINES = 400;

/**
 * Files allowed over the limit, each with the most lines it may have. A listed file may shrink,
 * never grow; once under the limit it must leave this list. Empty: the seven files that went over
 * when the tree was first formatted with Prettier have each been split by job.
 */
export const OVERSIZED = {};

/** Import cycles known today, each as its files joined by " -> " in the order found; may only disappear. */
export const KNOWN_CYCLES = [];

/** The source folders checked: each package's and app's `src`. */
function sourceDirs(root) {
  const dirs = [];
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) if (existsSync(join(base, name, "src"))) dirs.push(join(base, name, "src"));
  }
  return dirs;
}

/** A relative import's file: `./x.js` is `./x.ts` (or `./x/index.ts`) in the sources. */
function target(from, specifier, files) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.[cm]?js$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, "index.ts")])
    if (files.has(candidate)) return candidate;
  return undefined;
}

/** Every cycle in a graph of files, each once (Tarjan's strongly connected components, then one loop through each). */
export function cyclesOf(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const indices = new Map();
  const low = new Map();
  const components = [];
  const connect = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    on.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (on.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        on.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) connect(node);
  // One loop through each component, from its first file in sorted order.
  return components.map((component) => {
    const inside = new Set(component);
    const start = [...component].sort()[0];
    const path = [start];
    const seen = new Set([start]);
    let node = start;
    for (;;) {
      const next = (graph.get(node) ?? []).filter((n) => inside.has(n)).sort()[0];
      if (next === undefined || next === start || seen.has(next)) break;
      path.push(next);
      seen.add(next);
      node = next;
    }
    return path;
  });
}

/** Checks a workspace; returns human-readable violations (empty when clean). */
export function checkStructure(root, oversized = OVERSIZED, knownCycles = KNOWN_CYCLES) {
  const violations = [];
  for (const dir of sourceDirs(root)) {
    const files = new Set(walk(dir).filter((file) => /\.(?:[cm]?ts|tsx)$/.test(file)));
    const graph = new Map();
    for (const file of files) {
      const name = relative(root, file).split("\\").join("/");
      const code = readFileSync(file, "utf8");
      const lines = code.split("\n").length - (code.endsWith("\n") ? 1 : 0);
      const allowed = oversized[name];
      if (allowed === undefined && lines > MAX_LINES)
        violations.push(`${name}: ${lines} lines; a source file has at most ${MAX_LINES} (split it by job)`);
      else if (allowed !== undefined && lines > allowed)
        violations.push(`${name}: ${lines} lines; it is listed as oversized at ${allowed} and may only shrink`);
      else if (allowed !== undefined && lines <= MAX_LINES)
        violations.push(
          `${name}: ${lines} lines, under ${MAX_LINES} now: remove it from OVERSIZED in scripts/check-structure.mjs`,
        );
      const edges = [];
      for (const { specifier } of importsOf(code)) {
        if (!specifier.startsWith(".")) continue;
        const to = target(file, specifier, files);
        if (to) edges.push(to);
      }
      graph.set(file, edges);
    }
    for (const cycle of cyclesOf(graph)) {
      const text = cycle.map((file) => relative(root, file).split("\\").join("/")).join(" -> ");
      if (!knownCycles.includes(text))
        violations.push(
          `import cycle: ${text} -> (back to the first); give the shared part a file of its own that both import`,
        );
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const violations = checkStructure(root);
  for (const v of violations) process.stderr.write(`${v}\n`);
  if (violations.length > 0) process.exit(1);
  const listed = Object.keys(OVERSIZED).length;
  process.stdout.write(
    `structure check: every source file at most ${MAX_LINES} lines${listed ? ` (${listed} listed as debt)` : ""}, no import cycle\n`,
  );
}
