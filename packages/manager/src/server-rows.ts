// Every server a listing shows, as rows: the manager's (each one's error once; one that needs a
// sign-in says what to do first), then what was chosen but not run (project servers left out,
// entries that could not be read). A host adds its ways out (the command that signs in or approves).
import type { ChosenServers } from "./config/choose-servers.js";
import { failureError } from "./failure.js";
import type { MCPManager } from "./manager.js";
import { leftOutRows, serverRow, type ServerRow } from "./rows.js";
import type { ServerStatus } from "./types.js";
import { tokenRefused } from "./unavailable.js";

/** A host's words in {@link serverRows}' rows. */
export interface ServerRowWords {
  /** Where a server comes from (default: its config file, else `(command line)`). */
  source?: ((name: string) => string) | undefined;
  /** What to do for a server that needs a sign-in; its error follows in parentheses (default: `sign in`). */
  signIn?: ((status: ServerStatus) => string) | undefined;
  /** Where a refused token was given, for a server not from a config file (`tokenRefused`'s `given`). */
  tokenGiven?: string | undefined;
  /** The error of a project server left out, from its row, whose `lastError` says why (default: that). */
  notApproved?: ((row: ServerRow) => string) | undefined;
}

/**
 * The rows of every server `found` names: the manager's first, in its order ({@link serverRow}),
 * each `lastError` once (a crash's stderr is in `stderrTail` only; a refused token says where it
 * was given), then {@link leftOutRows}. A server that `needs authentication` has `lastError`
 * `<words.signIn> (<its error>)`.
 */
export function serverRows(
  manager: Pick<MCPManager, "getStatuses">,
  found: Pick<ChosenServers, "configs"> & Parameters<typeof leftOutRows>[0],
  words: ServerRowWords = {},
): ServerRow[] {
  const rows = manager.getStatuses().map((s): ServerRow => {
    const config = found.configs[s.name];
    const source = words.source?.(s.name) ?? found.servers[s.name]?.source.file ?? "(command line)";
    const row = serverRow(s, config, { source });
    const error =
      s.lastError === undefined ? undefined : (tokenRefused(s, config, words.tokenGiven) ?? failureError(s));
    if (row.status !== "needs authentication") return { ...row, lastError: error };
    return { ...row, lastError: `${words.signIn?.(s) ?? "sign in"} (${error ?? ""})` };
  });
  for (const row of leftOutRows(found))
    rows.push(row.status === "not approved" && words.notApproved ? { ...row, lastError: words.notApproved(row) } : row);
  return rows;
}
