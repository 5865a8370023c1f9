import { failureError, leftOutRows, serverRow, type ServerRow } from "@mcp/manager";
import { authHint, tokenRefused } from "./resolve.js";
import { sourceOf, type Session } from "./session.js";

// The rows of `mcp servers --json` (@mcp/manager's rows, the CLI's contract; tools, resources and
// prompts are the manager's `toolRows`, `resourceRows`, `promptRows`). `mcp inspect` gives the
// inspector these server rows, and the inspector's API answers the same shapes
// (apps/cli/test/inspect.test.ts holds them equal).

/** The rows of `mcp servers --json -v` (and of the inspector's server list). */
export function serverRows(session: Session): ServerRow[] {
  const result: ServerRow[] = session.manager.getStatuses().map((s) => {
    const config = session.configs[s.name];
    const row = serverRow(s, config, { source: sourceOf(session, s.name) });
    // The error once: its message's copy of the stderr lines is left out (they are in stderrTail).
    const error = s.lastError === undefined ? undefined : (tokenRefused(s, config) ?? failureError(s));
    const hint = s.source === undefined ? authHint(s) : `run: mcp auth ${s.name}`;
    return { ...row, lastError: row.status === "needs authentication" ? `${hint} (${error ?? ""})` : error };
  });
  // Project servers left out (with the CLI's way to approve one) and entries that could not be read.
  for (const row of leftOutRows(session))
    result.push(
      row.status === "not approved"
        ? { ...row, lastError: `project server ${row.lastError} (approve it: mcp config approve ${row.name})` }
        : row,
    );
  return result;
}
