// The YAML frontmatter of a SKILL.md, read the way a skills host must compare it with the entry
// the server listed (SEP-2640). This is the part of YAML 1.2 frontmatter uses: block mappings and
// sequences, nested by indentation; plain, quoted and block (`|`, `>`) scalars; flow sequences and
// simple flow mappings; the core schema's null, booleans and numbers. Anything else (anchors,
// aliases, tags, multi-document files) is refused with an error saying what, so a skill whose
// frontmatter cannot be read exactly is never loaded: it fails closed.

/** A SKILL.md split into its frontmatter (parsed) and its body. */
export interface SkillMarkdown {
  frontmatter: Record<string, unknown>;
  body: string;
}

/** Splits and parses a SKILL.md; throws an Error saying what is wrong with its frontmatter. */
export function parseSkillMarkdown(markdown: string): SkillMarkdown {
  const text = markdown.replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") throw new Error("it does not begin with YAML frontmatter (a --- line)");
  const end = lines.findIndex((line, i) => i > 0 && (line.trimEnd() === "---" || line.trimEnd() === "..."));
  if (end === -1) throw new Error("its frontmatter has no closing --- line");
  const value = parseYaml(lines.slice(1, end));
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("its frontmatter is not a mapping");
  return { frontmatter: value as Record<string, unknown>, body: lines.slice(end + 1).join("\n") };
}

interface Line {
  indent: number;
  text: string;
  /** 1-based, within the frontmatter. */
  number: number;
}

/** Parses the block YAML of `source` lines (one document). */
export function parseYaml(source: string[]): unknown {
  const lines: Line[] = [];
  source.forEach((raw, i) => {
    if (raw.includes("\t") && /^\s*\t/.test(raw)) throw new Error(`line ${i + 1}: a tab in the indentation`);
    const text = stripComment(raw).trimEnd();
    if (text.trim() !== "")
      lines.push({ indent: raw.length - raw.trimStart().length, text: text.trim(), number: i + 1 });
    else lines.push({ indent: -1, text: "", number: i + 1 }); // blank lines matter inside block scalars
  });
  const parser = new BlockParser(lines, source);
  const value = parser.block(0);
  parser.expectEnd();
  return value ?? {};
}

class BlockParser {
  #i = 0;
  constructor(
    readonly lines: Line[],
    readonly raw: string[],
  ) {}

  #next(): Line | undefined {
    while (this.#i < this.lines.length && this.lines[this.#i]!.indent === -1) this.#i++;
    return this.lines[this.#i];
  }

  expectEnd(): void {
    const line = this.#next();
    if (line) throw new Error(`line ${line.number}: unexpected indentation`);
  }

  /** A block node whose lines are indented at least `min`; undefined when there is none. */
  block(min: number): unknown {
    const line = this.#next();
    if (!line || line.indent < min) return undefined;
    return line.text.startsWith("- ") || line.text === "-" ? this.#sequence(line.indent) : this.#mapping(line.indent);
  }

  #mapping(indent: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (let line = this.#next(); line && line.indent === indent; line = this.#next()) {
      const match = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#][^:]*?)\s*:(?:\s+(.*))?$/.exec(line.text);
      if (!match) throw new Error(`line ${line.number}: expected "key: value"`);
      const key =
        match[1]!.startsWith('"') || match[1]!.startsWith("'") ? (scalar(match[1]!, line.number) as string) : match[1]!;
      if (Object.hasOwn(result, key)) throw new Error(`line ${line.number}: the key "${key}" appears twice`);
      this.#i++;
      result[key] = this.#value(match[2] ?? "", indent, line.number);
    }
    return result;
  }

  #sequence(indent: number): unknown[] {
    const result: unknown[] = [];
    for (
      let line = this.#next();
      line && line.indent === indent && (line.text.startsWith("- ") || line.text === "-");
      line = this.#next()
    ) {
      const rest = line.text.slice(1).trimStart();
      // `- key: value` starts a mapping inside the item, indented where its key is.
      if (/^[^"'[{][^:]*:(\s|$)/.test(rest)) {
        const inner = indent + (line.text.length - rest.length);
        this.lines[this.#i] = { indent: inner, text: rest, number: line.number };
        result.push(this.#mapping(inner));
      } else {
        this.#i++;
        result.push(this.#value(rest, indent, line.number));
      }
    }
    return result;
  }

  /** The value after `key:` or `- `: inline, a block scalar, or a nested block. */
  #value(inline: string, parentIndent: number, number: number): unknown {
    if (/^[|>]/.test(inline)) return this.#blockScalar(inline, parentIndent, number);
    if (inline === "") {
      const line = this.#next();
      // A sequence may sit at its key's indentation (`key:\n- a`).
      if (
        line &&
        (line.indent > parentIndent ||
          (line.indent === parentIndent && (line.text.startsWith("- ") || line.text === "-")))
      )
        return this.block(line.indent);
      return null;
    }
    // A plain scalar may go on over more-indented lines, folded with spaces.
    let text = inline;
    if (!/^["'[{]/.test(inline)) {
      for (
        let line = this.#next();
        line && line.indent > parentIndent && !/:(\s|$)/.test(line.text);
        line = this.#next()
      ) {
        text += ` ${line.text}`;
        this.#i++;
      }
    }
    return scalar(text, number);
  }

  #blockScalar(header: string, parentIndent: number, number: number): string {
    const match = /^([|>])([+-]?)(\d?)([+-]?)$/.exec(header);
    if (!match) throw new Error(`line ${number}: a block scalar header "${header}" this reader does not take`);
    const folded = match[1] === ">";
    const chomp = match[2] || match[4];
    const body: string[] = [];
    let indent: number | undefined = match[3] ? parentIndent + Number(match[3]) : undefined;
    while (this.#i < this.lines.length) {
      const line = this.lines[this.#i]!;
      const raw = this.raw[line.number - 1]!;
      if (line.indent === -1 || raw.trim() === "") {
        body.push("");
        this.#i++;
        continue;
      }
      const lead = raw.length - raw.trimStart().length;
      if (lead <= parentIndent) break;
      indent ??= lead;
      if (lead < indent) break;
      body.push(raw.slice(indent).trimEnd());
      this.#i++;
    }
    while (body.length > 0 && body.at(-1) === "" && chomp !== "+") body.pop();
    let text = folded ? fold(body) : body.join("\n");
    if (chomp !== "-" && body.length > 0) text += "\n";
    return text;
  }
}

/** `>` folding: a break between two lines becomes a space, each blank line a newline; lines indented further keep their breaks. */
function fold(lines: string[]): string {
  let out = "";
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    if (i === 0) out = line;
    else if (line === "") out += "\n";
    else if (previous === "") out += line;
    else if (line.startsWith(" ") || previous!.startsWith(" ")) out += `\n${line}`;
    else out += ` ${line}`;
  });
  return out;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  a: "\x07",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};

/** The text of a double-quoted scalar's inside, its escapes decoded. */
function unescape(inside: string, number: number): string {
  return inside.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_match, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    const decoded = ESCAPES[escape];
    if (decoded === undefined) throw new Error(`line ${number}: an unknown escape \\${escape}`);
    return decoded;
  });
}

/** Drops a `#` comment (one after whitespace, outside quotes). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** One inline value: quoted, flow, or plain (resolved by YAML 1.2's core schema). */
function scalar(text: string, number: number): unknown {
  const value = text.trim();
  if (/^[&*!]/.test(value)) throw new Error(`line ${number}: anchors, aliases and tags are not read`);
  if (value.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(value)) throw new Error(`line ${number}: an unterminated "string"`);
    return unescape(value.slice(1, -1), number);
  }
  if (value.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(value)) throw new Error(`line ${number}: an unterminated 'string'`);
    return value.slice(1, -1).replace(/''/g, "'");
  }
  if (value.startsWith("[") || value.startsWith("{")) return flow(value, number);
  if (/^(null|Null|NULL|~)$/.test(value)) return null;
  if (/^(true|True|TRUE)$/.test(value)) return true;
  if (/^(false|False|FALSE)$/.test(value)) return false;
  if (/^[-+]?[0-9]+$/.test(value)) return Number(value);
  if (/^0o[0-7]+$/.test(value)) return parseInt(value.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(value)) return parseInt(value.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(value)) return Number(value);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(value)) return value.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(value)) return NaN;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) && !/^[-?:][^\s]/.test(value))
    throw new Error(`line ${number}: a plain scalar cannot begin with "${value[0]}"`);
  return value;
}

/** A flow collection on one line: `[a, "b", [c]]` or `{k: v}`. */
function flow(text: string, number: number): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`line ${number}: ${what} in the flow collection ${text}`);
  };
  const space = (): void => {
    while (text[i] === " ") i++;
  };
  const item = (): unknown => {
    space();
    if (text[i] === "[" || text[i] === "{") return collection();
    const start = i;
    if (text[i] === '"' || text[i] === "'") {
      const quote = text[i];
      for (i++; i < text.length && text[i] !== quote; i++) if (quote === '"' && text[i] === "\\") i++;
      if (i >= text.length) fail("an unterminated string");
      i++;
    } else {
      while (i < text.length && !",]}".includes(text[i]!) && !(text[i] === ":" && text[i + 1] === " ")) i++;
    }
    return scalar(text.slice(start, i), number);
  };
  const collection = (): unknown => {
    const open = text[i++];
    const close = open === "[" ? "]" : "}";
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    space();
    while (text[i] !== close) {
      if (i >= text.length) fail("no closing bracket");
      const key = item();
      space();
      if (open === "{") {
        if (text[i] !== ":") fail("a key without a value");
        i++;
        map[String(key)] = item();
      } else list.push(key);
      space();
      if (text[i] === ",") i++;
      else if (text[i] !== close) fail(`an unexpected "${text[i] ?? "end"}"`);
      space();
    }
    i++;
    return open === "[" ? list : map;
  };
  const value = collection();
  space();
  if (i !== text.length) fail("text after the closing bracket");
  return value;
}
