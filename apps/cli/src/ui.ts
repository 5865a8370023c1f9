// Output for a person: colour, lines that replace themselves, notes and warnings, `CliError`, the exit codes, and HINT (the CLI's way out of each failure).
import type { FindingKind, ServerFinding, ServerStatus } from "@mcp/manager";
import pc from "picocolors";

/**
 * Output conventions: results go to stdout, notes and errors to stderr. Colour only on a TTY and
 * never with NO_COLOR (picocolors checks both, and FORCE_COLOR).
 */
export const color = pc;

/** Whether the command ends when its stdout's reader goes away (yes, but for a server whose stdout is only its audit log). */
export const stdout = { exitWhenClosed: true };

/** A failure the user can act on, with the exit code it ends the program with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** Exit codes: 0 success, 1 a failed call or server, 2 a usage error, 130 cancelled (Ctrl-C). */
export const EXIT = { ok: 0, failure: 1, usage: 2, cancelled: 130 } as const;

/** The CLI's way out of each failure the packages word (the command or flag that fixes it), added here only. */
export const HINT = {
  notApproved: (name: string) => `; approve it with: mcp config approve ${name}   (or pass --yes for this run)`,
  /** The command that approves project servers (the one that approves them all when naming them makes it long). */
  approveAll: (command: string, more = "") =>
    ` Approve: ${command.length <= 60 ? command : "mcp config approve"}   (or --yes for one run${more})`,
  timeout: " (raise the limit with --timeout <ms>)",
  /** No key for tokens in Redis: `mcp serve` has a flag for the way out. */
  redisPlaintext: " (mcp serve: --redis-plaintext-tokens).",
  tokenGiven: "given with --header",
  see: (what: string, server?: string) => ` (see: mcp ${what}${server ? ` ${server}` : ""})`,
  /** What to do for a server that needs a token: sign in, or for one given on the command line, send a token. */
  signIn: (s: ServerStatus) =>
    s.source === undefined
      ? `send a token with --header 'Authorization=Bearer …' (or add the server with mcp config add, then run mcp auth <name>)`
      : `run mcp auth ${s.name}`,
  /** `mcp config doctor`'s way out of a finding (@mcp/manager's diagnoseServers), by its kind. */
  doctor: {
    "not-approved": (f) => `: approve it with mcp config approve ${f.server} (or pass --yes for one run)`,
    "needs-sign-in": ({ status: s }) =>
      `. ${s!.source === undefined ? HINT.signIn(s!) : `Sign in with: mcp auth ${s!.name}${s!.lastErrorCode === "oauth_error" ? "" : ", or add a token header (--header 'Authorization=Bearer ${TOKEN}')"}`}`,
    timeout: () => `; raise the limit with --timeout <ms> or "timeout" in its config`,
  } as Partial<Record<FindingKind, (finding: ServerFinding) => string>>,
};

/** A package's usage error by its code (McpError's `code`): the CLI's way out added to its words. */
const USAGE: Record<string, (error: { serverName?: string; ambiguous?: string[] }) => string> = {
  unknown_server: () => " (see: mcp servers)",
  unknown_prompt: (e) => (e.ambiguous?.length ? "" : HINT.see("prompts", e.serverName)),
};

/** Throws a package's usage error (an unknown server or prompt; any error when `usage`) as a CliError with the CLI's way out; any other error as it is. */
export function usageError(error: unknown, usage = false): never {
  const hint = USAGE[(error as { code?: string } | null)?.code ?? ""] ?? (usage ? () => "" : undefined);
  throw hint ? new CliError(`${(error as Error).message}${hint(error as never)}`, EXIT.usage) : error;
}

/** A line left open at the bottom of a terminal (the "Cancelling…" line), which the next line replaces or follows. */
let open = false;
/** A transient line at the bottom of a terminal ("Connecting…"), erased before anything else is written. */
let status = false;

/**
 * Shows `text` as a transient line on stderr, in place of the previous one (a terminal only:
 * elsewhere nothing); `undefined` erases it. Anything written next through this module erases it first.
 */
export function statusLine(text: string | undefined): void {
  if (process.stderr.isTTY !== true || open) return;
  if (text === undefined) {
    if (status) process.stderr.write("\r\u001b[2K");
    status = false;
    return;
  }
  process.stderr.write(`\r\u001b[2K${text}`);
  status = true;
}

/** Writes a line on stderr that {@link replaceLine} will replace on a terminal (elsewhere it is an ordinary line). */
export function openLine(text: string): void {
  if (process.stderr.isTTY !== true) return void process.stderr.write(`${text}\n`);
  statusLine(undefined);
  endLine();
  process.stderr.write(`\r\u001b[2K${text}`);
  open = true;
}

/** Writes a line on stderr in place of the open one, if any. */
export function replaceLine(text: string): void {
  statusLine(undefined);
  process.stderr.write(open ? `\r\u001b[2K${text}\n` : `${text}\n`);
  open = false;
}

/** Ends the open line, so what follows starts on a line of its own (a transient one is erased). */
function endLine(): void {
  statusLine(undefined);
  if (open) process.stderr.write("\n");
  open = false;
}

export function note(message: string): void {
  endLine();
  process.stderr.write(`${pc.dim(message)}\n`);
}

export function warn(message: string): void {
  endLine();
  process.stderr.write(`${pc.yellow(message)}\n`);
}

/** Says why a command failed and gives its exit code: a CliError's own ("Cancelled." in place of "Cancelling…"), else 1. */
export function failed(error: unknown): number {
  // A CliError, or a package's error that carries the exit code it ends with (@mcp/daemon's DaemonError,
  // known by name so that main need not load the daemon).
  const coded = error instanceof CliError || (error instanceof Error && error.name === "DaemonError");
  const exitCode = coded ? (error as CliError).exitCode : EXIT.failure;
  if (exitCode === EXIT.cancelled) replaceLine("Cancelled.");
  else {
    endLine();
    process.stderr.write(`${pc.red("error:")} ${(error as Error).message ?? String(error)}\n`);
  }
  return exitCode;
}

export function out(text: string): void {
  statusLine(undefined);
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** The first line of a text, cut to `max` characters. */
export function firstLine(text: string | undefined, max = 80): string {
  const line = (text ?? "").split("\n")[0]?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "1 tool", "2 tools". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
