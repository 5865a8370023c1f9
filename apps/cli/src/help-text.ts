// Help that fits the terminal (80 columns into a pipe): commander wraps what it formats itself,
// and this fits the examples and notes added after it, which are written as wide lines.

const EXAMPLE = /^(\s+)(\S.*?)( {3,})(\S.*)$/;

/** The width help is fitted to: the terminal's, else 80. */
export function helpWidth(): number {
  return process.stdout.isTTY === true && process.stdout.columns > 0 ? process.stdout.columns : 80;
}

/** Words over lines of at most `width`: the first indented by `indent`, the others by `more`, each but the last ending in `end`. */
function wrap(words: string[], indent: string, width: number, more = indent, end = ""): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const at = lines.length === 0 ? indent : more;
    if (line && at.length + line.length + 1 + word.length + end.length > width) {
      lines.push(`${at}${line}${end}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, `${lines.length === 0 ? indent : more}${line}`] : lines;
}

const wrapWords = (text: string, indent: string, width: number): string[] =>
  wrap(text.split(/\s+/).filter(Boolean), indent, width);

/** A shell command over several lines: broken between its words (a quoted one kept whole), each line but the last ending in ` \\`, so it still pastes as one command. */
const commandLines = (command: string, indent: string, width: number): string[] =>
  wrap(command.match(/(?:'[^']*'|"[^"]*"|\S)+/g) ?? [], indent, width, `${indent}  `, " \\");

/**
 * Fits help text to `width` columns. An example line (`  mcp call …   what it does`, with its
 * continuation lines under the description) too wide keeps the command on its own line with the
 * description under it, indented; any other line too wide is wrapped at word boundaries, keeping
 * its indentation. Lines that fit are left as they are.
 */
export function fitHelp(text: string, width = helpWidth()): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const example = EXAMPLE.exec(line);
    const indent = line.slice(0, Math.max(line.search(/\S/), 0));
    // Continuation lines: indented to the description's column (or, under a command too long to
    // have its description beside it, far in), right under it.
    const descriptionAt = example ? line.length - example[4]!.length : -1;
    const under = (next: string): boolean =>
      /^\s+\S/.test(next) && (example ? next.search(/\S/) === descriptionAt : next.search(/\S/) >= indent.length + 20);
    const more: string[] = [];
    while (i + 1 < lines.length && under(lines[i + 1]!)) more.push(lines[++i]!);
    if (line.length <= width && more.every((m) => m.length <= width)) {
      out.push(line, ...more);
      continue;
    }
    const [command, description] = example
      ? [example[2]!, example[4]!]
      : more.length > 0 || line.trim().startsWith("mcp ")
        ? [line.trim(), ""]
        : [undefined, line.trim()];
    if (command === undefined) {
      out.push(...wrapWords(description, indent, width));
      continue;
    }
    out.push(
      ...commandLines(command, indent, width),
      ...wrapWords([description, ...more.map((m) => m.trim())].join(" "), `${indent}    `, width),
    );
  }
  return out.join("\n");
}
