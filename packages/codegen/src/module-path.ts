// Where a generated client module goes, given a file or a folder.
import { statSync } from "node:fs";
import { join } from "node:path";

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
