// MCP tools for the Anthropic Messages API: tool definitions for `tools`, and `run` to answer a
// `tool_use` block with a `tool_result` block. No runtime dependency on `@anthropic-ai/sdk`: the
// shapes below are the API's, and the package's types accept them.
import { resultParts } from "./content.js";
import { runTool, toolError, toolNamed } from "./run.js";
import { providerSchema } from "./schema.js";
import type { AdapterOptions, AdapterTool } from "./types.js";

/** A Messages API tool definition (`Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [key: string]: unknown };
  /** Loaded only when Anthropic's server-side tool search finds it. */
  defer_loading?: boolean;
  strict?: boolean;
}

/** The `tool_use` block of a response (`Anthropic.ToolUseBlock`). */
export interface AnthropicToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** The `tool_result` block to send back (`Anthropic.ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: (
    | { type: "text"; text: string }
    | { type: "image"; source: { type: "base64"; media_type: AnthropicImageType; data: string } }
  )[];
  is_error?: boolean;
}

/** Options of {@link toAnthropicTools}. */
export interface AnthropicToolsOptions extends AdapterOptions {
  /**
   * Mark tools `defer_loading` for Anthropic's server-side tool search (add its search tool to
   * the request too): `true` for all, or a function choosing which.
   */
  deferLoading?: boolean | ((tool: AdapterTool) => boolean) | undefined;
}

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * MCP tools as Messages API `tools`, and `run(toolUse, { signal })` giving the `tool_result` for
 * a `tool_use` block: arguments checked against the server's schema first, errors (bad
 * arguments, an unknown tool, a failed call) as `is_error` results the model reads.
 */
export function toAnthropicTools<T extends AdapterTool>(
  tools: readonly T[],
  options: AnthropicToolsOptions = {},
): {
  tools: AnthropicTool[];
  run(toolUse: AnthropicToolUse, runOptions?: { signal?: AbortSignal | undefined }): Promise<AnthropicToolResult>;
} {
  const strict = options.strict ?? false;
  const defer = options.deferLoading;
  return {
    tools: tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      input_schema: providerSchema(tool.inputSchema, strict) as AnthropicTool["input_schema"],
      ...(defer === true || (typeof defer === "function" && defer(tool)) ? { defer_loading: true } : {}),
      ...(strict ? { strict: true } : {}),
    })),
    async run(toolUse, runOptions = {}) {
      const tool = toolNamed(tools, toolUse.name);
      const result = tool
        ? await runTool(tool, toolUse.input, { ...options, signal: runOptions.signal })
        : toolError(`There is no tool named "${toolUse.name}".`);
      const content: AnthropicToolResult["content"] = resultParts(result).map((part) =>
        part.kind === "text"
          ? { type: "text", text: part.text }
          : IMAGE_TYPES.has(part.mimeType)
            ? {
                type: "image",
                source: { type: "base64", media_type: part.mimeType as AnthropicImageType, data: part.data },
              }
            : { type: "text", text: `[image ${part.mimeType}: a type the Messages API does not take; not sent]` },
      );
      return { type: "tool_result", tool_use_id: toolUse.id, content, ...(result.isError ? { is_error: true } : {}) };
    },
  };
}
