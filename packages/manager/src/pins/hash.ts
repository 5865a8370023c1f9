// What a pin covers (name, title, description, schemas, annotations) and its hash as canonical JSON.
import { createHash } from "node:crypto";
import type { Tool } from "@mcp/client";

/**
 * What a model is told about a tool, and so what a pin covers: its name, title, description,
 * input and output schema and annotations. Everything else a server lists (`icons`, `_meta`, …)
 * may change without a person's approval.
 */
export interface PinnedDefinition {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/**
 * JSON with object keys sorted and `undefined` members left out, so two equal values always give
 * the same text (and hash) whatever order a server wrote their keys in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined && typeof record[key] !== "function")
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The pinned fields of a listed tool (absent fields stay absent). */
export function definitionOf(tool: Tool): PinnedDefinition {
  const definition: PinnedDefinition = { name: tool.name };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.inputSchema !== undefined) definition.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return definition;
}

/** `sha256:<hex>` of a definition's canonical JSON. */
export function definitionHash(definition: PinnedDefinition): string {
  return `sha256:${createHash("sha256").update(canonicalJson(definition)).digest("hex")}`;
}

/** The hash of a whole tool set: each tool's name and hash, sorted by name (a rename changes it). */
export function toolSetHash(tools: Record<string, { hash: string }>): string {
  const lines = Object.keys(tools)
    .sort()
    .map((name) => `${name}\n${tools[name]?.hash ?? ""}\n`);
  return `sha256:${createHash("sha256").update(lines.join("")).digest("hex")}`;
}
