// A model's tool call: its arguments parsed and checked, the call made with the result budget, and any failure returned as a tool error the model can read.
import { fromStrictArguments } from "./schema.js";
import { argumentProblem } from "./validate.js";
import { DEFAULT_MAX_RESULT_CHARS, type AdapterOptions, type AdapterTool, type ToolResult } from "./types.js";

/** A tool error for the model: the text says what went wrong; the loop goes on. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Runs a model's call of `tool`: its arguments parsed (a JSON string is what some APIs send),
 * null-for-absent undone under a strict schema, checked against the server's schema, then the
 * call with the result budget. Bad arguments and failed calls come back as tool errors the model
 * can read; only an abort rejects.
 */
export async function runTool(
  tool: AdapterTool,
  input: unknown,
  options: AdapterOptions & { signal?: AbortSignal | undefined },
): Promise<ToolResult> {
  let args: unknown = input ?? {};
  if (typeof args === "string") {
    try {
      args = args.trim() === "" ? {} : JSON.parse(args);
    } catch (error) {
      return toolError(`The arguments for ${tool.name} are not JSON: ${(error as Error).message}`);
    }
  }
  if (options.strict) args = fromStrictArguments(tool.inputSchema, args);
  const problem = argumentProblem(tool.inputSchema, args);
  if (problem !== undefined) return toolError(`Invalid arguments for ${tool.name}: ${problem}`);
  try {
    return await tool.call(args as Record<string, unknown>, {
      signal: options.signal,
      maxResultChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
      ...(options.resultDir === undefined ? {} : { resultDir: options.resultDir }),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return toolError(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The tool of a name the model used: the manager's names (`mcp__server__tool`) map back one to one. */
export function toolNamed<T extends AdapterTool>(tools: readonly T[], name: string): T | undefined {
  return tools.find((tool) => tool.name === name);
}
