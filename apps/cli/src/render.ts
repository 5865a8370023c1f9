// A result for a person, as @mcp/adapters/display shows it, on this terminal: text as text, structured content once,
// images, audio and binary resources saved to files.
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@mcp/client";
import { displayContent, displayContents, displayResult, fileSaver, type DisplayFormat } from "@mcp/adapters/display";
import { color, out, statusLine } from "./ui.js";

/** A tool result as `format` says, its files saved in `dir` named after `stem` (the tool). */
export function renderToolResult(result: CallToolResult, format: DisplayFormat, dir: string, stem: string): void {
  if (format === "raw") statusLine(undefined);
  for (const line of displayResult(result, format, { save: fileSaver(dir, stem), dim: color.dim }))
    if (line.stream === "stdout") out(line.text);
    else process.stderr.write(`${line.text}\n`);
}

export function renderPrompt(result: GetPromptResult, dir: string, stem: string): void {
  if (result.description) out(color.dim(result.description));
  for (const message of result.messages) {
    out(color.bold(`${message.role}:`));
    for (const text of displayContent([message.content], { save: fileSaver(dir, stem), dim: color.dim })) out(text);
  }
}

export function renderResource(result: ReadResourceResult, dir: string, stem: string): void {
  const options = { save: fileSaver(dir, stem), dim: color.dim };
  for (const contents of result.contents) out(displayContents(contents, options));
}
