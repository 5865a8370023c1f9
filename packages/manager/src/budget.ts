import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@mcp/client";
import type { MCPTool, ResultFileOptions, ToolCallOptions } from "./types.js";

// Result budgets: a tool result too big for a model's context is cut, and what was cut is kept
// in a file the last line names (mode 600, in a folder of this manager's that goes away with it
// unless kept). Images and audio over a size are saved to files and referenced the same way.

type Block = CallToolResult["content"][number];

export class ResultBudget {
  readonly #defaultMax: number | undefined;
  readonly #options: ResultFileOptions;
  #folder: Promise<string> | undefined;
  #files = 0;

  constructor(maxResultChars: number | undefined, options: ResultFileOptions = {}) {
    this.#defaultMax = maxResultChars;
    this.#options = options;
  }

  /** The tool, its `call` applying the budget (the call's own, else the manager's). */
  wrap(tool: MCPTool): MCPTool {
    const call = tool.call.bind(tool);
    const budgeted = async (
      args: Record<string, unknown> | undefined,
      options: ToolCallOptions,
    ): Promise<CallToolResult> => {
      const { maxResultChars = this.#defaultMax, resultDir, ...rest } = options;
      const result = await call(args, rest);
      return maxResultChars === undefined || !Number.isFinite(maxResultChars)
        ? result
        : this.apply(result, maxResultChars, tool.name, resultDir);
    };
    // No budget (none for the manager, none for the call): the call as it is, with no copy of its
    // options and no promise of our own.
    tool.call = (args, options = {}) =>
      this.#defaultMax === undefined && options.maxResultChars === undefined && options.resultDir === undefined
        ? call(args, options)
        : budgeted(args, options);
    return tool;
  }

  /** The result within `max` characters of text, what was cut saved and named. */
  async apply(result: CallToolResult, max: number, label: string, dir?: string): Promise<CallToolResult> {
    const blocks = result.content ?? [];
    const total = blocks.reduce((sum, block) => sum + (textOf(block)?.length ?? 0), 0);
    const mediaLimit = this.#options.maxMediaBytes ?? 1024 * 1024;
    const big = (block: Block): boolean =>
      (block.type === "image" || block.type === "audio") &&
      typeof block.data === "string" &&
      decodedBytes(block.data) > mediaLimit;
    const structured = result.structuredContent === undefined ? "" : JSON.stringify(result.structuredContent);
    if (total <= max && !blocks.some(big) && structured.length <= max) return result;
    const content: Block[] = [];
    let left = Math.max(0, Math.floor(max));
    for (const block of blocks) {
      if (big(block)) {
        const { data, mimeType } = block as { data: string; mimeType: string };
        const path = await this.#save(dir, `${label}.${extensionOf(mimeType)}`, base64Bytes(data));
        content.push({
          type: "text",
          text: `[${block.type} ${mimeType}, ${formatBytes(decodedBytes(data))}: saved to ${path}]`,
        });
        continue;
      }
      const text = textOf(block);
      if (text === undefined || text.length <= left) {
        left -= text?.length ?? 0;
        content.push(block);
      } else {
        if (left > 0)
          content.push(
            block.type === "text"
              ? { ...block, text: text.slice(0, left) }
              : ({
                  ...block,
                  resource: { ...(block as { resource: object }).resource, text: text.slice(0, left) },
                } as Block),
          );
        left = 0;
      }
    }
    const cut = total > max || structured.length > max;
    const out: CallToolResult = { ...result, content };
    if (cut) {
      const whole =
        blocks
          .map(textOf)
          .filter((t): t is string => t !== undefined)
          .join("\n") + (structured.length > max ? `\n${structured}` : "");
      const path = await this.#save(dir, `${label}.txt`, new TextEncoder().encode(whole));
      if (structured.length > max) delete out.structuredContent;
      content.push({
        type: "text",
        text: `[Result cut to ${Math.min(max, total)} of ${total} characters${structured.length > max ? " (structuredContent left out)" : ""}. The whole result is in ${path}]`,
      });
    }
    return out;
  }

  /** Removes the folder of saved results, unless they are to be kept. */
  async close(): Promise<void> {
    const folder = this.#folder;
    this.#folder = undefined;
    if (!folder || this.#options.keep) return;
    await rm(await folder.catch(() => ""), { recursive: true, force: true }).catch(() => undefined);
  }

  async #save(dir: string | undefined, name: string, bytes: Uint8Array): Promise<string> {
    const folder = dir ?? (await (this.#folder ??= this.#makeFolder()));
    const path = join(folder, `${String(++this.#files).padStart(3, "0")}-${name.replace(/[^\w.-]+/g, "_")}`);
    await writeFile(path, bytes, { mode: 0o600 });
    return path;
  }

  async #makeFolder(): Promise<string> {
    const base = this.#options.dir ?? tmpdir();
    await mkdir(base, { recursive: true });
    const folder = await mkdtemp(join(base, "mcp-results-"));
    await chmod(folder, 0o700);
    return folder;
  }
}

function textOf(block: Block): string | undefined {
  if (block.type === "text") return block.text;
  if (block.type === "resource" && typeof (block.resource as { text?: unknown }).text === "string")
    return (block.resource as { text: string }).text;
  return undefined;
}

function decodedBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
}

function base64Bytes(base64: string): Uint8Array {
  return Uint8Array.from(Buffer.from(base64, "base64"));
}

function extensionOf(mimeType: string): string {
  return /^[a-z]+\/([a-z0-9.+-]+)$/i.exec(mimeType)?.[1]?.replace(/^x-/, "").replace(/\+.*$/, "") ?? "bin";
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
