// A result for a person: text as text, structured content once, images, audio and binary resources saved to files.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents } from "@mcp/client";
import { color, out, statusLine } from "./ui.js";

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

/** Saves base64 data to a new file in `dir`; returns its path. */
function save(dir: string, stem: string, mimeType: string | undefined, base64: string, counter: { n: number }): string {
  mkdirSync(dir, { recursive: true });
  counter.n += 1;
  const extension = (mimeType && EXTENSIONS[mimeType]) ?? "bin";
  const safe = stem.replace(/[^a-zA-Z0-9._-]/g, "_").slice(0, 60);
  const file = resolve(join(dir, `${safe}-${Date.now().toString(36)}-${counter.n}.${extension}`));
  writeFileSync(file, Buffer.from(base64, "base64"));
  return file;
}

function renderContents(contents: ResourceContents, dir: string, stem: string, counter: { n: number }): void {
  if ("text" in contents) out(contents.text);
  else
    out(
      `${color.dim(contents.mimeType ?? "binary")} saved to ${save(dir, stem, contents.mimeType, contents.blob, counter)}`,
    );
}

/** Text as text; images, audio and binary resources saved to files, their paths printed. */
export function renderBlocks(blocks: ContentBlock[], dir: string, stem: string): void {
  const counter = { n: 0 };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        out(block.text);
        break;
      case "image":
      case "audio":
        out(
          `${color.dim(`${block.type} ${block.mimeType}`)} saved to ${save(dir, stem, block.mimeType, block.data, counter)}`,
        );
        break;
      case "resource_link":
        out(`${color.dim("resource")} ${block.uri}${block.name ? ` (${block.name})` : ""}`);
        break;
      case "resource":
        renderContents(block.resource, dir, stem, counter);
        break;
      default:
        out(JSON.stringify(block, null, 2));
    }
  }
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
export function saidByText(blocks: ContentBlock[], structured: unknown): boolean {
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

/** A tool result for a person: its content, then its structured content as JSON unless the text already says it. */
export function renderToolResult(result: CallToolResult, dir: string, stem: string): void {
  renderBlocks(result.content ?? [], dir, stem);
  if (result.structuredContent !== undefined && !saidByText(result.content ?? [], result.structuredContent)) {
    out(color.dim("structured content:"));
    out(JSON.stringify(result.structuredContent, null, 2));
  }
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

/**
 * A tool result as Markdown (`--output markdown`): text as the server wrote it; images and audio
 * saved to files and linked (`![image/png](/path/x.png)`); resource links as links; an embedded
 * resource's text fenced (unless it is Markdown); structured content fenced as JSON unless the text
 * already says it. Blocks apart by a blank line.
 */
export function renderToolResultMarkdown(result: CallToolResult, dir: string, stem: string): void {
  const counter = { n: 0 };
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "image")
      parts.push(`![${block.mimeType}](${destination(save(dir, stem, block.mimeType, block.data, counter))})`);
    else if (block.type === "audio")
      parts.push(`[${block.mimeType}](${destination(save(dir, stem, block.mimeType, block.data, counter))})`);
    else if (block.type === "resource_link") parts.push(`[${block.name || block.uri}](${destination(block.uri)})`);
    else if (block.type === "resource" && "text" in block.resource)
      parts.push(
        block.resource.mimeType === "text/markdown"
          ? block.resource.text
          : fenced(block.resource.text, EXTENSIONS[block.resource.mimeType ?? ""] ?? ""),
      );
    else if (block.type === "resource" && "blob" in block.resource)
      parts.push(
        `[${block.resource.mimeType ?? "binary"}](${destination(save(dir, stem, block.resource.mimeType, block.resource.blob, counter))})`,
      );
    else parts.push(fenced(JSON.stringify(block, null, 2), "json"));
  }
  if (result.structuredContent !== undefined && !saidByText(result.content ?? [], result.structuredContent))
    parts.push(fenced(JSON.stringify(result.structuredContent, null, 2), "json"));
  if (parts.length > 0) out(parts.join("\n\n"));
}

/**
 * A tool result's text as the server sent it (`--output raw`): its text blocks, each whole, and
 * nothing added on stdout; anything else (images, audio, resources) is saved to files as always and
 * told on stderr, so a pipe gets only the text.
 */
export function renderToolResultRaw(result: CallToolResult, dir: string, stem: string): void {
  statusLine(undefined);
  const counter = { n: 0 };
  for (const block of result.content ?? []) {
    if (block.type === "text") process.stdout.write(block.text.endsWith("\n") ? block.text : `${block.text}\n`);
    else if (block.type === "image" || block.type === "audio")
      process.stderr.write(
        `${block.type} ${block.mimeType} saved to ${save(dir, stem, block.mimeType, block.data, counter)}\n`,
      );
    else if (block.type === "resource" && "blob" in block.resource)
      process.stderr.write(
        `${block.resource.mimeType ?? "binary"} saved to ${save(dir, stem, block.resource.mimeType, block.resource.blob, counter)}\n`,
      );
    else if (block.type === "resource" && "text" in block.resource)
      process.stdout.write(block.resource.text.endsWith("\n") ? block.resource.text : `${block.resource.text}\n`);
    else if (block.type === "resource_link") process.stderr.write(`resource ${block.uri}\n`);
  }
}

export function renderPrompt(result: GetPromptResult, dir: string, stem: string): void {
  if (result.description) out(color.dim(result.description));
  for (const message of result.messages) {
    out(color.bold(`${message.role}:`));
    renderBlocks([message.content], dir, stem);
  }
}

export function renderResource(result: ReadResourceResult, dir: string, stem: string): void {
  const counter = { n: 0 };
  for (const contents of result.contents) renderContents(contents, dir, stem, counter);
}
