// `mcp call <url> <tool> [args]` (or `<url>.<tool>`): a server given by its URL, with no config, as --http <url> gives one.
import { REDACTED, redactUrl } from "@mcp/jsonrpc/internal";
import { splitUrlTarget } from "@mcp/manager";
import type { GlobalOptions } from "./session.js";
import { CliError, EXIT } from "./ui.js";

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
 * The tool is found by @mcp/manager's `splitUrlTarget`. Otherwise the options and words unchanged.
 */
export function serverFromUrl(globals: GlobalOptions, words: string[]): { globals: GlobalOptions; words: string[] } {
  const target = splitUrlTarget(words);
  if (target === undefined) return { globals, words };
  // The URL may hold a password or a token: error messages show it redacted.
  const said = shown(words[0]!);
  if (globals.http || globals.sse || globals.stdio)
    throw new CliError(`mcp call ${said}: the URL names the server; leave out --http, --sse and --stdio`, EXIT.usage);
  if (!target.tool)
    throw new CliError(
      `mcp call ${said}: name the tool after the URL (mcp call ${said} <tool> [args], or ${said}.<tool>; see: mcp --http ${said} tools)`,
      EXIT.usage,
    );
  if (!URL.canParse(target.url)) throw new CliError(`mcp call: "${shown(target.url)}" is not a URL`, EXIT.usage);
  return { globals: { ...globals, http: target.url, ephemeral: true }, words: ["http", target.tool, ...target.rest] };
}
