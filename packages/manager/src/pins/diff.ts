// What changed in a tool's definition: a word diff of its description and the schema paths added, removed or changed.
import { canonicalJson, type PinnedDefinition } from "./hash.js";

/** One run of a word diff: words both texts share, or words only the old (`removed`) or new (`added`) has. */
export interface WordDiffPart {
  op: "same" | "added" | "removed";
  text: string;
}

/** One path of a tool's structured fields that differs: `inputSchema.properties.path.description`. */
export interface SchemaChange {
  path: string;
  change: "added" | "removed" | "changed";
}

/** How a tool's new definition differs from its approved one. */
export interface ToolDiff {
  /** The pinned fields that differ (`description`, `inputSchema`, …); every present field for a new tool. */
  fields: string[];
  /** A word diff of the description, when it changed. */
  description?: WordDiffPart[] | undefined;
  /** Paths added, removed or changed in `title`, `inputSchema`, `outputSchema` and `annotations`. */
  schema: SchemaChange[];
}

const FIELDS = ["title", "description", "inputSchema", "outputSchema", "annotations"] as const;
/** Above this many word pairs the word diff gives up and shows the old text removed, the new added. */
const MAX_CELLS = 4_000_000;

/** How `next` differs from `old` (a new tool, with no `old`, differs in every field it has). */
export function diffDefinitions(old: PinnedDefinition | undefined, next: PinnedDefinition): ToolDiff {
  const before = (old ?? { name: next.name }) as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  const fields = FIELDS.filter((field) => canonicalJson(before[field]) !== canonicalJson(after[field]));
  const schema: SchemaChange[] = [];
  for (const field of fields) if (field !== "description") diffPaths(before[field], after[field], field, schema);
  const diff: ToolDiff = { fields: [...fields], schema };
  if (fields.includes("description")) diff.description = wordDiff(old?.description ?? "", next.description ?? "");
  return diff;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function diffPaths(before: unknown, after: unknown, path: string, out: SchemaChange[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) return void out.push({ path, change: "added" });
  if (after === undefined) return void out.push({ path, change: "removed" });
  if (isRecord(before) && isRecord(after)) {
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort())
      diffPaths(before[key], after[key], `${path}.${key}`, out);
    return;
  }
  if (canonicalJson(before) !== canonicalJson(after)) out.push({ path, change: "changed" });
}

/** A word diff (longest common subsequence over whitespace-separated words). */
export function wordDiff(before: string, after: string): WordDiffPart[] {
  const a = before.split(/\s+/).filter(Boolean);
  const b = after.split(/\s+/).filter(Boolean);
  if (a.length * b.length > MAX_CELLS)
    return merge([
      ...a.map((text) => ({ op: "removed" as const, text })),
      ...b.map((text) => ({ op: "added" as const, text })),
    ]);
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const parts: WordDiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ op: "same", text: a[i++]! });
      j++;
    } else if (j < b.length && (i === a.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
      parts.push({ op: "added", text: b[j++]! });
    } else {
      parts.push({ op: "removed", text: a[i++]! });
    }
  }
  return merge(parts);
}

/** Joins neighbouring words of the same kind into one part. */
function merge(parts: WordDiffPart[]): WordDiffPart[] {
  const merged: WordDiffPart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (last?.op === part.op) last.text += ` ${part.text}`;
    else merged.push({ ...part });
  }
  return merged;
}

/**
 * A diff as text for a terminal: the description with removed words as `[-old-]` and added ones
 * as `{+new+}`, then one line per schema path (`+` added, `-` removed, `~` changed).
 */
export function formatToolDiff(diff: ToolDiff): string {
  const lines: string[] = [];
  if (diff.description) {
    const text = diff.description
      .map((part) => (part.op === "same" ? part.text : part.op === "added" ? `{+${part.text}+}` : `[-${part.text}-]`))
      .join(" ");
    lines.push(`description: ${text}`);
  }
  for (const change of diff.schema)
    lines.push(`${change.change === "added" ? "+" : change.change === "removed" ? "-" : "~"} ${change.path}`);
  return lines.join("\n");
}
