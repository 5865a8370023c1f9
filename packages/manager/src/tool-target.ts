// Which tool a person's words name: `server.tool`, `server tool`, `mcp__server__tool` or a bare
// name; the tools of a list that carry that name; and the names nearest a misspelt one.
import { editDistance } from "@mcp/jsonrpc/internal";
import { toolNamePrefix } from "./names.js";
import type { MCPTool } from "./types.js";

/** What words name: a server (when they say which), the tool's name on it, and the words after. */
export interface ToolTarget {
  /** The server the words name, or undefined for a bare tool name (any server may have it). */
  server: string | undefined;
  /** The tool's own name, or its model-facing name (`mcp__server__tool`). */
  name: string;
  /** The words after the name (the call's arguments). */
  rest: string[];
}

/**
 * What the words name among these servers: `server.tool`, `server tool` (when the second word is
 * not an argument: `key=value`, `key:=json`, `{json}`), `mcp__server__tool`, or a bare name
 * (`server` undefined). The longest server name that fits wins: `a.b.tool` with servers `a` and
 * `a.b` is `a.b`'s `tool`. Undefined when there are no words.
 *
 * @example
 * splitToolTarget(["everything.echo", "message=hi"], ["everything"]);
 * // { server: "everything", name: "echo", rest: ["message=hi"] }
 */
export function splitToolTarget(words: readonly string[], servers: readonly string[]): ToolTarget | undefined {
  const [first, second] = words;
  if (!first) return undefined;
  const byLength = [...servers].sort((a, b) => b.length - a.length);
  if (first.startsWith("mcp__")) {
    const server = byLength.find((s) => first.startsWith(toolNamePrefix(s)) && first.length > toolNamePrefix(s).length);
    if (server) return { server, name: first, rest: words.slice(1) };
  }
  const dotted = byLength.find((s) => first.startsWith(`${s}.`) && first.length > s.length + 1);
  if (dotted) return { server: dotted, name: first.slice(dotted.length + 1), rest: words.slice(1) };
  if (second !== undefined && servers.includes(first) && !/^[{[]/.test(second) && !/^[^=]*:?=/.test(second)) {
    return { server: first, name: second, rest: words.slice(2) };
  }
  return { server: undefined, name: first, rest: words.slice(1) };
}

/**
 * The tools among these that `name` names. With `server`: that server's tool whose own or
 * model-facing name is `name` (at most one). Without: the tools whose model-facing name or
 * `server.tool` is `name`, or else every tool whose own name is `name` (several servers may
 * offer it: the caller says it is ambiguous).
 */
export function toolsNamed(tools: readonly MCPTool[], name: string, server?: string): MCPTool[] {
  if (server !== undefined) {
    const tool = tools.find((t) => t.serverName === server && (t.toolName === name || t.name === name));
    return tool ? [tool] : [];
  }
  const exact = tools.filter((t) => t.name === name || `${t.serverName}.${t.toolName}` === name);
  return exact.length > 0 ? exact : tools.filter((t) => t.toolName === name);
}

/**
 * The candidates nearest `word` (at most `count`), nearest first, for "did you mean": only
 * plausible ones (one contains the other, ignoring case, or an edit distance of at most a third
 * of the longer, and never under 2). Ties are in alphabetical order.
 *
 * @example
 * closestNames("ecoh", ["echo", "add", "everything.echo"]); // ["echo"]
 */
export function closestNames(word: string, candidates: readonly string[], count = 3): string[] {
  const lower = word.toLowerCase();
  return candidates
    .map((candidate) => {
      const c = candidate.toLowerCase();
      const score = c.includes(lower) || lower.includes(c) ? 0 : editDistance(lower, c);
      return { candidate, score };
    })
    .filter(({ candidate, score }) => score <= Math.max(2, Math.floor(Math.max(word.length, candidate.length) / 3)))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

/**
 * `; did you mean "a", "b"?` for the {@link closestNames} of `word` among `candidates`, or `""`
 * when none is near: the end of an "unknown name" message.
 *
 * @example
 * `unknown tool "ecoh"${didYouMean("ecoh", ["echo", "add"])}`; // 'unknown tool "ecoh"; did you mean "echo"?'
 */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closestNames(word, candidates);
  return near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : "";
}

/** What words that start with a server's URL name (see {@link splitUrlTarget}). */
export interface UrlTarget {
  /** The server's URL (without a `.<tool>` that followed it). */
  url: string;
  /** The tool's name, undefined when the words do not say it. */
  tool: string | undefined;
  /** The words after the tool's name (the call's arguments). */
  rest: string[];
}

/**
 * What words that name a server by its `http(s)://` URL name: the tool is the next word (when it
 * is not an argument: `key=value`, `key:=json`, `{json}`), else what follows the last `.` of the
 * URL's last path segment (`https://host/mcp.echo`, a URL with no query or fragment). Undefined
 * when the first word is not an `http(s)://` URL. The URL is not checked to parse.
 *
 * @example
 * splitUrlTarget(["https://host/mcp.echo", "message=hi"]);
 * // { url: "https://host/mcp", tool: "echo", rest: ["message=hi"] }
 */
export function splitUrlTarget(words: readonly string[]): UrlTarget | undefined {
  const [first, second] = words;
  if (first === undefined || !/^https?:\/\//i.test(first)) return undefined;
  if (second !== undefined && !/^([{[]|[^=]*:?=)/.test(second))
    return { url: first, tool: second, rest: words.slice(2) };
  const parsed = URL.canParse(first) ? new URL(first) : undefined;
  const segment =
    parsed && parsed.search === "" && parsed.hash === ""
      ? parsed.pathname.slice(parsed.pathname.lastIndexOf("/") + 1)
      : "";
  const dot = first.lastIndexOf(".");
  return segment.includes(".") && first.endsWith(segment)
    ? { url: first.slice(0, dot), tool: first.slice(dot + 1), rest: words.slice(1) }
    : { url: first, tool: undefined, rest: words.slice(1) };
}
