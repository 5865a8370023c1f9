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
  /** How often it may make requests that do work upstream (see `limits.ts`); none: no limit. */
  rates?: readonly RateRule[] | undefined;
  /** The view it is shown wherever it connects (its tools only, under their view names). */
  view?: string | undefined;
}

/** One rate a caller is held to: requests matching `pattern` (`*`: every request that does work upstream). */
export interface RateRule {
  pattern: string;
  /** Tokens added per second. */
  perSecond: number;
  /** The bucket's size: how many may come at once. */
  burst: number;
  /** As written (`100/min`), for messages. */
  text: string;
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
  if (!made)
    globs.set(
      key,
      (made = new RegExp(
        `^${pattern
          .split("*")
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
        caseless ? "si" : "s",
      )),
    );
  return made;
}

/**
 * Whether one pattern names `<server>__<tool>`. A pattern is `<server glob>__<tool glob>`, split at
 * its first `__`, each side matched against its own part only (so `a__*` never reaches a server
 * `a__b`, and `*` never crosses the separator); a pattern without `__` names servers (all their tools).
 */
export function matches(pattern: string, server: string, tool: string, caseless: boolean): boolean {
  const at = pattern.indexOf(SEPARATOR);
  if (at < 0) return glob(pattern, caseless).test(server);
  return (
    glob(pattern.slice(0, at), caseless).test(server) && glob(pattern.slice(at + SEPARATOR.length), caseless).test(tool)
  );
}

/** Whether `caller` may see and call `<server>__<tool>`: no deny matches (in any case), and an allow does when there are allows. */
export function allowed(caller: Pick<Caller, "allow" | "deny">, server: string, tool: string): boolean {
  if (caller.deny?.some((p) => matches(p, server, tool, true))) return false;
  return caller.allow === undefined || caller.allow.some((p) => matches(p, server, tool, false));
}

/**
 * Whether `caller` may list and read a server's resources (and complete their references): when
 * its patterns cover the server whole — `<server>`, `<server>__*` — as `allowed` decides for a
 * tool named `*`. A caller allowed only some of a server's tools reads none of its resources.
 */
export function resourcesAllowed(caller: Pick<Caller, "allow" | "deny">, server: string): boolean {
  return allowed(caller, server, "*");
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
