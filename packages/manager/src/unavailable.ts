// Why a server cannot serve, in words every host shows: not approved, an invalid entry, disabled
// (before anything starts), or failed (its cause, what it runs, a hint about its config, its
// stderr). A host adds its own way out (the command that approves or signs in) on top.
import { isAbsolute, relative, sep } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { NetworkError, NoResponseError, RequestTimeoutError, TransportClosedError } from "@mcp/jsonrpc";
import { redactUrl } from "@mcp/jsonrpc/internal";
import { describeServer } from "./approvals/shown.js";
import { NOT_APPROVED_YET } from "./approvals/store.js";
import type { ChosenServers } from "./config/choose-servers.js";
import {
  configHint,
  crashReportLines,
  failureCause,
  failureError,
  needsSignIn,
  refusedTokenHeader,
  stderrCause,
} from "./failure.js";
import type { ServerStatus } from "./types.js";

/** `~` for the home folder at the start of a path; a path elsewhere whole, none as `""`. */
export function tildify(path: string | undefined, home: string): string {
  if (!path) return "";
  return home && (path === home || path.startsWith(`${home}${sep}`)) ? `~${path.slice(home.length)}` : path;
}

/**
 * A config file as a person names it: relative to the project folder `cwd` (`.mcp.json`,
 * `.cursor/mcp.json`), else from `~` (`~/.claude.json`), else whole. What is not a path
 * (`(command line)`) is kept; none is `""`.
 */
export function shortPath(path: string | undefined, cwd: string, home: string): string {
  if (!path) return "";
  if (!isAbsolute(path)) return path;
  return path.startsWith(`${cwd}${sep}`) ? relative(cwd, path) : tildify(path, home);
}

/** What a server runs or reaches: its command line, or `<type> <url>` (a password in the URL hidden). */
export function describeConfig(config: MCPServerConfig): string {
  return "command" in config
    ? [config.command, ...(config.args ?? [])].join(" ")
    : `${config.type} ${redactUrl(config.url)}`;
}

/**
 * A stderr tail under `stderr: `, on lines of its own after `\n` (each line after the first
 * aligned with the first): the lines {@link crashReportLines} picks. `""` when there are none.
 */
export function stderrBlock(
  tail: string | undefined,
  options: { indent?: string; max?: number; whole?: boolean } = {},
): string {
  const shown = crashReportLines(tail, options);
  if (shown.length === 0) return "";
  const label = `${options.indent ?? "    "}stderr: `;
  const pad = " ".repeat(label.length);
  return `\n${label}${shown.map((line, i) => (line.trim() === "" ? "" : i === 0 ? line.trim() : `${pad}${line}`)).join("\n")}`;
}

/** The servers a command chose, as {@link whyNotStartable} reads them. */
export type ServersChosen = Pick<ChosenServers, "configs" | "servers" | "skipped" | "configErrors"> & {
  whySkipped?: Map<string, string> | undefined;
};

/** Why a known server cannot start, before anything starts. */
export interface NotStartable {
  /** A project server no approval covers; an entry its file holds that could not be read; an entry turned off. */
  reason: "not-approved" | "invalid" | "disabled";
  /** In words, naming the server and its file (`~` for the home folder). */
  message: string;
}

/** A config error's message without the `MCP server "x" in <file>: ` it starts with (said already). */
function problemOf(message: string): string {
  return message.replace(/^MCP server "[^"]*" in [^:]*: /, "");
}

/** An invalid entry (or file), in words: `server "x" has an invalid entry in <file>: <problem>`. */
export function invalidEntry(
  error: { server?: string | undefined; file: string; message: string },
  home: string,
): string {
  const what = error.server ? `server "${error.server}" has an invalid entry` : "invalid file";
  return `${what} in ${tildify(error.file, home)}: ${problemOf(error.message)}`;
}

/**
 * Why `name` cannot start though it is known: a project server left out as not approved (why,
 * its file and what it would run), an invalid entry, a disabled one. Undefined when it may start.
 *
 * @example
 * const chosen = await chooseServers({ cwd, home });
 * whyNotStartable(chosen, "repo", home)?.message;
 * // 'server "repo" comes from the project file ~/src/app/.mcp.json and is not approved yet (it would run: npx repo-mcp)'
 */
export function whyNotStartable(chosen: ServersChosen, name: string, home: string): NotStartable | undefined {
  const entry = chosen.servers[name];
  if (chosen.skipped.includes(name)) {
    const why = chosen.whySkipped?.get(name) ?? NOT_APPROVED_YET;
    const state = why === NOT_APPROVED_YET ? "is not approved yet (" : `is not approved as it is now (${why}; `;
    const runs = entry ? describeServer(entry).runs : "?";
    const message = `server "${name}" comes from the project file ${tildify(entry?.source.file, home)} and ${state}it would run: ${runs})`;
    return { reason: "not-approved", message };
  }
  const invalid = chosen.configErrors.find((e) => e.server === name);
  if (invalid) return { reason: "invalid", message: invalidEntry(invalid, home) };
  if (entry && !entry.enabled && chosen.configs[name] === undefined)
    return { reason: "disabled", message: `server "${name}" is disabled in ${tildify(entry.source.file, home)}` };
  return undefined;
}

/** What a host says on top of {@link failureReport}'s words. */
export interface FailureWords {
  /** What to do for a server that needs a token (default: `sign in to it`). */
  signIn?: ((status: ServerStatus) => string) | undefined;
  /** Where the token of a server with no config file came from (default: `given by the host`). */
  tokenGiven?: string | undefined;
  /** How many stderr lines to show, or all of them (see {@link stderrBlock}). */
  stderr?: { max?: number; whole?: boolean } | undefined;
}

/** A 401 for the token a server's config sends in its `Authorization` header, in words; undefined for any other failure. */
export function tokenRefused(
  status: ServerStatus,
  config: MCPServerConfig | undefined,
  given = "given by the host",
): string | undefined {
  const header = refusedTokenHeader(status, config);
  if (header === undefined) return undefined;
  const where = status.source ? `in "headers" of its config (${status.source})` : given;
  return `the server refused the token in the ${header} header (HTTP 401): check the token ${where}`;
}

/**
 * Why a failed server failed, for a person: `server "x" needs authentication: <what to do> (<its
 * error>)` when signing in is the fix; else `server "x" failed to start: <cause>`, then its command
 * or URL, a hint about its config (a 404, the other HTTP transport) and its stderr, a line each.
 *
 * @example
 * failureReport(manager.getConnectionStatus("db")!, configs["db"]);
 * // 'server "db" failed to start: TypeError: fetch failed (the process exited with code 1)\n    command: node db.js\n    stderr: …'
 */
export function failureReport(
  status: ServerStatus,
  config: MCPServerConfig | undefined,
  words: FailureWords = {},
): string {
  const name = status.name;
  if (needsSignIn(status, config)) {
    const error = failureError(status).split("\n")[0]!.trim();
    const shown = error.length > 200 ? `${error.slice(0, 199)}…` : error;
    return `server "${name}" needs authentication: ${words.signIn?.(status) ?? "sign in to it"} (${shown})`;
  }
  const refused = tokenRefused(status, config, words.tokenGiven);
  const what = !config
    ? ""
    : "command" in config
      ? `\n    command: ${describeConfig(config)}`
      : `\n    url: ${redactUrl(config.url)}`;
  const hint = refused ? undefined : configHint(config, status);
  return `server "${name}" failed to start: ${refused ?? failureCause(status)}${what}${hint ? `\n    hint: ${hint}` : ""}${stderrBlock(status.stderrTail, words.stderr)}`;
}

/**
 * A server whose process died under a request, in words: `the server stopped during <during>: <the
 * cause its stderr names> (the process exited with code 1)` (or `was killed by SIGKILL`), and
 * those stderr lines ({@link stderrBlock}); undefined for any other error.
 */
export function crashOf(error: unknown, during: string): { headline: string; stderr: string } | undefined {
  if (!TransportClosedError.isInstance(error) || !(error.signal || (error.exitCode ?? null) !== null)) return undefined;
  const ended = error.signal
    ? `the process was killed by ${error.signal}`
    : `the process exited with code ${error.exitCode}`;
  const cause = stderrCause(error.stderrTail);
  return {
    headline: `the server stopped during ${during}: ${cause ? `${cause} (${ended})` : ended}`,
    stderr: stderrBlock(error.stderrTail),
  };
}

/** Why a request failed, as {@link callFailure} words it. */
export interface CallFailure {
  /** `timeout`: no answer in time; `may-have-run`: the server may have run it (it died, the connection broke, no response came). */
  kind: "timeout" | "may-have-run";
  message: string;
}

/**
 * A failed request (`what`: `calling server.tool`), for a person: a timeout says how long; a
 * request the server may have run (its process died under it, the connection broke after it was
 * sent, or its answer held no response) says so, and to check before sending it again; a crash is
 * headlined by the cause its stderr names and how the process ended, never by `Transport closed`.
 * Undefined for any other error.
 */
export function callFailure(error: unknown, what: string): CallFailure | undefined {
  const check = "Check whether it took effect before calling it again.";
  const crash = crashOf(error, "the call");
  if (crash) return { kind: "may-have-run", message: `${what}: ${crash.headline}. ${check}${crash.stderr}` };
  if (RequestTimeoutError.isInstance(error))
    return { kind: "timeout", message: `${what} timed out after ${error.timeout}ms` };
  if (NetworkError.isInstance(error) && error.mayHaveRun)
    return { kind: "may-have-run", message: `${what}: ${error.message}. ${check}` };
  // The server took the request and its answer held no response (a stream that broke and could not be resumed).
  if (NoResponseError.isInstance(error))
    return {
      kind: "may-have-run",
      message: `${what}: ${error.message}; the server took the request, so it may have run. ${check}`,
    };
  return undefined;
}

/**
 * Why a resource could not be read from `server` (or from any server), for a person: the error
 * the last server asked gave (a crash as {@link crashOf} words it), or, with none, that no server
 * (or not it) offers resources: what a rejection or `undefined` from `readResourceFrom` means.
 */
export function unreadable(uri: string, server: string | undefined, error?: unknown): string {
  const who = server ? `server "${server}" could not` : "no server could";
  const crash = crashOf(error, "the read");
  if (crash) return `${who} read ${uri}: ${crash.headline}${crash.stderr}`;
  if (error !== undefined) return `${who} read ${uri}: ${(error as Error).message}`;
  return `${who} read ${uri} (${server ? "it offers no resources" : "no connected server offers resources"})`;
}
