// The calling shell's values of the variables config files name (`${VAR}`, `${env:VAR}`,
// `${VAR:-default}`): a daemon that reads the same files must expand them as this shell did, not
// with the environment it was started with.
import { readFileSync } from "node:fs";

/** A `${VAR}` (or `${env:VAR}`, `${VAR:-default}`) in a config file: the variable's name. */
const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * This shell's values of the variables these config files name: each `${VAR}`, `${env:VAR}` or
 * `${VAR:-default}` whose variable is set in `shell`. A file that is gone or unreadable is skipped
 * (the daemon finds the same); a variable that is not set is left out (the daemon expands it as
 * unset, as the shell would). Only the named variables are read, never the whole environment.
 *
 * @example
 * // mcp-client.json: { "servers": { "api": { "type": "http", "url": "${API_URL}" } } }
 * shellValuesFor(["mcp-client.json"], { API_URL: "https://api.example", OTHER: "x" });
 * // { API_URL: "https://api.example" }
 */
export function shellValuesFor(
  files: Iterable<string>,
  shell: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const file of new Set(files)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const match of text.matchAll(VARIABLE)) {
      const value = shell[match[1]!];
      if (value !== undefined) vars[match[1]!] = value;
    }
  }
  return vars;
}
