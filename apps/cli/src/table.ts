import { createRequire } from "node:module";
import type Table from "cli-table3";
import { color } from "./ui.js";

/** cli-table3, loaded by the first table (a call or a `--json` command draws none). */
let tableClass: typeof Table | undefined;

// Tables and lines that fit the terminal: on a terminal, cells are cut to its width; pipes and
// files get whole lines.

/** A table that wraps nothing and draws light borders, or plain columns when not on a terminal. */
export function table(head: string[]): Table.Table {
  const tty = process.stdout.isTTY === true;
  tableClass ??= createRequire(import.meta.url)("cli-table3") as typeof Table;
  return new tableClass({
    head: head.map((h) => color.bold(h)),
    style: { head: [], border: [], compact: !tty },
    chars: tty ? {} : { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  " },
  });
}

/** The terminal's width, or none (no terminal: nothing is cut; pipes and files get whole lines). */
export function terminalWidth(): number {
  return process.stdout.isTTY === true && process.stdout.columns > 0 ? process.stdout.columns : Number.POSITIVE_INFINITY;
}

export function cutRight(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(width - 1, 0))}…`;
}

export function cutLeft(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - Math.max(width - 1, 0))}`;
}

/**
 * Widths that fit a bordered table in the terminal: every column but the last keeps its width while
 * it fits; past that the columns in `yielding` give way in turn (down to their header, or 8), and
 * the last column gets what is left (at least 10). Cells are cut to these widths by the caller.
 */
export function fitColumns(head: string[], rows: string[][], yielding: number[]): { widths: number[]; last: number } {
  const room = terminalWidth() - (3 * head.length + 1); // a border and two spaces per column, and the last border
  const widths = head.slice(0, -1).map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const sum = (): number => widths.reduce((a, b) => a + b, 0);
  let over = sum() + 10 - room;
  for (const i of yielding) {
    if (over <= 0) break;
    const give = Math.min(over, widths[i]! - Math.max(head[i]!.length, 8));
    if (give > 0) {
      widths[i]! -= give;
      over -= give;
    }
  }
  return { widths, last: Math.max(10, room - sum()) };
}
