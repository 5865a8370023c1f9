// The shapes every adapter shares: the tool it needs of a manager, a result, its content, the options.
import type { MCPTool } from "@mcp/manager";

/** What an adapter needs of a manager tool (an `MCPTool`, or anything shaped like one). */
export type AdapterTool = Pick<MCPTool, "name" | "description" | "inputSchema" | "call"> &
  Partial<Pick<MCPTool, "title" | "serverName" | "toolName" | "deferred">>;

/** A tool's result, as `MCPTool.call` gives it. */
export type ToolResult = Awaited<ReturnType<MCPTool["call"]>>;

/** A content block of a tool result. */
export type ToolContent = ToolResult["content"][number];

/** Options every adapter takes. */
export interface AdapterOptions {
  /**
   * Most characters of a result's text the model gets (default 100,000, about 25,000 tokens).
   * The rest is saved to a file whose path the last line names (see `MCPTool.call`'s
   * `maxResultChars`); `Infinity` sends everything.
   */
  maxResultChars?: number | undefined;
  /** Where over-budget results are saved (default: a folder under the system's temp folder). */
  resultDir?: string | undefined;
  /**
   * Give the provider its strict mode's schema subset (`$ref`/`$defs` inlined, keywords it does
   * not take dropped, `additionalProperties: false`, every property required and optional ones
   * nullable). Arguments are still checked against the server's own schema. Default false.
   */
  strict?: boolean | undefined;
}

/** The default result budget of the adapters, in characters. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;
