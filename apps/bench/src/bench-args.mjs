// What the section benchmarks share: their command-line options, and printing their section and
// writing it into docs/benchmarks.md.
import { readFileSync, writeFileSync } from "node:fs";
import { withSection } from "./cli-latency.mjs";

/**
 * Parses `--write`, `--smoke` and numeric options (`--runs N`, `--seconds N`, …) over `defaults`;
 * `smoke` is what `--smoke` sets. An unknown option, or a number that is not a positive one, throws.
 */
export function parseBenchArgs(argv, defaults, smoke) {
  const args = { ...defaults, write: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") continue;
    else if (a === "--write") args.write = true;
    else if (a === "--smoke") Object.assign(args, smoke);
    else if (a.startsWith("--") && typeof defaults[a.slice(2)] === "number") {
      const value = Number(argv[++i]);
      if (!(Number.isFinite(value) && value > 0)) throw new Error(`${a} takes a positive number`);
      args[a.slice(2)] = value;
    } else throw new Error(`unknown option ${a}`);
  }
  return args;
}

/** Prints a section's body, and with `--write` puts it into docs/benchmarks.md in place of its old self. */
export function printSection(section, write, title) {
  process.stdout.write(`${section.split("\n").slice(1, -2).join("\n")}\n`);
  if (!write) return;
  const file = new URL("../../../docs/benchmarks.md", import.meta.url);
  writeFileSync(file, withSection(readFileSync(file, "utf8"), section));
  process.stderr.write(`rewrote the ${title} section of docs/benchmarks.md\n`);
}
