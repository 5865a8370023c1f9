// Who may call what through `mcp serve`: callers (a name, a bearer token, allow/deny lists of
// tools) and the names tools, prompts and servers take on the aggregate endpoint.

/** One caller of the gateway. `allow`/`deny` hold patterns of `<server>__<tool>` names (`*` is any run of characters). */
export interface Caller {
  name: string;
  /** Only tools matching one of these (all when absent). */
  allow?: string[] | undefined;
  /** Never tools matching one of these; a deny wins over an allow. */
  deny?: string[] | undefined;
}

/** The separator between a server's name and its tool's or prompt's on the aggregate endpoint. */
export const SEPARATOR = "__";

/** Each pattern's expression, made once: lists are checked for every tool at every `tools/list`. */
const globs = new Map<string, RegExp>();

function glob(pattern: string): RegExp {
  let made = globs.get(pattern);
  if (!made) globs.set(pattern, (made = new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`)));
  return made;
}

/** Whether `caller` may see and call `<server>__<tool>`. */
export function allowed(caller: Caller, server: string, tool: string): boolean {
  const name = `${server}${SEPARATOR}${tool}`;
  if (caller.deny?.some((p) => glob(p).test(name))) return false;
  return caller.allow === undefined || caller.allow.some((p) => glob(p).test(name));
}

/**
 * Splits `<server>__<name>` into the server and its own name: the longest server name that is a
 * prefix wins (a server called `a__b` is found before `a`). Undefined when no server matches.
 */
export function splitName(qualified: string, servers: readonly string[]): { server: string; name: string } | undefined {
  let best: string | undefined;
  for (const server of servers) {
    if (qualified.startsWith(`${server}${SEPARATOR}`) && qualified.length > server.length + SEPARATOR.length && (best === undefined || server.length > best.length)) best = server;
  }
  return best === undefined ? undefined : { server: best, name: qualified.slice(best.length + SEPARATOR.length) };
}

/**
 * Reads a callers file: `{ "<name>": { "token": "…", "allow": [...], "deny": [...] } }`.
 * Throws a message naming the caller and field that is wrong.
 */
export function parseCallers(text: string, file: string): Map<string, Caller> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${file}: expected an object of callers, { "<name>": { "token": "…" } }`);
  const byToken = new Map<string, Caller>();
  for (const [name, entry] of Object.entries(value)) {
    const where = `${file}: caller "${name}"`;
    if (typeof entry !== "object" || entry === null) throw new Error(`${where}: expected an object`);
    const { token, allow, deny } = entry as Record<string, unknown>;
    if (typeof token !== "string" || token.length < 16) throw new Error(`${where}: "token" must be a string of at least 16 characters`);
    for (const [field, list] of [["allow", allow], ["deny", deny]] as const) {
      if (list !== undefined && (!Array.isArray(list) || list.some((p) => typeof p !== "string"))) throw new Error(`${where}: "${field}" must be an array of strings`);
    }
    if (byToken.has(token)) throw new Error(`${where}: its token is also another caller's`);
    byToken.set(token, { name, allow: allow as string[] | undefined, deny: deny as string[] | undefined });
  }
  return byToken;
}
