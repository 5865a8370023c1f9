// A tool result for a person, as every host shows one: text as text, structured content once (unless
// the text says it already), images, audio and binary resources saved to files and named by path;
// as plain text, as Markdown, or as the text alone (`raw`).
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ToolContent, ToolResult } from "./types.js";

/** A resource's contents: its text, or its binary content as base64. */
export type ResourceContents = Extract<ToolContent, { type: "resource" }>["resource"];

/** Saves base64 data to a file; returns the file's path. */
export type SaveData = (mimeType: string | undefined, base64: string) => string;

/** How a result is shown: `text` (a terminal's), `markdown` (images linked) or `raw` (its text alone on stdout). */
export type DisplayFormat = "text" | "markdown" | "raw";

/** One piece of a result to write, with a newline after it unless it ends in one. */
export interface DisplayLine {
  /** `stderr` only in `raw`: what is not the result's text (the files it saved, links). */
  stream: "stdout" | "stderr";
  text: string;
}

/** Options of {@link displayResult} and {@link displayContent}. */
export interface DisplayOptions {
  /** Where binary parts go ({@link fileSaver}). */
  save: SaveData;
  /** Dims the words that are ours, not the server's ("structured content:", "image image/png"); default: as they are. */
  dim?: ((text: string) => string) | undefined;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "application/pdf": "pdf",
  "application/gzip": "gz",
  "application/zip": "zip",
  "application/json": "json",
};

/**
 * Saves each piece of base64 data to a new file in `dir` (made when first needed), named
 * `<stem>-<time>-<n>.<extension by MIME type, else bin>` with the stem made safe for a file name.
 */
export function fileSaver(dir: string, stem: string): SaveData {
  let n = 0;
  return (mimeType, base64) => {
    mkdirSync(dir, { recursive: true });
    n += 1;
    const extension = (mimeType && EXTENSIONS[mimeType]) ?? "bin";
    const safe = stem.replace(/[^a-zA-Z0-9._-]/g, "_").slice(0, 60);
    const file = resolve(join(dir, `${safe}-${Date.now().toString(36)}-${n}.${extension}`));
    writeFileSync(file, Buffer.from(base64, "base64"));
    return file;
  };
}

/** The value of an object's only field (`{ "content": … }`), else undefined. */
function onlyField(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 ? (value as Record<string, unknown>)[keys[0]!] : undefined;
}

/** Every string, number and boolean in a value, however deep. */
function scalars(value: unknown, into: (string | number | boolean)[] = []): (string | number | boolean)[] {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") into.push(value);
  else if (Array.isArray(value)) for (const item of value) scalars(item, into);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) scalars(item, into);
  return into;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether the text blocks already say what the structured content says (servers often send both:
 * the spec asks them to), judged by content: the text is the same JSON, or the JSON of its only
 * field (`{ "entities": [...] }` sent as the list); its only field is the text (`{ "content":
 * "<the file>" }`); or every value in it (each string, number and boolean) is in the text.
 */
export function saidByText(blocks: ToolContent[], structured: unknown): boolean {
  const text = blocks
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
  if (text.trim() === "") return false;
  const json = parsed(text);
  const only = onlyField(structured);
  if (
    json !== undefined &&
    (isDeepStrictEqual(json, structured) || (only !== undefined && isDeepStrictEqual(json, only)))
  )
    return true;
  if (typeof only === "string" && only.trim() === text.trim()) return true;
  // The text as JSON says each value as JSON does (escaped); otherwise as itself, a number or word whole.
  const said = json === undefined ? text : JSON.stringify(json);
  return scalars(structured).every((value) => {
    if (typeof value === "string") return value === "" || text.includes(value) || said.includes(JSON.stringify(value));
    return new RegExp(`(^|[^\\w.])${String(value).replace(/[.+]/g, "\\$&")}(?![\\w]|\\.\\d)`).test(said);
  });
}

/** Resource contents as plain text: the text, or `<type> saved to <path>`. */
export function displayContents(contents: ResourceContents, options: DisplayOptions): string {
  const dim = options.dim ?? String;
  if ("text" in contents) return contents.text;
  return `${dim(contents.mimeType ?? "binary")} saved to ${options.save(contents.mimeType, contents.blob)}`;
}

/** Content blocks as plain text, one piece each: text as text, the rest saved and named, or described. */
export function displayContent(blocks: ToolContent[], options: DisplayOptions): string[] {
  const dim = options.dim ?? String;
  return blocks.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `${dim(`${block.type} ${block.mimeType}`)} saved to ${options.save(block.mimeType, block.data)}`;
      case "resource_link":
        return `${dim("resource")} ${block.uri}${block.name ? ` (${block.name})` : ""}`;
      case "resource":
        return displayContents(block.resource, options);
      default:
        return JSON.stringify(block, null, 2);
    }
  });
}

/** A link's destination in Markdown: in `<…>` when it has a space or a parenthesis. */
function destination(target: string): string {
  return /[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, encodeURIComponent)}>` : target;
}

/** Text in a fenced block that its own backticks cannot close. */
function fenced(text: string, language: string): string {
  const fence = "`".repeat(Math.max(3, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
  return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}`;
}

/** One content block as Markdown: images and audio saved and linked, links as links, resource text fenced. */
function markdownBlock(block: ToolContent, save: SaveData): string {
  if (block.type === "text") return block.text;
  if (block.type === "image") return `![${block.mimeType}](${destination(save(block.mimeType, block.data))})`;
  if (block.type === "audio") return `[${block.mimeType}](${destination(save(block.mimeType, block.data))})`;
  if (block.type === "resource_link") return `[${block.name || block.uri}](${destination(block.uri)})`;
  if (block.type === "resource" && "text" in block.resource)
    return block.resource.mimeType === "text/markdown"
      ? block.resource.text
      : fenced(block.resource.text, EXTENSIONS[block.resource.mimeType ?? ""] ?? "");
  if (block.type === "resource" && "blob" in block.resource)
    return `[${block.resource.mimeType ?? "binary"}](${destination(save(block.resource.mimeType, block.resource.blob))})`;
  return fenced(JSON.stringify(block, null, 2), "json");
}

/** A result's text as the server sent it, on stdout; what else it holds saved to files or named on stderr. */
function rawLines(blocks: ToolContent[], save: SaveData): DisplayLine[] {
  const lines: DisplayLine[] = [];
  for (const block of blocks) {
    if (block.type === "text") lines.push({ stream: "stdout", text: block.text });
    else if (block.type === "image" || block.type === "audio")
      lines.push({
        stream: "stderr",
        text: `${block.type} ${block.mimeType} saved to ${save(block.mimeType, block.data)}`,
      });
    else if (block.type === "resource" && "blob" in block.resource)
      lines.push({
        stream: "stderr",
        text: `${block.resource.mimeType ?? "binary"} saved to ${save(block.resource.mimeType, block.resource.blob)}`,
      });
    else if (block.type === "resource" && "text" in block.resource)
      lines.push({ stream: "stdout", text: block.resource.text });
    else if (block.type === "resource_link") lines.push({ stream: "stderr", text: `resource ${block.uri}` });
  }
  return lines;
}

/**
 * A tool result for a person. `text`: each block as {@link displayContent} says, then the
 * structured content as JSON unless {@link saidByText}. `markdown`: text as the server wrote it;
 * images and audio saved and linked (`![image/png](/path/x.png)`); resource links as links; an
 * embedded resource's text fenced (unless it is Markdown); structured content fenced as JSON unless
 * the text says it; blocks apart by a blank line, as one piece. `raw`: the text blocks (and
 * embedded resources' text) whole on stdout and nothing added there; files saved and links named on
 * stderr, so a pipe gets only the text.
 */
export function displayResult(result: ToolResult, format: DisplayFormat, options: DisplayOptions): DisplayLine[] {
  const blocks = result.content ?? [];
  const structured = result.structuredContent;
  const unsaid = structured !== undefined && !saidByText(blocks, structured);
  const stdout = (text: string): DisplayLine => ({ stream: "stdout", text });
  if (format === "raw") return rawLines(blocks, options.save);
  if (format === "text") {
    const lines = displayContent(blocks, options).map(stdout);
    const dim = options.dim ?? String;
    if (unsaid) lines.push(stdout(dim("structured content:")), stdout(JSON.stringify(structured, null, 2)));
    return lines;
  }
  const parts = blocks.map((block) => markdownBlock(block, options.save));
  if (unsaid) parts.push(fenced(JSON.stringify(structured, null, 2), "json"));
  return parts.length > 0 ? [stdout(parts.join("\n\n"))] : [];
}
