export type { AdapterOptions, AdapterTool, ToolContent, ToolResult } from "./types.js";
export { fromStrictArguments, providerSchema } from "./schema.js";
export { argumentIssues, argumentProblem, type ArgumentIssue } from "./validate.js";
export { runTool, toolError } from "./run.js";
export { resultParts, resultText, type ResultPart } from "./content.js";
export { toolSearch, type ToolSearch, type ToolSearchOptions, type ToolSearchSource } from "./search.js";
