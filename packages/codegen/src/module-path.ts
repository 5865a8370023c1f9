// Where a generated client module goes, given a file or a folder, and writing it there.
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodegenError } from "./generate.js";

/**
 * The file a client for `server` is written to when asked for `out`: a folder (one that exists, or
 * a path ending in a slash) gets `<folder>/<server>.ts`, each character of the name outside
 * `A-Z a-z 0-9 . _ -` written as `-`; any other path is the file itself.
 *
 * @example
 * clientModulePath("src/generated/", "my docs"); // "src/generated/my-docs.ts"
 */
export function clientModulePath(out: string, server: string): string {
  const folder = /[/\\]$/.test(out) || statSync(out, { throwIfNoEntry: false })?.isDirectory() === true;
  return folder ? join(out, `${server.replace(/[^A-Za-z0-9._-]/g, "-")}.ts`) : out;
}

/**
 * Writes a client module (`text`, from `generateClient`) for `server` where `out` says
 * ({@link clientModulePath}); resolves with the file written.
 *
 * @throws CodegenError (`option` `"out"`) when the file cannot be written, saying which and why
 *   (`out src/x.ts: cannot write it (ENOENT)`).
 */
export function writeClientModule(out: string, server: string, text: string): string {
  const file = clientModulePath(out, server);
  try {
    writeFileSync(file, text);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CodegenError("out", `out ${file}: cannot write it (${why})`, { cause: error });
  }
  return file;
}
