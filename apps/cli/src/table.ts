import { color } from "./ui.js";

// Tables and lines that fit the terminal: on a terminal, cells are cut to its width; pipes and
// files get whole lines. Columns are separated by two spaces, with no borders (a border costs three
// columns of the terminal per column of the table), one line per row; no line ends in padding.

/** The terminal's width, or none (no terminal: nothing is cut; pipes and files get whole lines). */
export function terminalWidth(): number {
  return process.stdout.isTTY === true && process.stdout.columns > 0
    ? process.stdout.columns
    : Number.POSITIVE_INFINITY;
}

export function cutRight(text: string, width: number): string {
  return visibleWidth(text) <= width ? text : `${[...text].slice(0, Math.max(width - 1, 0)).join("")}…`;
}

/** Cut at its start; a path from `~` keeps its `~/` (`~/…/mcp-client.json`), so it never reads as one relative to the project. */
export function cutLeft(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  const chars = [...text];
  const home = /^~[/\\]/.test(text) && width > 4 ? text.slice(0, 2) : "";
  return `${home}…${chars.slice(chars.length - Math.max(width - 1 - home.length, 0)).join("")}`;
}

// eslint-disable-next-line no-control-regex -- the escape sequences colours add
const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a string takes on a terminal: colour codes take none, East Asian wide characters two. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ANSI, "")) {
    const code = char.codePointAt(0)!;
    width +=
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1f300 && code <= 0x1faff) ||
      (code >= 0x20000 && code <= 0x3fffd)
        ? 2
        : 1;
  }
  return width;
}

/** A column of a {@link grid}. */
export interface Column {
  title: string;
  /** How a cell gives way when the terminal is too narrow: cut at its end (default) or its start (paths), or never (a name the user types). */
  cut?: "right" | "left" | "never" | undefined;
  /** Columns that give way do so in this order, lowest first (default: they never do). */
  yields?: number | undefined;
  /** Narrowest it gives way to (default: its title, at least 8). */
  min?: number | undefined;
  /** Columns still too wide once every column gave way are left out in this order, lowest first (default: never). */
  drops?: number | undefined;
  /** Colours a cell (after it was cut to its width). */
  paint?: ((cell: string, row: number) => string) | undefined;
}

/** What {@link fit} decided: each column's width, or undefined for a column left out. */
export interface Fit {
  widths: (number | undefined)[];
  /** The width left over, past the last column shown (Infinity with no terminal). */
  spare: number;
}

const GUTTER = 2;

/** Widths for these columns and rows in `width` terminal columns (see {@link Column}). */
export function fit(columns: Column[], rows: string[][], width = terminalWidth()): Fit {
  const widths: (number | undefined)[] = columns.map((column, i) =>
    Math.max(visibleWidth(column.title), ...rows.map((row) => visibleWidth(row[i] ?? ""))),
  );
  const total = (): number => {
    const shown = widths.filter((w): w is number => w !== undefined);
    return shown.reduce((a, b) => a + b, 0) + GUTTER * Math.max(shown.length - 1, 0);
  };
  const order = (key: "yields" | "drops"): number[] =>
    columns
      .map((column, i) => ({ at: column[key], i }))
      .filter((c): c is { at: number; i: number } => c.at !== undefined)
      .sort((a, b) => a.at - b.at)
      .map((c) => c.i);
  for (const i of order("yields")) {
    const over = total() - width;
    if (over <= 0) break;
    if (columns[i]!.cut === "never") continue;
    const floor = columns[i]!.min ?? Math.max(visibleWidth(columns[i]!.title), 8);
    widths[i] = Math.max(floor, widths[i]! - over);
  }
  for (const i of order("drops")) {
    if (total() <= width) break;
    widths[i] = undefined;
  }
  return { widths, spare: width - total() };
}

/** Words in lines of at most `width` columns (a word longer than that on a line of its own). */
export function wrap(text: string, width: number): string[] {
  if (!Number.isFinite(width)) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && visibleWidth(line) + 1 + visibleWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * Rows as aligned columns that fit the terminal: titles in bold, two spaces between columns, one
 * line per row, cells cut as their column says (a name never), no padding at the end of a line.
 * With `wrapLast`, the last column's text is never cut: on a terminal it wraps within its column.
 */
export function grid(
  columns: Column[],
  rows: string[][],
  width = terminalWidth(),
  options: { wrapLast?: boolean } = {},
): string {
  const { widths } = fit(columns, options.wrapLast ? rows.map((row) => row.slice(0, -1)) : rows, width);
  if (options.wrapLast) widths[columns.length - 1] = Math.max(visibleWidth(columns.at(-1)!.title), 1);
  const shown = columns
    .map((column, i) => ({ column, i, width: widths[i] }))
    .filter((c): c is { column: Column; i: number; width: number } => c.width !== undefined);
  const before = shown.slice(0, -1).reduce((sum, c) => sum + c.width + GUTTER, 0);
  const line = (cells: string[], row: number | undefined): string => {
    const parts = shown.map(({ column, i, width: w }, at) => {
      const raw = cells[i] ?? "";
      const last = at === shown.length - 1;
      const cell =
        column.cut === "never" || (last && options.wrapLast)
          ? raw
          : column.cut === "left"
            ? cutLeft(raw, w)
            : cutRight(raw, w);
      const painted = row === undefined ? color.bold(cell) : (column.paint?.(cell, row) ?? cell);
      return last ? painted : painted + " ".repeat(Math.max(w - visibleWidth(cell), 0));
    });
    if (options.wrapLast && row !== undefined && shown.at(-1)?.i === columns.length - 1) {
      const [first = "", ...rest] = wrap(cells[columns.length - 1] ?? "", Math.max(width - before, 20));
      parts[parts.length - 1] = [first, ...rest.map((text) => `${" ".repeat(before)}${text}`)].join("\n");
    }
    return parts.join(" ".repeat(GUTTER)).trimEnd();
  };
  return [
    line(
      columns.map((c) => c.title),
      undefined,
    ),
    ...rows.map((cells, row) => line(cells, row)),
  ].join("\n");
}
