// One way for a command to print its rows: `--json` gives the rows (the CLI's contract), else a
// table whose columns read each row, or a line per row, or a note when there is nothing to show.
import { grid, type Column } from "./table.js";
import { note, out, printJson } from "./ui.js";

/** A column of a {@link table}: how it fits the terminal ({@link Column}) and the cell it shows of each row. */
export interface Field<R> extends Omit<Column, "paint"> {
  cell: (row: R) => string;
  /** Colours a cell (after it was cut to its width), knowing its row. */
  paint?: ((cell: string, row: R) => string) | undefined;
}

/** How a command shows its rows to a person ({@link show}). */
export interface Listing<R> {
  /** What `--json` prints instead of the rows themselves. */
  json?: ((rows: R[]) => unknown) | undefined;
  /** Said instead when there are no rows: a note on stderr, or what the function prints. */
  empty?: string | (() => void) | undefined;
  /** A table, one line per row. */
  table?: Field<R>[] | undefined;
  /** Or (and) a text per row, each on stdout. */
  line?: ((row: R) => string) | undefined;
  /** What follows (notes, warnings, lines under the table); not with `--json`, nor when there are no rows but `empty` said so. */
  after?: ((rows: R[]) => void) | undefined;
}

/** Prints `rows`: as JSON with `--json`, else as `listing` says. */
export function show<R>(json: boolean | undefined, rows: R[], listing: Listing<R>): void {
  if (json) return printJson(listing.json ? listing.json(rows) : rows);
  if (rows.length === 0 && listing.empty !== undefined)
    return typeof listing.empty === "string" ? note(listing.empty) : listing.empty();
  if (listing.table) out(table(listing.table, rows));
  if (listing.line) for (const row of rows) out(listing.line(row));
  listing.after?.(rows);
}

/** Rows as a {@link grid} of these fields. */
export function table<R>(fields: Field<R>[], rows: R[], width?: number, options?: { wrapLast?: boolean }): string {
  const columns = fields.map(({ cell: _cell, paint, ...column }): Column => ({
    ...column,
    ...(paint ? { paint: (cell: string, i: number) => paint(cell, rows[i]!) } : {}),
  }));
  return grid(
    columns,
    rows.map((row) => fields.map((field) => field.cell(row))),
    width,
    options,
  );
}
