import type { MCPServerConfig } from "@mcp/client";
import { isCredentialHeader, REDACTED, redactConfig, redactHeaders, redactUrl } from "@mcp/jsonrpc";
import { color } from "./ui.js";

/**
 * What a project server will run, for the person who approves it: the command line quoted as a
 * shell would need it, cwd, every environment variable the config sets, URL, headers, headers
 * helper, proxy. One line per item, never wrapped by us (a terminal wraps long lines softly).
 * Text from the config is untrusted: control characters and invisible or reordering Unicode are
 * shown as escapes, so a value cannot hide itself or the lines around it.
 */

/**
 * Variables that make a program load or run other code, or find other programs: always shown
 * whole, even when their name looks like a credential's.
 */
const RUNS_CODE = new Set([
  "PATH", "NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
  "PYTHONUSERBASE", "PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYLIB", "RUBYOPT", "BASH_ENV", "ENV", "SHELLOPTS", "PROMPT_COMMAND", "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "DENO_DIR", "BUN_INSTALL",
]);
const RUNS_CODE_PREFIX = /^(DYLD_|LD_|npm_config_|NPM_CONFIG_|GIT_CONFIG|PIP_|UV_)/;

/** True for a variable whose value the prompt shows whole. */
export function shownWhole(name: string): boolean {
  return RUNS_CODE.has(name) || RUNS_CODE_PREFIX.test(name) || !isCredentialHeader(name);
}

/** C0/C1 controls, zero-width and bidirectional marks, line and paragraph separators, BOM. */
function unsafe(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e) || (code >= 0x2060 && code <= 0x2069) || code === 0xfeff;
}

/** Untrusted text made safe to print on one terminal line: each unsafe character as `\u{…}`. */
export function printable(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += unsafe(code) ? `\\u{${code.toString(16).padStart(4, "0")}}` : char;
  }
  return out;
}

/** One argument as a POSIX shell would need it written (so `sh -c 'a; b'` reads as one argument). */
function quoted(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_\-./:=@%+,]+$/.test(word)) return printable(word);
  return `'${printable(word).replace(/'/g, `'\\''`)}'`;
}

/** A command line, each word quoted as needed. */
export function commandLine(command: string, args: readonly string[] = []): string {
  return [command, ...args].map(quoted).join(" ");
}

/** A URL with its password and token-like query values hidden, and the mark that says so readable. */
function shownUrl(url: string): string {
  return printable(redactUrl(url).replaceAll(encodeURIComponent(REDACTED), REDACTED));
}

/** The first line for a server: its command line or `<type> <url>`. */
export function whatRuns(config: MCPServerConfig): string {
  return "command" in config ? commandLine(config.command, config.args) : `${config.type} ${shownUrl(config.url)}`;
}

/** The lines under a server's first line: cwd, env, headers, helpers, proxy… (label, value), secrets masked. */
export function detailsOf(config: MCPServerConfig): [string, string][] {
  const c = config as MCPServerConfig & Record<string, unknown>;
  const rows: [string, string][] = [];
  if (typeof c["cwd"] === "string") rows.push(["cwd", printable(c["cwd"])]);
  const env = c["env"];
  if (typeof env === "object" && env !== null) {
    for (const [name, value] of Object.entries(env as Record<string, string>)) rows.push(["env", `${printable(name)}=${shownWhole(name) ? printable(String(value)) : REDACTED}`]);
  }
  if (c["inheritEnv"] === true) rows.push(["inheritEnv", "true (the server gets your whole environment)"]);
  const headers = redactHeaders(c["headers"] as Record<string, string> | undefined);
  for (const [name, value] of Object.entries(headers ?? {})) rows.push(["header", `${printable(name)}: ${printable(value)}`]);
  if (typeof c["headersHelper"] === "string") rows.push(["headersHelper", printable(c["headersHelper"])]);
  if (typeof c["proxy"] === "string") rows.push(["proxy", shownUrl(c["proxy"])]);
  if (c["proxy"] === false) rows.push(["proxy", "none"]);
  if (typeof c["ca"] === "string") rows.push(["ca", printable(c["ca"])]);
  if (c["oauth"] !== undefined) rows.push(["oauth", printable(JSON.stringify(redactConfig({ oauth: c["oauth"] }).oauth))]);
  if (c["stderr"] === "inherit") rows.push(["stderr", "inherit (the server writes to your terminal)"]);
  return rows;
}

/** The details of a server, one indented line each (labels aligned). */
export function detailLines(config: MCPServerConfig, indent: string): string[] {
  const details = detailsOf(config);
  const width = Math.max(0, ...details.map(([label]) => label.length));
  // A label is written once for its group ("env" above its variables).
  return details.map(([label, value], i) => `${indent}${color.dim((details[i - 1]?.[0] === label ? "" : label).padEnd(width))}  ${value}`);
}

/** A server as the approval prompt shows it: name, what runs and a note on one line, then its details. */
export function serverBlock(name: string, config: MCPServerConfig, note: string): string {
  return [`  ${color.bold(printable(name))}  ${whatRuns(config)}${note ? `  ${color.dim(note)}` : ""}`, ...detailLines(config, "      ")].join("\n");
}
