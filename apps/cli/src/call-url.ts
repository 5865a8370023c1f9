// `mcp call <url> <tool> [args]` (or `<url>.<tool>`): a server given by its URL, with no config, as --http <url> gives one.
import { REDACTED, redactUrl } from "@mcp/jsonrpc/internal";
import type { GlobalOptions } from "./session.js";
import { CliError, EXIT } from "./ui.js";

/** A word that is an argument (`key=value`, `key:=json`, `{json}`), not a tool's name. */
const ARGUMENT = /^([{[]|[^=]*:?=)/;

/** A URL as an error message shows it: its password and secret-looking query values redacted. */
function shown(url: string): string {
  if (URL.canParse(url)) return redactUrl(url).replaceAll(encodeURIComponent(REDACTED), REDACTED);
  return url.replace(/\/\/[^/@]*@/, `//${REDACTED}@`);
}

/**
 * When the call's first word is an `http(s)://` URL: the options with that URL as the ad-hoc
 * Streamable HTTP server (named `http`, as `--http <url>` names it; nothing else is read or
 * started, and as a server you gave it is never asked about; nothing about it is kept: no tool
 * cache, no pins, its OAuth tokens in memory only, no daemon) and the words as `http <tool> [args]`.
 * The tool is the next word, or follows the URL's last `.` (`https://host/mcp.echo`) when no word
 * names it. Otherwise the options and words unchanged.
 */
export function serverFromUrl(globals: GlobalOptions, words: string[]): { globals: GlobalOptions; words: string[] } {
  const [first, second] = words;
  if (first === undefined || !/^https?:\/\//i.test(first)) return { globals, words };
  if (globals.http || globals.sse || globals.stdio)
    throw new CliError(
      `mcp call ${shown(first)}: the URL names the server; leave out --http, --sse and --stdio`,
      EXIT.usage,
    );
  let url = first;
  let tool: string | undefined;
  let rest: string[];
  if (second !== undefined && !ARGUMENT.test(second)) {
    tool = second;
    rest = words.slice(2);
  } else {
    // `https://host/mcp.echo`: the tool after the last `.` of the URL's last path segment.
    const path = URL.canParse(first) ? new URL(first) : undefined;
    const segment =
      path && path.search === "" && path.hash === "" ? path.pathname.slice(path.pathname.lastIndexOf("/") + 1) : "";
    if (segment.includes(".") && first.endsWith(segment))
      [url, tool] = [first.slice(0, first.lastIndexOf(".")), first.slice(first.lastIndexOf(".") + 1)];
    rest = words.slice(1);
  }
  // The URL may hold a password or a token: error messages show it redacted.
  const said = shown(first);
  if (!tool)
    throw new CliError(
      `mcp call ${said}: name the tool after the URL (mcp call ${said} <tool> [args], or ${said}.<tool>; see: mcp --http ${said} tools)`,
      EXIT.usage,
    );
  if (!URL.canParse(url)) throw new CliError(`mcp call: "${shown(url)}" is not a URL`, EXIT.usage);
  return { globals: { ...globals, http: url, ephemeral: true }, words: ["http", tool, ...rest] };
}
