import type { AdapterTool, ToolResult } from "./types.js";

// Tool search as a tool, for models without native tool search: the model sees `search_tools`
// (and any tools the host always loads); what a search finds is loaded, and the host sends the
// loaded tools with the next request. Definitions of hundreds of tools stay out of the context
// until they are needed.

/** Where the tools come from: an `MCPManager`, or anything with its two methods. */
export interface ToolSearchSource<T extends AdapterTool = AdapterTool> {
  searchTools(query: string, options?: { limit?: number | undefined }): T[];
  getTools(): T[];
}

/** Options of {@link toolSearch}. */
export interface ToolSearchOptions<T extends AdapterTool = AdapterTool> {
  /** Most tools one search loads (default 5). */
  limit?: number | undefined;
  /** The meta-tool's name (default `search_tools`). */
  name?: string | undefined;
  /** Tools sent from the start, without a search. */
  alwaysLoaded?: ((tool: T) => boolean) | undefined;
}

export interface ToolSearch<T extends AdapterTool = AdapterTool> {
  /** The meta-tool. */
  readonly tool: AdapterTool;
  /** What to send the model now: the meta-tool, the tools always loaded, and those found so far. */
  tools(): (T | AdapterTool)[];
  /** Names of the tools found so far. */
  readonly loaded: ReadonlySet<string>;
}

/** A `search_tools` meta-tool over `source`, and the tools it has loaded. */
export function toolSearch<T extends AdapterTool>(
  source: ToolSearchSource<T>,
  options: ToolSearchOptions<T> = {},
): ToolSearch<T> {
  const loaded = new Set<string>();
  const limit = options.limit ?? 5;
  const tool: AdapterTool = {
    name: options.name ?? "search_tools",
    description:
      "Find tools for a task and load them. Describe what you want to do in a few words; the best matches become available to call from your next step. Search again for other tools.",
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          description: "What the tool should do, e.g. 'read a file' or 'create a GitHub issue'",
        },
        limit: { type: "integer", minimum: 1, maximum: 20, description: `How many tools to load (default ${limit})` },
      },
      required: ["query"],
    },
    call: (args = {}): Promise<ToolResult> => {
      const query = typeof args["query"] === "string" ? args["query"] : "";
      const found = source.searchTools(query, { limit: typeof args["limit"] === "number" ? args["limit"] : limit });
      for (const t of found) loaded.add(t.name);
      const text =
        found.length === 0
          ? `No tool matches "${query}". Try other words.`
          : `Loaded ${found.length} tool${found.length === 1 ? "" : "s"} for "${query}"; call them from your next step:\n${found.map((t) => `- ${t.name}${t.description ? `: ${firstLine(t.description)}` : ""}`).join("\n")}`;
      return Promise.resolve({ content: [{ type: "text", text }] });
    },
  };
  return {
    tool,
    loaded,
    tools: () => [tool, ...source.getTools().filter((t) => loaded.has(t.name) || options.alwaysLoaded?.(t) === true)],
  };
}

function firstLine(text: string): string {
  const line = text.split("\n")[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
