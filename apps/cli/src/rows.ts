import { serverRows as rowsOf, type ServerRow } from "@mcp/manager";
import { authHint } from "./resolve.js";
import { sourceOf, type Session } from "./session.js";
import { HINT } from "./ui.js";

// The rows of `mcp servers --json` (@mcp/manager's rows, the CLI's contract, with the CLI's ways out;
// tools, resources and prompts are the manager's `toolRows`, `resourceRows`, `promptRows`). `mcp
// inspect` gives the inspector these server rows, and the inspector's API answers the same shapes
// (apps/cli/test/inspect.test.ts holds them equal).

/** The rows of `mcp servers --json -v` (and of the inspector's server list). */
export const serverRows = (session: Session): ServerRow[] =>
  rowsOf(session.manager, session, {
    source: (name) => sourceOf(session, name),
    signIn: (s) => (s.source === undefined ? authHint(s) : `run: mcp auth ${s.name}`),
    tokenGiven: HINT.tokenGiven,
    notApproved: (row) => `project server ${row.lastError} (approve it: mcp config approve ${row.name})`,
  });
