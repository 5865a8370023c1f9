// Why each server of a command cannot serve, one finding a server, in words every host shows (what
// `mcp config doctor` prints): an invalid entry, a project server not approved, a command not
// installed, a refused token, a server that wants a sign-in, a timeout, a crash by its cause.
import { commandOnPath } from "./config/command-line.js";
import { configHint, failureCause, failureError } from "./failure.js";
import { shortPath, stderrBlock, tildify, tokenRefused, type ServersChosen } from "./unavailable.js";
import type { ServerStatus } from "./types.js";

/** What a finding is about; a host adds its own way out by kind (the command that approves, signs in, raises a limit). */
export type FindingKind =
  "connected" | "invalid" | "not-approved" | "not-installed" | "token-refused" | "needs-sign-in" | "timeout" | "failed";

/** One server's state, found by {@link diagnoseServers}. */
export interface ServerFinding {
  /** The server's name (an invalid file with no entry named: its path, from `~`). */
  server: string;
  /** True when it connected. */
  ok: boolean;
  kind: FindingKind;
  /** In words: what is wrong, or how it connected (without {@link stderr}). */
  finding: string;
  /** The stderr lines worth showing, as {@link stderrBlock} gives them (`""` when none). */
  stderr: string;
  /** The server's status, for a finding about a server that was started. */
  status?: ServerStatus | undefined;
}

/** Where {@link diagnoseServers} names files from, and what it says of a token no file gave. */
export interface DiagnoseOptions {
  /** The project folder: a file in it is named relative to it. */
  cwd: string;
  /** The home folder: a file in it is named from `~`. */
  home: string;
  /** Where the token of a server with no config file came from (default: `given by the host`). */
  tokenGiven?: string | undefined;
  /** What `PATH` a command is looked for on (default: `process.env`). */
  env?: Record<string, string | undefined> | undefined;
}

/**
 * Every server a command chose, and why each that cannot serve cannot, in order: invalid entries
 * (an unset variable says how to set it), project servers left out as not approved, then each
 * started server's status (`statuses`, after the servers were started): connected (how fast, how
 * many tools), or why not. A stdio command not found on `PATH` is said so, not as a spawn error.
 *
 * @example
 * const chosen = await chooseServers({ cwd, home });
 * await manager.connectServers(chosen.configs);
 * for (const f of diagnoseServers(chosen, manager.getStatuses(), { cwd, home }))
 *   console.log(`${f.ok ? "✓" : "✗"} ${f.server}: ${f.finding}${f.stderr}`);
 */
export function diagnoseServers(
  chosen: ServersChosen & { embedded?: boolean | undefined },
  statuses: readonly ServerStatus[],
  options: DiagnoseOptions,
): ServerFinding[] {
  const { cwd, home } = options;
  const findings: ServerFinding[] = [];
  const found = (server: string, kind: FindingKind, finding: string, status?: ServerStatus): void => {
    const stderr = status && kind !== "connected" ? stderrBlock(status.stderrTail) : "";
    findings.push({ server, ok: kind === "connected", kind, finding, stderr, status });
  };
  for (const error of chosen.configErrors) {
    const variable = /environment variable "([^"]+)"/.exec(error.message)?.[1];
    const fix = variable ? `; set it (export ${variable}=…) or give a default: \${${variable}:-value}` : "";
    found(error.server ?? tildify(error.file, home), "invalid", error.message + fix);
  }
  for (const name of chosen.skipped)
    found(
      name,
      "not-approved",
      `a project server that is not approved (${chosen.whySkipped?.get(name) ?? "not approved yet"})`,
    );
  for (const status of statuses) {
    const config = chosen.configs[status.name];
    const error = failureError(status) || status.state;
    const refused = tokenRefused(status, config, options.tokenGiven);
    const source = chosen.embedded
      ? "(embedded default)"
      : (chosen.servers[status.name]?.source.file ?? "(command line)");
    if (status.state === "connected") {
      const tools = `${status.toolCount} tool${status.toolCount === 1 ? "" : "s"}`;
      found(status.name, "connected", `connected in ${status.connectMs} ms, ${tools}`, status);
    } else if (
      status.lastErrorCode === "spawn_failed" &&
      config &&
      "command" in config &&
      !commandOnPath(config.command, options.env)
    )
      found(
        status.name,
        "not-installed",
        `command "${config.command}" is not installed or not on PATH (${shortPath(source, cwd, home)})`,
        status,
      );
    else if (refused) found(status.name, "token-refused", refused, status);
    else if (status.lastErrorCode === "oauth_error")
      found(status.name, "needs-sign-in", `needs authorization (OAuth): ${error}`, status);
    else if (status.lastErrorStatus === 401 || status.lastErrorStatus === 403)
      found(status.name, "needs-sign-in", `needs authorization (HTTP ${status.lastErrorStatus}): ${error}`, status);
    else if (status.lastErrorCode === "connection_timeout") found(status.name, "timeout", error, status);
    else {
      const hint = status.lastErrorCode === "network_error" ? undefined : configHint(config, status);
      found(status.name, "failed", failureCause(status) + (hint ? `\n    hint: ${hint}` : ""), status);
    }
  }
  return findings;
}
