// Who may call what through `mcp serve`: callers (an id, a name, a bearer token, allow/deny lists
// of tools) and the names tools, prompts and servers take on the aggregate endpoint.

import { createHash } from "node:crypto";

/**
 * One caller of the gateway. `allow`/`deny` hold patterns of `<server>__<tool>` names, matched a
 * segment at a time (see {@link allowed}).
 */
export interface Caller {
  /**
   * What the gateway knows the caller by (sessions, `input_required` rounds, upstream connections,
   * Redis records): derived from its token, so two callers never share one, whatever their names.
   */
  id: string;
  /** The name in the callers file (messages and logs only). */
  name: string;
  /** Only tools matching one of these (all when absent). Case-sensitive. */
  allow?: string[] | undefined;
  /** Never tools matching one of these, whatever their case; a deny wins over an allow. */
  deny?: string[] | undefined;
}

/** The separator between a server's name and its tool's or prompt's on the aggregate endpoint. */
export const SEPARATOR = "__";

/** Names the gateway gives its own callers: a callers file may not use them. */
export const RESERVED_CALLER_NAMES: ReadonlySet<string> = new Set(["token", "stdio", "anonymous"]);

/**
 * The id of the caller holding `token`: a hash, so it can be stored (Redis session records) and
 * compared by every replica without the token itself.
 */
export function callerId(token: string): string {
  return createHash("sha256").update(`mcp-serve caller\n${token}`).digest("hex").slice(0, 32);
}

/** Each glob's expression, made once: lists are checked for every tool at every `tools/list`. */
const globs = new Map<string, RegExp>();

function glob(pattern: string, caseless: boolean): RegExp {
  const key = `${caseless ? "i" : "s"}${pattern}`;
  let made = globs.get(key);
  if (!made) globs.set(key, (made = new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, caseless ? "si" : "s")));
  return made;
}

/**
 * Whether one pattern names `<server>__<tool>`. A pattern is `<server glob>__<tool glob>`, split at
 * its first `__`, each side matched against its own part only (so `a__*` never reaches a server
 * `a__b`, and `*` never crosses the separator); a pattern without `__` names servers (all their tools).
 */
function matches(pattern: string, server: string, tool: string, caseless: boolean): boolean {
  const at = pattern.indexOf(SEPARATOR);
  if (at < 0) return glob(pattern, caseless).test(server);
  return glob(pattern.slice(0, at), caseless).test(server) && glob(pattern.slice(at + SEPARATOR.length), caseless).test(tool);
}

/** Whether `caller` may see and call `<server>__<tool>`: no deny matches (in any case), and an allow does when there are allows. */
export function allowed(caller: Pick<Caller, "allow" | "deny">, server: string, tool: string): boolean {
  if (caller.deny?.some((p) => matches(p, server, tool, true))) return false;
  return caller.allow === undefined || caller.allow.some((p) => matches(p, server, tool, false));
}

/** Whether the gateway can serve a server of this name: `__` would make `<server>__<name>` ambiguous. */
export function servableName(server: string): boolean {
  return !server.includes(SEPARATOR) && server !== "";
}

/**
 * Splits `<server>__<name>` into the server and its own name. Server names never hold `__`
 * ({@link servableName}), so the first `__` separates them. Undefined when no server matches.
 */
export function splitName(qualified: string, servers: readonly string[]): { server: string; name: string } | undefined {
  const at = qualified.indexOf(SEPARATOR);
  if (at <= 0 || qualified.length === at + SEPARATOR.length) return undefined;
  const server = qualified.slice(0, at);
  return servers.includes(server) ? { server, name: qualified.slice(at + SEPARATOR.length) } : undefined;
}

/** The names of a JSON object's own keys as written, duplicates included (JSON.parse keeps only the last). */
function keysAsWritten(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      // A top-level key is a string at depth 1 followed (after blanks) by a colon.
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1, end + 64))) keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      i = end;
    }
  }
  return keys;
}

/**
 * Reads a callers file: `{ "<name>": { "token": "…", "allow": [...], "deny": [...] } }`. Throws a
 * message naming the caller and field that is wrong; a name given twice, or one the gateway keeps
 * for itself ({@link RESERVED_CALLER_NAMES}), is refused.
 */
export function parseCallers(text: string, file: string): Map<string, Caller> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${file}: expected an object of callers, { "<name>": { "token": "…" } }`);
  const seen = new Set<string>();
  for (const name of keysAsWritten(text)) {
    if (seen.has(name)) throw new Error(`${file}: caller "${name}" is named twice`);
    seen.add(name);
  }
  const byToken = new Map<string, Caller>();
  for (const [name, entry] of Object.entries(value)) {
    const where = `${file}: caller "${name}"`;
    if (RESERVED_CALLER_NAMES.has(name)) throw new Error(`${where}: the name is the gateway's own (${[...RESERVED_CALLER_NAMES].join(", ")}); choose another`);
    if (typeof entry !== "object" || entry === null) throw new Error(`${where}: expected an object`);
    const { token, allow, deny } = entry as Record<string, unknown>;
    if (typeof token !== "string" || token.length < 16) throw new Error(`${where}: "token" must be a string of at least 16 characters`);
    for (const [field, list] of [["allow", allow], ["deny", deny]] as const) {
      if (list !== undefined && (!Array.isArray(list) || list.some((p) => typeof p !== "string"))) throw new Error(`${where}: "${field}" must be an array of strings`);
    }
    if (byToken.has(token)) throw new Error(`${where}: its token is also another caller's`);
    byToken.set(token, { id: callerId(token), name, allow: allow as string[] | undefined, deny: deny as string[] | undefined });
  }
  return byToken;
}
