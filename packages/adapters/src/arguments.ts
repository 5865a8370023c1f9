// Tool arguments from words a person typed (HTTPie style), typed by the tool's input schema; and a
// schema in words: a signature line, a type, an example value. No dependency and no file access of
// its own (`readFile` is the caller's), so a command line, a chat's slash command or a form can use it.

/** A JSON Schema, as far as these functions read one. */
type Schema = {
  type?: unknown;
  properties?: Record<string, unknown> | undefined;
  required?: string[] | undefined;
  items?: unknown;
  enum?: unknown[] | undefined;
  [key: string]: unknown;
};

/** Words that do not make arguments: what is wrong, and the argument it is about when there is one. */
export class ArgumentsError extends Error {
  /** The argument at fault (`"count"`), or undefined for the words as a whole. */
  readonly argument: string | undefined;
  constructor(message: string, argument?: string) {
    super(message);
    this.name = "ArgumentsError";
    this.argument = argument;
  }
}

/** Options of {@link parseArguments}. */
export interface ParseArgumentsOptions {
  /**
   * Reads `key=@file` and `key:=@file.json` (the name as written; resolve it yourself). What it
   * throws becomes an {@link ArgumentsError} naming the argument. None: `@…` is text like any other.
   */
  readFile?: ((name: string) => string) | undefined;
}

/** A value as a schema, when it is an object. */
function sub(value: unknown): Schema | undefined {
  return typeof value === "object" && value !== null ? (value as Schema) : undefined;
}

/** The schema's type (the first that is not `null`, when it lists several). */
function typeOf(schema: Schema | undefined): string | undefined {
  const type = schema?.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  return typeof type === "string" ? type : undefined;
}

/** One line that reads like a signature: `echo(message: string, count?: number)`. */
export function toolSignature(name: string, schema: object | undefined): string {
  const s = sub(schema);
  const properties = s?.properties ?? {};
  const required = new Set(s?.required ?? []);
  const params = Object.entries(properties).map(
    ([key, property]) => `${key}${required.has(key) ? "" : "?"}: ${describeSchemaType(sub(property))}`,
  );
  return `${name}(${params.join(", ")})`;
}

/** A schema's type for a person: `string`, `number[]`, `"a" | "b"`, `any`. */
export function describeSchemaType(schema: object | undefined): string {
  const s = sub(schema);
  if (s?.enum) return s.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (s?.const !== undefined) return JSON.stringify(s.const);
  const union = Array.isArray(s?.anyOf) ? s.anyOf : Array.isArray(s?.oneOf) ? s.oneOf : undefined;
  if (union && !s?.type)
    return (
      [...new Set(union.map((option) => describeSchemaType(sub(option))).filter((t) => t !== "null"))].join(" | ") ||
      "any"
    );
  const type = typeOf(s);
  if (type === "array") return `${describeSchemaType(sub(s?.items))}[]`;
  if (type === "integer") return "integer";
  return type ?? "any";
}

/**
 * A value that fits a schema, for an example: its default, first example, first allowed value or
 * const, else one of its type (an object with its required properties; a string by `format`, or
 * by `name`: a URL, a path, a folder).
 */
export function exampleValue(schema: object | undefined, name = "", depth = 0): unknown {
  const s = sub(schema);
  if (s?.default !== undefined) return s.default;
  if (Array.isArray(s?.examples) && s.examples.length > 0) return s.examples[0];
  if (Array.isArray(s?.enum) && s.enum.length > 0) return s.enum[0];
  if (s?.const !== undefined) return s.const;
  switch (typeOf(s)) {
    case "number":
    case "integer":
      return typeof s?.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return depth > 3 ? [] : [exampleValue(sub(s?.items), "", depth + 1)];
    case "object": {
      const required = Array.isArray(s?.required) ? s.required : [];
      return depth > 3
        ? {}
        : Object.fromEntries(required.map((key) => [key, exampleValue(sub(s?.properties?.[key]), key, depth + 1)]));
    }
    case "string": {
      const format = s?.format;
      if (format === "uri" || format === "url" || /ur[il]$/i.test(name)) return "https://example.com";
      if (format === "date") return "2026-01-01";
      if (format === "date-time") return "2026-01-01T00:00:00Z";
      if (format === "email") return "me@example.com";
      return /path|file/i.test(name) ? "./README.md" : /dir|folder/i.test(name) ? "." : "text";
    }
    default:
      return "text";
  }
}

function readArgumentFile(key: string, name: string, readFile: (name: string) => string): string {
  try {
    return readFile(name);
  } catch (error) {
    throw new ArgumentsError(`argument "${key}": ${(error as Error).message}`, key);
  }
}

function parseJson(key: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ArgumentsError(`argument "${key}": not valid JSON (${(error as Error).message})`, key);
  }
}

/**
 * A `key=value` as the schema's type of that key: numbers, booleans, arrays, objects; `key=@file`
 * reads the file; `key=\@text` is the text `@text`.
 */
function coerce(key: string, raw: string, property: Schema | undefined, options: ParseArgumentsOptions): unknown {
  let text = raw;
  if (text.startsWith("\\@")) text = text.slice(1);
  else if (options.readFile && text.startsWith("@") && text.length > 1) {
    text = readArgumentFile(key, text.slice(1), options.readFile);
    if (typeOf(property) === "string" || property === undefined) return text;
  }
  switch (typeOf(property)) {
    case "number":
    case "integer": {
      const value = Number(text);
      return text.trim() === "" || Number.isNaN(value) ? text : value; // validation names the field
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    case "array":
      if (text.trim().startsWith("[")) return parseJson(key, text);
      return text === "" ? [] : text.split(",").map((item) => coerce(key, item.trim(), sub(property?.items), options));
    case "object":
      return parseJson(key, text);
    case "null":
      return text === "null" ? null : text;
    default:
      return text;
  }
}

/**
 * Tool arguments from words, as HTTPie writes them: one JSON object, or pairs — `key=value` (typed
 * by the schema: numbers, booleans, `a,b` arrays; a value that does not fit is left as text for
 * the validator to name), `key:=<json>` (raw JSON), `key=@file` (the file's text), `key:=@file.json`
 * (the file's JSON), `key=\@text` (a value that starts with `@`). Files are read only through
 * `options.readFile`. Throws an {@link ArgumentsError} for words that make no arguments.
 */
export function parseArguments(
  words: readonly string[],
  schema: object | undefined,
  options: ParseArgumentsOptions = {},
): Record<string, unknown> {
  if (words.length === 1 && words[0]!.trim().startsWith("{")) {
    const value = parseJson("arguments", words[0]!);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new ArgumentsError("the JSON arguments must be an object");
    return value as Record<string, unknown>;
  }
  const properties = sub(schema)?.properties;
  const args: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    const raw = eq > 0 && word[eq - 1] === ":";
    const key = word.slice(0, raw ? eq - 1 : eq);
    if (eq <= 0 || key === "")
      throw new ArgumentsError(`expected key=value, key:=<json> (or one JSON object), got ${JSON.stringify(word)}`);
    const value = word.slice(eq + 1);
    if (raw)
      args[key] = parseJson(
        key,
        options.readFile && value.startsWith("@") && value.length > 1
          ? readArgumentFile(key, value.slice(1), options.readFile)
          : value,
      );
    else args[key] = coerce(key, value, sub(properties?.[key]), options);
  }
  return args;
}

/** One parameter of a tool for a person ({@link toolParameters}); a nested one is named by its path. */
export interface ToolParameter {
  /** `count`, or a nested one's path: `customer.name`, `lines[].sku`. */
  name: string;
  /** Its type as {@link describeSchemaType} says it (`string` or `number` for an enum: its values are in `description`). */
  type: string;
  required: boolean;
  /** Its description on one line, then `one of "a", "b"` for an enum; `""` when it has none. */
  description: string;
  /** Its default, undefined when it has none. */
  default: unknown;
}

/**
 * A tool's parameters from its input schema, one per property, each nested object's own (and an
 * array of objects' items', as `name[].key`) right after it, three levels deep at most.
 */
export function toolParameters(schema: object | undefined, prefix = "", depth = 0): ToolParameter[] {
  const s = sub(schema);
  const required = new Set(Array.isArray(s?.required) ? s.required : []);
  const list: ToolParameter[] = [];
  for (const [key, value] of Object.entries(s?.properties ?? {})) {
    const property = sub(value);
    const name = `${prefix}${key}`;
    // An enum's values are in its description: the type stays short.
    const values = Array.isArray(property?.enum)
      ? `one of ${property.enum.map((v) => JSON.stringify(v)).join(", ")}`
      : "";
    const said = typeof property?.description === "string" ? property.description.replace(/\s+/g, " ").trim() : "";
    list.push({
      name,
      type: property?.enum
        ? typeof property.enum[0] === "number"
          ? "number"
          : "string"
        : describeSchemaType(property),
      required: required.has(key),
      description: [said, values].filter(Boolean).join("; "),
      default: property?.default,
    });
    if (depth < 2 && typeOf(property) === "object" && property?.properties)
      list.push(...toolParameters(property, `${name}.`, depth + 1));
    const items = sub(property?.items);
    if (depth < 2 && typeOf(property) === "array" && items?.properties)
      list.push(...toolParameters(items, `${name}[].`, depth + 1));
  }
  return list;
}

/**
 * Words for an example call, one for each required argument with an {@link exampleValue}, as
 * {@link parseArguments} reads them: `key=value` for a string, number or boolean (a string that
 * starts with `@` as `key=\@…`), `key:=<json>` for anything else.
 */
export function exampleArguments(schema: object | undefined): string[] {
  const s = sub(schema);
  return (Array.isArray(s?.required) ? s.required : []).map((key) => {
    const value = exampleValue(sub(s?.properties?.[key]), key);
    if (typeof value === "string") return `${key}=${value.startsWith("@") ? `\\${value}` : value}`;
    if (typeof value === "number" || typeof value === "boolean") return `${key}=${String(value)}`;
    return `${key}:=${JSON.stringify(value)}`;
  });
}

/** What a tool's annotations say, in words: `read-only`, `destructive` (unless read-only), `idempotent`, `open world`. */
export function toolHints(annotations: object | undefined): string[] {
  const a = (annotations ?? {}) as Record<string, unknown>;
  return [
    a["readOnlyHint"] === true && "read-only",
    a["destructiveHint"] === true && a["readOnlyHint"] !== true && "destructive",
    a["idempotentHint"] === true && "idempotent",
    a["openWorldHint"] === true && "open world",
  ].filter((h): h is string => typeof h === "string");
}

/** A tool as {@link toolDoc} reads it: its own name (not a model-safe one) and what `tools/list` gives. */
export interface ToolDocOf {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: object | undefined;
  outputSchema?: object | undefined;
  annotations?: object | undefined;
}

/** A tool's docs for a person or a model, as parts ({@link toolDoc}); the text is the server's, unescaped. */
export interface ToolDoc {
  /** Its title, when it has one that is not its name. */
  title: string | undefined;
  /** Its description's lines (the whole trimmed first), `[]` when it has none. */
  description: string[];
  /** What its annotations say ({@link toolHints}). */
  hints: string[];
  /** Its parameters ({@link toolParameters}). */
  parameters: ToolParameter[];
  /** The fields of its structured content, when its output schema names them. */
  returns: string[] | undefined;
  /** Words for an example call ({@link exampleArguments}). */
  example: string[];
}

/**
 * A tool's docs (what `mcp tools <server>.<tool>` shows): its title, description, hints,
 * parameters, the fields it returns and an example call's arguments.
 *
 * @example
 * toolDoc({ name: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } }).example;
 * // ["message=text"]
 */
export function toolDoc(tool: ToolDocOf): ToolDoc {
  const output = sub(tool.outputSchema)?.properties;
  return {
    title: tool.title && tool.title !== tool.name ? tool.title : undefined,
    description: tool.description ? tool.description.trim().split("\n") : [],
    hints: toolHints(tool.annotations),
    parameters: toolParameters(tool.inputSchema),
    returns: output ? Object.keys(output) : undefined,
    example: exampleArguments(tool.inputSchema),
  };
}

/** A prompt's arguments as `prompts/list` gives them, as far as {@link promptArguments} reads them. */
export interface PromptArgumentsOf {
  name: string;
  arguments?: readonly { name: string; required?: boolean | undefined }[] | undefined;
}

/**
 * A prompt's arguments from parsed ones ({@link parseArguments} with no schema): each value as the
 * text `prompts/get` takes (a string as it is, anything else as its JSON), and the names of the
 * required arguments not given, in the prompt's order.
 *
 * @example
 * promptArguments({ name: "args-prompt", arguments: [{ name: "city", required: true }] }, { n: 2 });
 * // { args: { n: "2" }, missing: ["city"] }
 */
export function promptArguments(
  prompt: PromptArgumentsOf,
  values: Record<string, unknown>,
): { args: Record<string, string>; missing: string[] } {
  const args = Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
  const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  return { args, missing };
}
