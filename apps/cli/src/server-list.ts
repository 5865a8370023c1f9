import { commandLine, rowCause, serverJsonRow, shortPath, stderrBlock, type ServerRow } from "@mcp/manager";
import { serverRows } from "./rows.js";
import { settle, withSession, type GlobalOptions, type Session } from "./session.js";
import { fit, grid, terminalWidth, type Column } from "./table.js";
import { color, EXIT, out, printJson } from "./ui.js";

// `mcp servers`: one line per server that fits the terminal (a name is never cut; the source is
// the file as a person names it), and under the table each error that did not fit its cell, whole,
// with a crashed server's stderr once.

const STATUS_COLOR: Record<string, (s: string) => string> = {
  connected: color.green,
  failed: color.red,
  invalid: color.red,
  reconnecting: color.yellow,
  connecting: color.yellow,
  disabled: color.dim,
  "not approved": color.yellow,
  "needs authentication": color.yellow,
};

/** What the LAST ERROR cell says of an error that is printed under the table. */
const BELOW = "(see below)";

/** The servers table and the lines under it. */
export function serverTable(session: Session, rows: ServerRow[], verbose: boolean): string {
  const failing = (row: ServerRow): boolean =>
    row.status !== "connected" && row.status !== "not approved" && row.lastError !== undefined;
  // A failure says its cause (a crash's, from its stderr); a project server not approved says why.
  const errors = rows.map((row) =>
    row.status === "not approved"
      ? (session.whySkipped?.get(row.name) ?? "not approved yet")
      : failing(row)
        ? rowCause(row)
        : "",
  );
  const columns: Column[] = [
    { title: "NAME", cut: "never" },
    { title: "TRANSPORT", drops: 3 },
    { title: "SOURCE", cut: "left", yields: 1, min: 9, drops: 2 },
    { title: "STATUS", paint: (cell) => (STATUS_COLOR[cell] ?? String)(cell) },
    { title: "TOOLS" },
    { title: "TIME", drops: 1 },
  ];
  const cells = rows.map((row) => [
    row.name,
    row.transport,
    shortPath(row.source, session.cwd, session.home),
    row.status,
    row.tools === undefined ? "" : String(row.tools),
    row.connectMs === undefined ? "" : `${row.connectMs} ms`,
  ]);
  const width = terminalWidth();
  // The last error gets what is left of the line; one that does not fit it whole goes under the table.
  const room = fit(columns, cells, width).spare - 2;
  // A crash's stderr goes under the table, with its cause.
  const tails = rows.map((row) =>
    row.status === "failed" || verbose ? stderrBlock(row.stderrTail, { whole: verbose }) : "",
  );
  const inline = errors.map(
    (error, i) => error !== "" && tails[i] === "" && !error.includes("\n") && error.length <= room,
  );
  // The column only when it says something: an error whole, or that there are none.
  const withErrors = room >= BELOW.length && (inline.some(Boolean) || errors.every((e) => e === ""));
  if (withErrors) {
    columns.push({ title: "LAST ERROR" });
    cells.forEach((row, i) => row.push(errors[i] === "" ? "" : inline[i] ? errors[i]! : BELOW));
  }
  const lines = [grid(columns, cells, width)];
  const below: string[] = [];
  rows.forEach((row, i) => {
    if (errors[i] !== "" && !(withErrors && inline[i])) below.push(`${color.bold(row.name)}: ${errors[i]}${tails[i]}`);
  });
  if (below.length) lines.push("", ...below);
  const unapproved = rows.filter((row) => row.status === "not approved").map((row) => row.name);
  if (unapproved.length)
    lines.push(
      "",
      color.dim(
        `Approve ${unapproved.length === 1 ? "it" : "them"} with: ${commandLine("mcp", ["config", "approve", ...unapproved])}   (or --yes for one run)`,
      ),
    );
  return lines.join("\n");
}

/** Statuses `servers --exit-code` counts as healthy (a disabled server is off by choice). */
const HEALTHY = new Set(["connected", "disabled"]);

/** `mcp servers` (`list`). */
export async function serversCommand(
  globals: GlobalOptions,
  options: { verbose?: boolean; exitCode?: boolean },
): Promise<number> {
  return withSession(globals, {}, async (session) => {
    await settle(session);
    const rows = serverRows(session);
    if (globals.json) printJson(rows.map(serverJsonRow));
    else out(serverTable(session, rows, options.verbose === true));
    // For health checks: exit 1 when any server is not connected (failed, not approved, invalid, needs authentication).
    return options.exitCode === true && rows.some((row) => !HEALTHY.has(row.status)) ? EXIT.failure : EXIT.ok;
  });
}
