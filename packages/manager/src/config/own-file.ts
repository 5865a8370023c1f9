// Writing our own config file (`mcp-client.json`) in place: an entry added, replaced or removed
// with the user's comments and formatting kept, and the entries read back as written.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { applyEdits, modify, parse } from "jsonc-parser";
import { readIfExists } from "./parse.js";

/**
 * Sets one value of our own file (`["servers", name]` for an entry; `undefined` removes it) in
 * place, keeping the user's comments and formatting (jsonc-parser edits, 2-space indentation for
 * what is new). A missing file (and its folder) is made.
 */
export async function editOwnConfig(file: string, path: (string | number)[], value: unknown): Promise<void> {
  const text = (await readIfExists(file)) ?? "{}\n";
  const edits = modify(text, path, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, applyEdits(text, edits));
}

/**
 * The `servers` of our own file as written (nothing expanded): `{}` when the file does not exist or
 * has none. Read leniently, as {@link editOwnConfig} edits: what can be read of a broken file is
 * returned (`loadAllMCPConfigs` is the one that reports its syntax errors).
 */
export async function readOwnServers(file: string): Promise<Record<string, unknown>> {
  const text = await readIfExists(file);
  if (text === undefined) return {};
  const servers = (parse(text) as { servers?: unknown } | undefined)?.servers;
  return typeof servers === "object" && servers !== null && !Array.isArray(servers)
    ? (servers as Record<string, unknown>)
    : {};
}

/**
 * Whether a value about to be written into a config file looks like a secret written out (a long
 * random token), not a `${VAR}` the environment gives at each run: what is left after a scheme
 * (`Bearer `, `Basic `) is one word of 20 or more token characters, mixing letters and digits.
 */
export function looksLikeSecret(value: string): boolean {
  if (value.includes("${")) return false;
  const token = value.replace(/^(Bearer|Basic|Token|token|Bot)\s+/, "").trim();
  if (token.length < 20 || !/^[A-Za-z0-9._~+/=:-]+$/.test(token) || /^[./~]/.test(token) || token.includes("://"))
    return false;
  return /[A-Za-z]/.test(token) && /[0-9]/.test(token);
}
