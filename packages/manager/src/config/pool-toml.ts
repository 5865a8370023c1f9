// Pooling a Codex `config.toml` as text: a scanner for its `[mcp_servers.<name>]` tables that finds each stdio entry's
// `command` and `args` strings, and the edits that run the entry through the shim and back.
import {
  parseShimArgs,
  prefixEdit,
  PREFIX_WORDS,
  quote,
  shimItems,
  unprefixEdit,
  type ArraySpan,
  type Edit,
  type EntrySpot,
} from "./pool-text.js";

/** The end of a TOML string that starts at `at` (`"…"` or `'…'`), just after its closing quote. */
function tomlStringEnd(text: string, at: number): number {
  const q = text[at]!;
  for (let i = at + 1; i < text.length; i++) {
    if (q === '"' && text[i] === "\\") i++;
    else if (text[i] === q) return i + 1;
    else if (text[i] === "\n") return -1;
  }
  return -1;
}

/** A TOML basic string's value (`undefined` for an escape JSON does not have). */
function tomlBasic(raw: string): string | undefined {
  try {
    return JSON.parse(
      raw.replace(/\\U([0-9a-fA-F]{8})/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16))),
    ) as string;
  } catch {
    return undefined;
  }
}

/** A TOML array of strings from `[` at `at`: its span and values, or `undefined` when it is anything else. */
function tomlArray(text: string, at: number): { span: ArraySpan; values: string[] } | undefined {
  const items: ArraySpan["items"] = [];
  const values: string[] = [];
  let i = at + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "#") i = text.indexOf("\n", i) < 0 ? text.length : text.indexOf("\n", i);
    else if (c === "]") return { span: { open: at, close: i, items }, values };
    else if (c === '"' || c === "'") {
      if (text.startsWith(c.repeat(3), i)) return undefined;
      const end = tomlStringEnd(text, i);
      if (end < 0) return undefined;
      items.push({ offset: i, end });
      const value = c === "'" ? text.slice(i + 1, end - 1) : tomlBasic(text.slice(i, end));
      if (value === undefined) return undefined;
      values.push(value);
      i = end;
    } else if (/[\s,]/.test(c)) i++;
    else return undefined;
  }
  return undefined;
}

function tomlKeyName(raw: string): string {
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.startsWith("'") ? raw.slice(1, -1) : raw;
}

const HEADER =
  /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)[ \t]*\][ \t]*(?:#.*)?$/;

/**
 * The stdio entries of a Codex `config.toml`: each `[mcp_servers.<name>]` table with `command = "…"`
 * (and `args = […]`) on their own lines. An entry written another way (an inline table, dotted keys)
 * is left alone; the caller checks every rewrite by parsing the result.
 */
export function tomlSpots(text: string): EntrySpot[] {
  const spots: EntrySpot[] = [];
  const lines: { start: number; text: string }[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    lines.push({ start, text: line });
    start += line.length + 1;
  }
  for (let l = 0; l < lines.length; l++) {
    const header = HEADER.exec(lines[l]!.text.replace(/\r$/, ""));
    if (!header) continue;
    const name = tomlKeyName(header[1]!);
    let commandAt: { offset: number; end: number; value: string; lineEnd: number; indent: string } | undefined;
    let args: { span: ArraySpan; values: string[] } | undefined;
    let argsBad = false;
    let url = false;
    for (let k = l + 1; k < lines.length && !/^[ \t]*\[/.test(lines[k]!.text); k++) {
      const line = lines[k]!;
      const m = /^([ \t]*)(command|args|url)[ \t]*=[ \t]*/.exec(line.text);
      if (!m) continue;
      const at = line.start + m[0].length;
      if (m[2] === "url") url = true;
      else if (
        m[2] === "command" &&
        (text[at] === '"' || text[at] === "'") &&
        !text.startsWith(text[at].repeat(3), at)
      ) {
        const end = tomlStringEnd(text, at);
        if (end > 0)
          commandAt = {
            offset: at,
            end,
            value: tomlArray(`[${text.slice(at, end)}]`, 0)?.values[0] ?? "",
            lineEnd: line.start + line.text.length,
            indent: m[1]!,
          };
      } else if (m[2] === "args") {
        args = text[at] === "[" ? tomlArray(text, at) : undefined;
        argsBad = args === undefined;
      }
    }
    if (url || !commandAt) continue;
    const command = commandAt;
    const spot: EntrySpot = {
      name,
      key: name,
      argsAdded: args === undefined,
      command: command.value,
      args: args?.values ?? [],
      pooled: parseShimArgs(args?.values ?? []) !== undefined,
      wrap: () => [],
      unwrap: () => [],
    };
    if (argsBad) spot.problem = "its args are not written as one array of plain strings";
    const cr = text[command.lineEnd - 1] === "\r";
    spot.wrap = (shim, from) => {
      const items = shimItems(name, from, text.slice(command.offset, command.end));
      const edits: Edit[] = [{ offset: command.offset, length: command.end - command.offset, content: quote(shim) }];
      if (args) edits.push(prefixEdit(text, args.span, items));
      else
        edits.push({
          offset: cr ? command.lineEnd - 1 : command.lineEnd,
          length: 0,
          content: `${cr ? "\r\n" : "\n"}${command.indent}args = [${items.join(", ")}]`,
        });
      return edits;
    };
    spot.unwrap = (argsAdded) => {
      if (!spot.pooled || !args) return [];
      const item = args.span.items[PREFIX_WORDS - 1]!;
      const edits: Edit[] = [
        { offset: command.offset, length: command.end - command.offset, content: text.slice(item.offset, item.end) },
      ];
      // An `args = [the shim's words]` line right after the command line: pool added it; take it out.
      const lineStart = text.lastIndexOf("\n", args.span.open) + 1;
      const addedLine =
        (argsAdded ?? true) &&
        args.span.items.length === PREFIX_WORDS &&
        lineStart === command.lineEnd + 1 &&
        /^[ \t]*args[ \t]*=[ \t]*$/.test(text.slice(lineStart, args.span.open));
      if (addedLine)
        edits.push({
          offset: cr ? command.lineEnd - 1 : command.lineEnd,
          length: args.span.close + 1 - (cr ? command.lineEnd - 1 : command.lineEnd),
          content: "",
        });
      else edits.push(unprefixEdit(text, args.span, PREFIX_WORDS));
      return edits;
    };
    spots.push(spot);
  }
  return spots;
}
