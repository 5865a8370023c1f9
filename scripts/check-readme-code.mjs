#!/usr/bin/env node
// The README examples compile: every ```ts block of a package README is written out as a module and
// type-checked against the built packages (their dist/index.d.ts), with the repository's compiler
// settings. An example that names something a package does not export, or misuses a type, fails.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Every ```ts block of every package README: `{ readme, index, code }`. */
export function examples(base = root) {
  const found = [];
  for (const name of readdirSync(join(base, "packages")).sort()) {
    const readme = join(base, "packages", name, "README.md");
    if (!existsSync(readme)) continue;
    const text = readFileSync(readme, "utf8");
    let index = 0;
    for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g))
      found.push({ readme: `packages/${name}/README.md`, index: index++, code: match[1] });
  }
  return found;
}

/** Type-checks the examples; returns the compiler's complaints, each naming its README and block. */
export function checkExamples(base = root) {
  const dir = mkdtempSync(join(tmpdir(), "readme-code-"));
  try {
    const files = new Map();
    for (const example of examples(base)) {
      const file = `${example.readme.replace(/[/.]/g, "_")}_${example.index}.ts`;
      files.set(file, `${example.readme}, example ${example.index + 1}`);
      writeFileSync(join(dir, file), `${example.code}\nexport {};\n`);
    }
    const names = readdirSync(join(base, "packages"));
    const paths = {
      ...Object.fromEntries(
        names.map((name) => [`@mcp/${name}`, [join(base, "packages", name, "dist", "index.d.ts")]]),
      ),
      ...Object.fromEntries(names.map((name) => [`@mcp/${name}/*`, [join(base, "packages", name, "dist", "*.d.ts")]])),
    };
    // What the examples use beside our packages (a model API's SDK) resolves as the packages' own
    // dependencies do: a node_modules of links to theirs.
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    for (const name of names) {
      const modules = join(base, "packages", name, "node_modules");
      if (!existsSync(modules)) continue;
      for (const entry of readdirSync(modules)) {
        if (entry.startsWith(".") || entry === "@mcp") continue;
        const inner = entry.startsWith("@")
          ? readdirSync(join(modules, entry)).map((sub) => `${entry}/${sub}`)
          : [entry];
        for (const spec of inner) {
          const link = join(dir, "node_modules", spec);
          if (existsSync(link)) continue;
          mkdirSync(dirname(link), { recursive: true });
          symlinkSync(join(modules, spec), link, "dir");
        }
      }
    }
    const config = {
      extends: join(base, "tsconfig.base.json"),
      compilerOptions: { noEmit: true, paths, typeRoots: [join(base, "node_modules", "@types")], types: ["node"] },
      include: ["*.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" })); // the examples are ES modules, as ours are
    const tsc = join(base, "node_modules", "typescript", "bin", "tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    if (run.status === 0) return [];
    return (run.stdout + run.stderr)
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) =>
        line.replace(/^([^(]+)\((\d+),(\d+)\)/, (whole, file, row) => {
          const name = basename(file);
          return files.has(name) ? `${files.get(name)}, line ${row}` : whole;
        }),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkExamples();
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) process.exit(1);
  process.stdout.write(`README examples: ${examples().length} type-check against the built packages\n`);
}
