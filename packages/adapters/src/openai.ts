// MCP tools for the OpenAI APIs: function tools for the Responses API (default) or Chat
// Completions, and `run` to answer a model's function call. No runtime dependency on `openai`:
// the shapes below are the APIs', and the package's types accept them.
import { resultParts, resultText } from "./content.js";
import { runTool, toolError, toolNamed } from "./run.js";
import { providerSchema } from "./schema.js";
import type { AdapterOptions, AdapterTool, ToolResult } from "./types.js";

/** A Responses API function tool (`OpenAI.Responses.FunctionTool`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string | null;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** A Chat Completions function tool (`ChatCompletionFunctionTool`). */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict: boolean };
}

/** A `function_call` output item of a response. */
export interface OpenAIFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  arguments: string;
}

/** The `function_call_output` input item that answers it. */
export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output:
    string | ({ type: "input_text"; text: string } | { type: "input_image"; image_url: string; detail: "auto" })[];
}

/** A Chat Completions tool call (`ChatCompletionMessageFunctionToolCall`). */
export interface OpenAIChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The `tool` message that answers it. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** Options of {@link toOpenAITools}. */
export interface OpenAIToolsOptions extends AdapterOptions {
  /** `responses` (default) or `chat` (Chat Completions). */
  api?: "responses" | "chat" | undefined;
}

type RunOptions = { signal?: AbortSignal | undefined };

/**
 * MCP tools as OpenAI function tools, and `run(call, { signal })` giving the answer to a model's
 * function call: arguments checked against the server's schema first, errors as outputs the model
 * reads (the APIs have no error flag: the text says so).
 */
export function toOpenAITools<T extends AdapterTool>(
  tools: readonly T[],
  options?: OpenAIToolsOptions & { api?: "responses" },
): {
  tools: OpenAIResponsesTool[];
  run(call: OpenAIFunctionCall, runOptions?: RunOptions): Promise<OpenAIFunctionCallOutput>;
};
export function toOpenAITools<T extends AdapterTool>(
  tools: readonly T[],
  options: OpenAIToolsOptions & { api: "chat" },
): { tools: OpenAIChatTool[]; run(call: OpenAIChatToolCall, runOptions?: RunOptions): Promise<OpenAIChatToolMessage> };
export function toOpenAITools<T extends AdapterTool>(
  tools: readonly T[],
  options: OpenAIToolsOptions = {},
): {
  tools: (OpenAIResponsesTool | OpenAIChatTool)[];
  run(call: never, runOptions?: RunOptions): Promise<OpenAIFunctionCallOutput | OpenAIChatToolMessage>;
} {
  const strict = options.strict ?? false;
  const run = async (name: string, input: string, runOptions: RunOptions): Promise<ToolResult> => {
    const tool = toolNamed(tools, name);
    return tool
      ? runTool(tool, input, { ...options, signal: runOptions.signal })
      : toolError(`There is no tool named "${name}".`);
  };
  if (options.api === "chat") {
    return {
      tools: tools.map((tool) => ({
        type: "function",
        function: {
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          parameters: providerSchema(tool.inputSchema, strict),
          strict,
        },
      })),
      run: async (call: OpenAIChatToolCall, runOptions: RunOptions = {}) => {
        const result = await run(call.function.name, call.function.arguments, runOptions);
        return {
          role: "tool",
          tool_call_id: call.id,
          content: withErrorNote(result, resultText(result)),
        } satisfies OpenAIChatToolMessage;
      },
    };
  }
  return {
    tools: tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description ?? null,
      parameters: providerSchema(tool.inputSchema, strict),
      strict,
    })),
    run: async (call: OpenAIFunctionCall, runOptions: RunOptions = {}) => {
      const result = await run(call.name, call.arguments, runOptions);
      const parts = resultParts(result);
      // Text alone goes as a string; with images, as input content.
      const output: OpenAIFunctionCallOutput["output"] = parts.every((p) => p.kind === "text")
        ? withErrorNote(result, resultText(result))
        : parts.map((p) =>
            p.kind === "text"
              ? { type: "input_text" as const, text: p.text }
              : {
                  type: "input_image" as const,
                  image_url: `data:${p.mimeType};base64,${p.data}`,
                  detail: "auto" as const,
                },
          );
      return { type: "function_call_output", call_id: call.call_id, output } satisfies OpenAIFunctionCallOutput;
    },
  };
}

/** The APIs have no error flag on a tool's output: the text says it. */
function withErrorNote(result: ToolResult, text: string): string {
  return result.isError ? `Error: ${text}` : text;
}
