// MCP tools as a tool set for the Vercel AI SDK (`generateText` / `streamText` `tools`; AI SDK 5
// and later). No runtime dependency on `ai` (its types only: an optional peer dependency): a tool
// is a plain object, and its input schema is the SDK's schema shape (the `vercel.ai.schema`
// marker, the JSON Schema, a validator).
import type { Tool } from "ai";
import { resultParts, resultText } from "./content.js";
import { runTool } from "./run.js";
import { providerSchema } from "./schema.js";
import type { AdapterOptions, AdapterTool, ToolResult } from "./types.js";

/** What the model is given back for a result (the SDK's `ToolResultOutput`). */
export type AiSdkToolOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | { type: "content"; value: ({ type: "text"; text: string } | { type: "media"; data: string; mediaType: string })[] };

/** One tool of the set: the SDK's `Tool`, taking any input and giving the MCP result. */
export type AiSdkTool = Tool<unknown, ToolResult> & { execute: NonNullable<Tool<unknown, ToolResult>["execute"]> };

const SCHEMA = Symbol.for("vercel.ai.schema");

/**
 * MCP tools as an AI SDK tool set, keyed by the manager's names (`mcp__server__tool`). `execute`
 * checks the model's input against the server's schema, calls the tool with the SDK's abort
 * signal and the result budget, and returns the MCP result; `toModelOutput` gives the model its
 * text and images (`isError` as an error), other content described in text.
 */
export function toAiSdkTools<T extends AdapterTool>(
  tools: readonly T[],
  options: AdapterOptions = {},
): Record<string, AiSdkTool> {
  const strict = options.strict ?? false;
  const set: Record<string, AiSdkTool> = {};
  for (const tool of tools) {
    // The SDK's check lets everything through: execute checks the input against the server's
    // own schema and tells the model which field is wrong.
    const inputSchema = {
      [SCHEMA]: true,
      _type: undefined,
      jsonSchema: providerSchema(tool.inputSchema, strict),
      validate: (value: unknown) => ({ success: true, value }),
    };
    set[tool.name] = {
      ...(tool.description ? { description: tool.description } : {}),
      ...(tool.title ? { title: tool.title } : {}),
      inputSchema: inputSchema as unknown as AiSdkTool["inputSchema"],
      ...(strict ? { strict: true } : {}),
      execute: (input, { abortSignal }) => runTool(tool, input, { ...options, signal: abortSignal }),
      toModelOutput: ((arg: unknown) => toModelOutput(outputOf(arg))) as unknown as AiSdkTool["toModelOutput"],
    } as AiSdkTool;
  }
  return set;
}

/** AI SDK 6 passes `{ toolCallId, input, output }`; AI SDK 5 passes the output itself. */
function outputOf(arg: unknown): ToolResult {
  const value = arg as { output?: unknown; toolCallId?: unknown };
  return (
    typeof value === "object" && value !== null && "toolCallId" in value && "output" in value ? value.output : arg
  ) as ToolResult;
}

/** A result as the model's output: errors as error text, text alone as text, with images as content. */
export function toModelOutput(result: ToolResult): AiSdkToolOutput {
  if (result.isError) return { type: "error-text", value: resultText(result) };
  const parts = resultParts(result);
  if (parts.every((p) => p.kind === "text")) return { type: "text", value: resultText(result) };
  return {
    type: "content",
    value: parts.map((p) =>
      p.kind === "text" ? { type: "text", text: p.text } : { type: "media", data: p.data, mediaType: p.mimeType },
    ),
  };
}
