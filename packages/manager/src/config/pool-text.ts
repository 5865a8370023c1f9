// Pooling a host's config file as text: where each stdio entry's command and arguments are, and the
// smallest edits that run it through `mcp daemon stdio` (and back). Nothing else in the file moves:
// comments, key order, indentation and the HTTP entries stay as they were.
import { findNodeAtLocation, parseTree, type Node } from "jsonc-parser";
import type { ConfigFamily } from "./types.js";

/** The command a pooled entry runs by default: the `mcp` CLI on the host's PATH. */
export const SHIM_COMMAND = "mcp";

/**
 * The light shim beside it (`mcp-shim`, installed with the CLI: a bash script that relays through the
 * daemon without a Node process of its own), with the same arguments.
 */
export const LIGHT_SHIM_COMMAND = "mcp-shim";

/** Whether `command` is one of the shims as found on the host's PATH ({@link SHIM_COMMAND}, {@link LIGHT_SHIM_COMMAND}). */
export function isShimCommand(command: unknown): boolean {
  return command === SHIM_COMMAND || command === LIGHT_SHIM_COMMAND;
}

/**
 * The shim's arguments for one entry: `daemon stdio <name> --from <family>:<scope> -- <command> [args…]`.
 * The original command and arguments ride after `--`, so the shim runs exactly what the host would
 * have run, in the folder and with the environment the host gives it (the entry's `env`, `cwd` and
 * `envFile` stay in the entry: secrets never move into argv). `--from` is a label for `mcp ps` only.
 */
export function shimArgs(name: string, from: string, command: string, args: readonly string[]): string[] {
  return ["daemon", "stdio", name, "--from", from, "--", command, ...args];
}

/** What {@link shimArgs} carries; `undefined` when `args` are not a shim's. */
export function parseShimArgs(
  args: readonly string[],
): { name: string; from?: string; command: string; args: string[] } | undefined {
  if (args[0] !== "daemon" || args[1] !== "stdio" || args[2] === undefined) return undefined;
  const dash = args.indexOf("--", 3);
  const command = dash < 0 ? undefined : args[dash + 1];
  if (command === undefined) return undefined;
  const options = args.slice(3, dash);
  const at = options.indexOf("--from");
  const from = at >= 0 ? options[at + 1] : undefined;
  return { name: args[2], ...(from === undefined ? {} : { from }), command, args: args.slice(dash + 2) };
}

/**
 * A pooled entry's config as it was before `pool`: `command` and `args` taken back from the shim's
 * arguments, everything else (env, cwd, …) as it is. `undefined` when the config does not run the shim
 * with only the words {@link shimArgs} writes (`--from <label>` is the one option).
 * What the shim serves, and what an approval covers (a pooled entry and its original are approved alike).
 */
export function unwrapShimConfig<T extends object>(config: T): T | undefined {
  const { command, args } = config as { command?: unknown; args?: unknown };
  if (typeof command !== "string" || !Array.isArray(args) || !args.every((a) => typeof a === "string"))
    return undefined;
  const shim = parseShimArgs(args);
  // Only the words `shimArgs` writes: another option (`--config <file>`, …) would change what the shim serves.
  const options = args.slice(3, args.indexOf("--", 3));
  if (!shim || !(options.length === 0 || (options.length === 2 && options[0] === "--from"))) return undefined;
  return { ...config, command: shim.command, args: shim.args };
}

/** How many words the shim puts before the original arguments (`command` is one of them). */
export const PREFIX_WORDS = 7;

/** One stdio entry as found in the text. */
export interface EntrySpot {
  name: string;
  /** Where the entry is (its container's path and its name), to tell apart entries of the same name. */
  key: string;
  /** Whether `args` is there because pool wrote it (the entry had none); `undefined` when that cannot be told. */
  argsAdded?: boolean | undefined;
  /** The program and its arguments as the file has them. */
  command: string;
  args: string[];
  /** Whether the entry already runs through the shim. */
  pooled: boolean;
  /** Why it cannot be rewritten (an unusual layout), when it cannot. */
  problem?: string | undefined;
  /** Text edits (offset, length, new text), applied to the whole file at once. */
  wrap: (shim: string, from: string) => Edit[];
  /** `argsAdded`: whether pool added the `args` (from its backup record); unknown: guessed from the layout. */
  unwrap: (argsAdded?: boolean) => Edit[];
}

export interface Edit {
  offset: number;
  length: number;
  content: string;
}

/** Applies non-overlapping edits, the last first. */
export function applyTextEdits(text: string, edits: Edit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset))
    out = out.slice(0, edit.offset) + edit.content + out.slice(edit.offset + edit.length);
  return out;
}

export const quote = (value: string): string => JSON.stringify(value);

/** An array written in the file: where `[` is, its items' spans, and where `]` is. */
export interface ArraySpan {
  open: number;
  close: number;
  items: { offset: number; end: number }[];
}

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The file's line ending. */
export function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** Items (as written) put at the start of an array, inline or one per line like the array's own items. */
export function prefixEdit(text: string, array: ArraySpan, items: string[]): Edit {
  const first = array.items[0];
  const multiline = first !== undefined && text.slice(array.open, first.offset).includes("\n");
  if (multiline) {
    const indent = lineIndent(text, first.offset);
    return { offset: array.open + 1, length: 0, content: items.map((w) => `${eolOf(text)}${indent}${w},`).join("") };
  }
  return { offset: array.open + 1, length: 0, content: items.join(", ") + (first ? ", " : "") };
}

/**
 * The shim's words for an entry, written: all quoted, except the program, which keeps the text the
 * file had (its quotes and escapes), so that unwrapping puts back exactly what was there.
 */
export function shimItems(name: string, from: string, programText: string): string[] {
  return [...shimArgs(name, from, "", []).slice(0, -1).map(quote), programText];
}

/** Removes the first `count` words of an array that {@link prefixEdit} wrote (or that look the same). */
export function unprefixEdit(text: string, array: ArraySpan, count: number): Edit {
  const next = array.items[count];
  const last = array.items[count - 1]!;
  if (!next)
    return {
      offset: array.open + 1,
      length:
        last.end - array.open - 1 + (text.slice(last.end, array.close).trim() === "," ? array.close - last.end : 0),
      content: "",
    };
  const between = text.slice(last.end, next.offset);
  // `…"npx",\n    "-y"` (one per line): drop up to the comma; `"npx", "-y"` (inline): up to the next item.
  const end = between.includes("\n") ? last.end + between.indexOf(",") + 1 : next.offset;
  return { offset: array.open + 1, length: end - array.open - 1, content: "" };
}

// ─── JSON and JSONC ───────────────────────────────────────────────────────────

function arraySpan(node: Node): ArraySpan {
  return {
    open: node.offset,
    close: node.offset + node.length - 1,
    items: (node.children ?? []).map((c) => ({ offset: c.offset, end: c.offset + c.length })),
  };
}

function strings(node: Node | undefined): string[] | undefined {
  if (!node || node.type !== "array") return undefined;
  const values = (node.children ?? []).map((c) => (c.type === "string" ? (c.value as string) : undefined));
  return values.every((v): v is string => v !== undefined) ? values : undefined;
}

function property(node: Node, key: string): Node | undefined {
  return findNodeAtLocation(node, [key]);
}

/** Where a family keeps its servers in a JSON document, and how one entry names its program. */
export interface JsonLayout {
  /** Paths of the objects whose members are entries (`mcpServers`, `projects.<p>.mcpServers`, …). */
  containers: (root: Node) => (string | number)[][];
  /** `opencode`: `command` is one array (the program, then its arguments). */
  commandArray?: boolean;
  /** Whether an entry (an object node) is a stdio entry this layout can read. */
  isStdio: (entry: Node) => boolean;
}

function entrySpots(text: string, root: Node, container: (string | number)[], layout: JsonLayout): EntrySpot[] {
  const servers = findNodeAtLocation(root, container);
  if (!servers || servers.type !== "object") return [];
  const spots: EntrySpot[] = [];
  for (const member of servers.children ?? []) {
    const [key, entry] = member.children ?? [];
    if (!key || !entry || entry.type !== "object" || !layout.isStdio(entry)) continue;
    const name = key.value as string;
    const commandNode = property(entry, "command");
    if (layout.commandArray) {
      const words = strings(commandNode);
      if (!commandNode || !words?.length) continue;
      const parsed = words[0] !== undefined && parseShimArgs(words.slice(1));
      const span = arraySpan(commandNode);
      spots.push({
        name,
        command: words[0]!,
        args: words.slice(1),
        key: JSON.stringify([...container, name]),
        pooled: parsed !== undefined && parsed !== false,
        wrap: (shim, from) => [prefixEdit(text, span, [quote(shim), ...shimItems(name, from, "").slice(0, -1)])],
        unwrap: () => [unprefixEdit(text, span, PREFIX_WORDS)],
      });
      continue;
    }
    // Zed's older form: `"command": { "path": …, "args": […] }`.
    const holder = commandNode?.type === "object" ? commandNode : entry;
    const programNode = commandNode?.type === "object" ? property(commandNode, "path") : commandNode;
    if (!programNode || programNode.type !== "string") continue;
    const argsNode = property(holder, "args");
    const args = argsNode ? strings(argsNode) : [];
    const program = programNode.value as string;
    const spot: EntrySpot = {
      name,
      key: JSON.stringify([...container, name]),
      argsAdded: argsNode === undefined,
      command: program,
      args: args ?? [],
      pooled: parseShimArgs(args ?? []) !== undefined,
      wrap: () => [],
      unwrap: () => [],
    };
    if (!args) spot.problem = `"args" is not a list of strings`;
    const programEnd = programNode.offset + programNode.length;
    spot.wrap = (shim, from) => {
      const items = shimItems(name, from, text.slice(programNode.offset, programEnd));
      const edits: Edit[] = [{ offset: programNode.offset, length: programNode.length, content: quote(shim) }];
      if (argsNode) edits.push(prefixEdit(text, arraySpan(argsNode), items));
      else {
        const propertyNode = programNode.parent!;
        const multiline = text.slice(holder.offset, propertyNode.offset).includes("\n");
        const sep = multiline ? `${eolOf(text)}${lineIndent(text, propertyNode.offset)}` : " ";
        edits.push({ offset: programEnd, length: 0, content: `,${sep}"args": [${items.join(", ")}]` });
      }
      return edits;
    };
    spot.unwrap = (argsAdded) => {
      if (!spot.pooled || !argsNode) return [];
      const span = arraySpan(argsNode);
      const item = span.items[PREFIX_WORDS - 1]!;
      const edits: Edit[] = [
        { offset: programNode.offset, length: programNode.length, content: text.slice(item.offset, item.end) },
      ];
      // `"args"` right after the program with nothing of the entry's own: pool added it; take it out.
      const argsProperty = argsNode.parent!;
      if (
        (argsAdded ?? true) &&
        span.items.length === PREFIX_WORDS &&
        /^,\s*$/.test(text.slice(programEnd, argsProperty.offset))
      )
        edits.push({ offset: programEnd, length: argsNode.offset + argsNode.length - programEnd, content: "" });
      else edits.push(unprefixEdit(text, span, PREFIX_WORDS));
      return edits;
    };
    spots.push(spot);
  }
  return spots;
}

/** The stdio entries of a JSON (or JSONC) file laid out as `layout` says. */
export function jsonSpots(text: string, layout: JsonLayout): EntrySpot[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return [];
  return layout.containers(root).flatMap((container) => entrySpots(text, root, container, layout));
}

// ─── TOML (Codex) ─────────────────────────────────────────────────────────────

/** The families `mcp hosts pool` rewrites and where each keeps its servers. */
export type PoolFamily = Exclude<ConfigFamily, "mcp-client">;
