import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents } from "@mcp/client";
import { color, out } from "./ui.js";

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
  else out(`${color.dim(contents.mimeType ?? "binary")} saved to ${save(dir, stem, contents.mimeType, contents.blob, counter)}`);
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
        out(`${color.dim(`${block.type} ${block.mimeType}`)} saved to ${save(dir, stem, block.mimeType, block.data, counter)}`);
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

/** Whether the text blocks say what the structured content says (servers often send both: the spec asks them to). */
function sameAsText(blocks: ContentBlock[], structured: unknown): boolean {
  const texts = blocks.filter((block) => block.type === "text");
  if (texts.length === 0) return false;
  try {
    return isDeepStrictEqual(JSON.parse(texts.map((block) => block.text).join("")), structured);
  } catch {
    return false;
  }
}

/** A tool result for a person: its content, then its structured content as JSON unless the text already says it. */
export function renderToolResult(result: CallToolResult, dir: string, stem: string): void {
  renderBlocks(result.content ?? [], dir, stem);
  if (result.structuredContent !== undefined && !sameAsText(result.content ?? [], result.structuredContent)) {
    out(color.dim("structured content:"));
    out(JSON.stringify(result.structuredContent, null, 2));
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
