import type { MCPTool } from "./types.js";

// Tool search for hosts with more tools than a model should see at once: BM25 over each tool's
// name, title, description and parameter names and descriptions (fields weighted: a word in the
// name counts most). The index is built once per tool list, in one pass; a query looks up only
// its own words, so it stays well under a millisecond for thousands of tools.

const K1 = 1.2;
const B = 0.75;
const WEIGHTS = { name: 3, title: 2, description: 1, parameter: 1.5, parameterDescription: 0.75 } as const;
const STOP = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "to",
  "in",
  "for",
  "on",
  "with",
  "or",
  "is",
  "it",
  "by",
  "from",
  "this",
  "that",
  "be",
  "as",
  "at",
]);

/** A word's common stem: plurals and -ing/-ed endings off, so "files" finds "file", "queries" "query" and "listing" "list". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("es") && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The words of a text: camelCase, snake_case, kebab-case and dotted names split, lower case, stemmed. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP.has(w))
    .map(stem);
}

function fieldsOf(tool: MCPTool): [text: string, weight: number][] {
  const fields: [string, number][] = [
    [`${tool.toolName} ${tool.serverName}`, WEIGHTS.name],
    [tool.title ?? "", WEIGHTS.title],
    [tool.description ?? "", WEIGHTS.description],
  ];
  const properties =
    (tool.inputSchema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    fields.push([name, WEIGHTS.parameter]);
    if (typeof property?.description === "string") fields.push([property.description, WEIGHTS.parameterDescription]);
  }
  return fields;
}

export class ToolSearchIndex {
  readonly #tools: readonly MCPTool[];
  /** word → (tool index, weighted frequency) */
  readonly #postings = new Map<string, { doc: number; tf: number }[]>();
  readonly #lengths: number[] = [];
  readonly #average: number;

  constructor(tools: readonly MCPTool[]) {
    this.#tools = tools;
    tools.forEach((tool, doc) => {
      const counts = new Map<string, number>();
      let length = 0;
      for (const [text, weight] of fieldsOf(tool)) {
        for (const word of words(text)) {
          counts.set(word, (counts.get(word) ?? 0) + weight);
          length += weight;
        }
      }
      this.#lengths.push(length);
      for (const [word, tf] of counts) {
        let list = this.#postings.get(word);
        if (!list) this.#postings.set(word, (list = []));
        list.push({ doc, tf });
      }
    });
    this.#average = this.#lengths.reduce((a, b) => a + b, 0) / Math.max(1, tools.length);
  }

  /** The tools that match `query` best, best first; a tool named exactly as asked comes first. */
  search(query: string, limit = 10): MCPTool[] {
    const scores = new Map<number, number>();
    const n = this.#tools.length;
    for (const word of new Set(words(query))) {
      const list = this.#postings.get(word);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf + K1 * (1 - B + (B * this.#lengths[doc]!) / this.#average);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    const exact = query.trim().toLowerCase();
    for (const [doc, tool] of this.#tools.entries()) {
      if (tool.name.toLowerCase() === exact || tool.toolName.toLowerCase() === exact)
        scores.set(doc, (scores.get(doc) ?? 0) + 1000);
    }
    return [...scores.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, Math.max(0, limit))
      .map(([doc]) => this.#tools[doc]!);
  }
}
