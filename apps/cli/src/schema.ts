// Tool arguments from the command line (HTTPie style), checked against the tool's schema, and a schema described in words.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type * as AdaptersModule from "@mcp/adapters";
import { CliError, EXIT } from "./ui.js";
import { lazyImport } from "./lazy-require.js";

/** A JSON Schema, as far as the CLI reads one. */
export type Schema = {
  type?: unknown;
  properties?: Record<string, unknown> | undefined;
  required?: string[] | undefined;
  items?: unknown;
  enum?: unknown[] | undefined;
  [key: string]: unknown;
};

/** A value as a schema, when it is an object. */
export function sub(value: unknown): Schema | undefined {
  return typeof value === "object" && value !== null ? (value as Schema) : undefined;
}

/** The schema's type (the first that is not `null`, when it lists several). */
export function typeOf(schema: Schema | undefined): string | undefined {
  const type = schema?.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  return typeof type === "string" ? type : undefined;
}

/** One line that reads like a signature: `echo(message: string, count?: number)`. */
export function signature(name: string, schema: Schema | undefined): string {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const params = Object.entries(properties).map(
    ([key, property]) => `${key}${required.has(key) ? "" : "?"}: ${describeType(sub(property))}`,
  );
  return `${name}(${params.join(", ")})`;
}

/** A schema's type for a person: `string`, `number[]`, `"a" | "b"`. */
export function describeType(schema: Schema | undefined): string {
  if (schema?.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema?.const !== undefined) return JSON.stringify(schema.const);
  const union = Array.isArray(schema?.anyOf) ? schema.anyOf : Array.isArray(schema?.oneOf) ? schema.oneOf : undefined;
  if (union && !schema?.type)
    return (
      [...new Set(union.map((option) => describeType(sub(option))).filter((t) => t !== "null"))].join(" | ") || "any"
    );
  const type = typeOf(schema);
  if (type === "array") return `${describeType(sub(schema?.items))}[]`;
  if (type === "integer") return "integer";
  return type ?? "any";
}

function readArgumentFile(key: string, name: string, cwd: string): string {
  const file = resolve(cwd, name);
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`argument "${key}": cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
  }
}

/**
 * A `key=value` as the schema's type of that key: numbers, booleans, arrays, objects; `key=@file`
 * reads the file; `key=\@text` is the text `@text`.
 */
function coerce(key: string, raw: string, property: Schema | undefined, cwd: string): unknown {
  let text = raw;
  if (text.startsWith("\\@")) text = text.slice(1);
  else if (text.startsWith("@") && text.length > 1) {
    text = readArgumentFile(key, text.slice(1), cwd);
    if (typeOf(property) === "string" || property === undefined) return text;
  }
  const type = typeOf(property);
  switch (type) {
    case "number":
    case "integer": {
      const value = Number(text);
      return text.trim() === "" || Number.isNaN(value) ? text : value; // validation names the field
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    case "array":
      if (text.trim().startsWith("[")) return parseJson(key, text);
      return text === "" ? [] : text.split(",").map((item) => coerce(key, item.trim(), sub(property?.items), cwd));
    case "object":
      return parseJson(key, text);
    case "null":
      return text === "null" ? null : text;
    default:
      return text;
  }
}

function parseJson(key: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`argument "${key}": not valid JSON (${(error as Error).message})`, EXIT.usage);
  }
}

/**
 * Tool arguments from the command line, as HTTPie writes them: one JSON object, or pairs —
 * `key=value` (typed by the schema: numbers, booleans, `a,b` arrays), `key:=<json>` (raw JSON),
 * `key=@file` (the file's text), `key:=@file.json` (the file's JSON), `key=\@text` (a value that
 * starts with `@`).
 */
export function parseArguments(words: string[], schema: Schema | undefined, cwd: string): Record<string, unknown> {
  if (words.length === 1 && words[0]!.trim().startsWith("{")) {
    const value = parseJson("arguments", words[0]!);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new CliError("the JSON arguments must be an object", EXIT.usage);
    return value as Record<string, unknown>;
  }
  const args: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    const raw = eq > 0 && word[eq - 1] === ":";
    const key = word.slice(0, raw ? eq - 1 : eq);
    if (eq <= 0 || key === "")
      throw new CliError(
        `expected key=value, key:=<json> (or one JSON object), got ${JSON.stringify(word)}`,
        EXIT.usage,
      );
    const value = word.slice(eq + 1);
    if (raw)
      args[key] = parseJson(
        key,
        value.startsWith("@") && value.length > 1 ? readArgumentFile(key, value.slice(1), cwd) : value,
      );
    else args[key] = coerce(key, value, sub(schema?.properties?.[key]), cwd);
  }
  return args;
}

/**
 * Validates arguments against the tool's input schema; throws a usage error naming each bad field.
 * The check is `@mcp/adapters`' (one validator for the stack, which interprets the server's schema
 * and never compiles it to code), loaded when arguments are checked, not with the CLI: most
 * commands never check any.
 */
export async function validateArguments(
  toolLabel: string,
  args: Record<string, unknown>,
  schema: object | undefined,
): Promise<void> {
  if (!schema) return;
  const { argumentIssues } = await lazyImport<typeof AdaptersModule>("@mcp/adapters");
  const issues = argumentIssues(schema, args);
  if (issues.length === 0) return;
  throw new CliError(
    `invalid arguments for ${toolLabel}: ${issues.map((issue) => issue.message).join("; ")}`,
    EXIT.usage,
  );
}
