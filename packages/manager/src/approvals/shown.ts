// What a project server will run, for the person who approves it: the command line quoted as a
// shell would need it, cwd, every environment variable the config sets, URL, headers, headers
// helper, proxy; all as the file writes them (`${VAR}` unexpanded), with the names of the user's
// variables it takes on a line of their own. Text from the config is untrusted: control characters
// and invisible or reordering Unicode are shown as escapes, so a value cannot hide itself or the
// lines around it. Every host that asks for an approval shows this (the CLI's prompt and lists).
import type { MCPServerConfig } from "@mcp/client";
import { isCredentialHeader, REDACTED, redactConfig, redactUrl } from "@mcp/jsonrpc/internal";
import type { WrittenEntry } from "../config/types.js";

/**
 * Variables that make a program load or run other code, or find other programs: always shown
 * whole, even when their name looks like a credential's.
 */
const RUNS_CODE = new Set([
  "PATH",
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_EXTRA_CA_CERTS",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PYTHONUSERBASE",
  "PERL5LIB",
  "PERL5OPT",
  "PERLLIB",
  "RUBYLIB",
  "RUBYOPT",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "PROMPT_COMMAND",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "GIT_SSH_COMMAND",
  "GIT_EXEC_PATH",
  "DENO_DIR",
  "BUN_INSTALL",
]);
const RUNS_CODE_PREFIX = /^(DYLD_|LD_|npm_config_|NPM_CONFIG_|GIT_CONFIG|PIP_|UV_)/;

/**
 * Variables that decide where a server's traffic goes and whether it is checked: proxies
 * (`*_PROXY`, either case), CA bundles and paths (`*_CA_*`, `*_CA`, `*_CAINFO`, `*_CAPATH`,
 * `SSL_CERT_*`), TLS switches (`NODE_TLS_*`, `*_SSL_NO_VERIFY`, `*HTTPSVERIFY`, `*_INSECURE`,
 * `*STRICT_SSL`) and `NODE_NO_WARNINGS` (which hides Node's warning that TLS checks are off). Never
 * masked: `NODE_TLS_REJECT_UNAUTHORIZED=0` must read as what it is, though "AUTH" is in its name.
 */
const SECURITY =
  /_PROXY$|^SSL_CERT_|^NODE_TLS_|(^|_)CA(_|$)|_CA(INFO|PATH)$|SSL_NO_VERIFY$|HTTPSVERIFY$|_INSECURE$|STRICT_SSL$|^NODE_NO_WARNINGS$|^NODE_USE_(ENV_PROXY|SYSTEM_CA)$/i;

/** True for a variable whose value the prompt shows whole: one that runs code or decides the network's security, or whose name is not a credential's. */
export function shownWhole(name: string): boolean {
  return RUNS_CODE.has(name) || RUNS_CODE_PREFIX.test(name) || SECURITY.test(name) || !isCredentialHeader(name);
}

/** C0/C1 controls, zero-width and bidirectional marks, line and paragraph separators, BOM. */
function unsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
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

/** A server to show: as loaded, and as its file writes it when the loader kept that (variables unexpanded). */
export interface ShownServer {
  config: MCPServerConfig;
  written?: WrittenEntry | undefined;
}

/** `${…}` in a value: a reference the loader expands. */
const REFERENCE = /\$\{([^}]*)\}/g;
/** References that are not the user's variables (paths the loader fills in), and `${input:…}`, asked for. */
const NOT_A_VARIABLE = new Set(["userHome", "workspaceFolder", "workspaceFolderBasename", "pathSeparator", "/"]);
/** The fields the loader expands (see `@mcp/manager`). */
const EXPANDED = ["command", "args", "env", "url", "headers", "cwd", "proxy", "ca"];

const refers = (value: unknown): boolean => typeof value === "string" && /\$\{[^}]*\}/.test(value);

/** The names of the user's environment variables a value takes (`${VAR}`, `${env:VAR}`, `${VAR:-default}`), deeply. */
function variablesIn(value: unknown, found: Set<string>): Set<string> {
  if (typeof value === "string") {
    for (const match of value.matchAll(REFERENCE)) {
      const body = match[1] ?? "";
      if (NOT_A_VARIABLE.has(body) || body.startsWith("input:")) continue;
      const name = (body.startsWith("env:") ? body.slice("env:".length) : body).split(":-")[0]!;
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) found.add(name);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) variablesIn(item, found);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) variablesIn(item, found);
  }
  return found;
}

/** The fields to show: as written when known (never an expanded secret), else as loaded. */
function fieldsOf(server: ShownServer): Record<string, unknown> {
  return server.written?.config ?? (server.config as unknown as Record<string, unknown>);
}

/** A URL as written: with a reference, whole (the reference is what there is to see); else its password and token-like query values hidden. */
function shownUrlOf(url: string, written: boolean): string {
  return written && refers(url) ? printable(url) : shownUrl(url);
}

/**
 * A value of a variable or header whose name looks like a credential's: as written when it takes
 * one of the user's variables (so `Bearer ${GITHUB_TOKEN}` says whose token is sent); a literal
 * the file itself holds is masked.
 */
function credential(value: unknown, written: boolean): string {
  return written && refers(value) ? printable(String(value)) : REDACTED;
}

/** The first line for a server: its command line or `<type> <url>`, as its file writes them. */
function whatRuns(server: ShownServer): string {
  const c = fieldsOf(server);
  const written = server.written !== undefined;
  if (typeof c["command"] === "string")
    return commandLine(c["command"], Array.isArray(c["args"]) ? c["args"].map(String) : []);
  const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);
  return `${text(c["type"], "http")} ${shownUrlOf(text(c["url"], ""), written)}`;
}

/**
 * The lines under a server's first line (label, value): which of your variables it takes, cwd,
 * env, headers, helpers, proxy…; values as the file writes them, literal secrets masked.
 */
function detailsOf(server: ShownServer): [string, string][] {
  const c = fieldsOf(server);
  const written = server.written !== undefined;
  const rows: [string, string][] = [];
  const yours = new Set<string>();
  if (written) {
    for (const key of EXPANDED) variablesIn(c[key], yours);
    variablesIn(server.written?.envFile, yours);
  }
  if (yours.size > 0) rows.push(["uses your", [...yours].map(printable).join(", ")]);
  if (typeof c["cwd"] === "string") rows.push(["cwd", printable(c["cwd"])]);
  const env = (typeof c["env"] === "object" && c["env"] !== null ? c["env"] : {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(env))
    rows.push([
      "env",
      `${printable(name)}=${shownWhole(name) ? printable(String(value)) : credential(value, written)}`,
    ]);
  if (server.written?.envFile !== undefined) {
    rows.push(["envFile", printable(server.written.envFile)]);
    // What the file gave `env`: its values are no one's variables, masked by name as ever.
    const loaded = ("env" in server.config ? server.config.env : undefined) ?? {};
    for (const [name, value] of Object.entries(loaded))
      if (!(name in env))
        rows.push(["env", `${printable(name)}=${shownWhole(name) ? printable(value) : REDACTED}  (from envFile)`]);
  }
  if (c["inheritEnv"] === true) rows.push(["inheritEnv", "true (the server gets your whole environment)"]);
  const headers = (typeof c["headers"] === "object" && c["headers"] !== null ? c["headers"] : {}) as Record<
    string,
    unknown
  >;
  for (const [name, value] of Object.entries(headers))
    rows.push([
      "header",
      `${printable(name)}: ${isCredentialHeader(name) ? credential(value, written) : printable(String(value))}`,
    ]);
  if (typeof c["headersHelper"] === "string")
    rows.push(
      ["headersHelper", printable(c["headersHelper"])],
      ["headersHelper", "(a shell command: it runs with your whole environment)"],
    );
  if (typeof c["proxy"] === "string") rows.push(["proxy", shownUrlOf(c["proxy"], written)]);
  if (c["proxy"] === false) rows.push(["proxy", "none"]);
  if (typeof c["ca"] === "string") rows.push(["ca", printable(c["ca"])]);
  if (c["oauth"] !== undefined)
    rows.push(["oauth", printable(JSON.stringify(redactConfig({ oauth: c["oauth"] }).oauth))]);
  if (c["stderr"] === "inherit") rows.push(["stderr", "inherit (the server writes to your terminal)"]);
  return rows;
}

/** What {@link describeServer} says of a server: one line of what runs, then labelled details. */
export interface ServerDescription {
  /** Its command line (each word quoted as a POSIX shell needs it), or `<type> <url>` (a password and token-like query values hidden). */
  runs: string;
  /**
   * `[label, value]` in order: `uses your` (the user's variables it takes), `cwd`, `env` (one per
   * variable), `envFile`, `inheritEnv`, `header`, `headersHelper`, `proxy`, `ca`, `oauth`,
   * `stderr`. A value whose name looks like a credential's is masked unless the file writes it as
   * a `${VAR}` reference; variables that run code or decide the network's security are shown whole.
   */
  details: [string, string][];
}

/**
 * A server as the person approving it must see it: what it runs and every detail that decides
 * what it does, as its file writes them (`server.written`, when the loader kept it; else as
 * loaded), untrusted text escaped ({@link printable}), literal secrets masked.
 */
export function describeServer(server: ShownServer): ServerDescription {
  return { runs: whatRuns(server), details: detailsOf(server) };
}
