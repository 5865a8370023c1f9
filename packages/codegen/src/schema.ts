// JSON Schema → TypeScript types, for generateClient: written by hand to be exact for what tool schemas
// use (draft-07 and 2020-12): type and type arrays, enum, const, required vs optional, nested objects,
// additional and pattern properties, arrays and tuples, anyOf/oneOf/allOf, nullable, and $ref to
// $defs, definitions, any local JSON pointer and the root, recursion included.

/** Type names given out in one module, so no two declarations collide. */
export class Names {
  readonly #taken = new Set<string>();

  /** `wanted`, or `wanted2`, `wanted3`, … when taken. */
  claim(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.#taken.has(name); n++) name = `${wanted}${n}`;
    this.#taken.add(name);
    return name;
  }
}

function words(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
}

/** `get-sum` → `GetSum`; a name that would start with a digit gets a leading `T`. */
export function pascalCase(text: string): string {
  const name = words(text);
  if (name === "") return "T";
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/** `get-sum` → `getSum`; a name that would start with a digit gets a leading `_` (`2fa.check` → `_2faCheck`). */
export function camelCase(text: string): string {
  const name = words(text);
  if (name === "") return "_";
  return /^[0-9]/.test(name) ? `_${name}` : name[0]!.toLowerCase() + name.slice(1);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript writes it: bare when it can be, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A TSDoc comment of `lines` at `indent`, or nothing; `*\/` in a text cannot end it early. */
export function docComment(lines: readonly string[], indent: string): string {
  const text = lines.flatMap((line) => line.replaceAll("*/", "*\\/").split(/\r?\n/)).map((line) => line.trimEnd());
  while (text.length > 0 && text[text.length - 1] === "") text.pop();
  if (text.length === 0) return "";
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n")}\n${indent} */\n`;
}

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a property's comment says: its title and description, format, default, examples, deprecation. */
export function schemaDoc(schema: unknown): string[] {
  if (!isSchema(schema)) return [];
  const lines: string[] = [];
  if (typeof schema["title"] === "string" && schema["title"] !== schema["description"]) lines.push(schema["title"]);
  if (typeof schema["description"] === "string") lines.push(schema["description"]);
  if (typeof schema["format"] === "string") lines.push(`Format: ${schema["format"]}.`);
  if ("default" in schema) lines.push(`@defaultValue ${JSON.stringify(schema["default"])}`);
  if (schema["deprecated"] === true) lines.push("@deprecated");
  return lines;
}

/** A literal type for a JSON value, or undefined when TypeScript has none (objects, arrays). */
function literal(value: unknown): string | undefined {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean" || value === null) return String(value);
  return undefined;
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  const kept = unique.filter((type) => type !== "never");
  return kept.length === 0 ? "never" : kept.join(" | ");
}

/** Parenthesised when it is a union or an intersection, for `T[]` and `A & B`. */
function atom(type: string): string {
  let depth = 0;
  for (const char of type) {
    if ("({[<".includes(char)) depth++;
    else if (")}]>".includes(char)) depth--;
    else if (depth === 0 && (char === "|" || char === "&")) return `(${type})`;
  }
  return type;
}

/** A JSON pointer's parts (`#/$defs/a~1b` → `["$defs", "a/b"]`), or undefined for anything but a local pointer. */
function pointerParts(ref: string): string[] | undefined {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return undefined;
  try {
    return ref
      .slice(2)
      .split("/")
      .map((part) => decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~"));
  } catch {
    return undefined;
  }
}

/**
 * Writes the TypeScript for one root schema (a tool's input or output schema). A `$ref` to a part of
 * it becomes a named type, declared once (see {@link declarations}), so recursion is fine.
 */
export class SchemaWriter {
  /** `export type …` lines for the schemas `$ref`s pointed at, in the order they were met. */
  readonly declarations: string[] = [];
  readonly #root: unknown;
  readonly #rootName: string;
  readonly #names: Names;
  readonly #named = new Map<string, string>();

  /** `rootName` is the name the root schema is declared under (a `$ref` to `#` uses it). */
  constructor(root: unknown, rootName: string, names: Names) {
    this.#root = root;
    this.#rootName = rootName;
    this.#names = names;
  }

  /** The type a `$ref` names: a declared alias of its target, or `unknown` when it points outside this schema or nowhere. */
  #ref(ref: string): string {
    const parts = pointerParts(ref);
    if (parts === undefined) return "unknown";
    if (parts.length === 0) return this.#rootName;
    const known = this.#named.get(ref);
    if (known) return known;
    const target = this.#resolve(parts);
    if (target === undefined) return "unknown";
    // A chain of bare $refs that comes back to itself describes nothing.
    const seen = new Set([ref]);
    for (
      let step: unknown = target;
      isSchema(step) && typeof step["$ref"] === "string" && Object.keys(step).length === 1;
    ) {
      const next = step["$ref"];
      const nextParts = pointerParts(next);
      if (seen.has(next) || nextParts === undefined) return "unknown";
      if (nextParts.length === 0) break;
      seen.add(next);
      step = this.#resolve(nextParts);
    }
    const name = this.#names.claim(`${this.#rootName}${pascalCase(parts[parts.length - 1]!)}`);
    this.#named.set(ref, name);
    const body = this.type(target, "");
    this.declarations.push(`${docComment(schemaDoc(target), "")}export type ${name} = ${body};\n`);
    return name;
  }

  /** The part of the root schema a pointer's parts lead to, or undefined. */
  #resolve(parts: readonly string[]): unknown {
    let target: unknown = this.#root;
    for (const part of parts) {
      if (Array.isArray(target) && /^\d+$/.test(part)) target = target[Number(part)];
      else if (isSchema(target) && Object.hasOwn(target, part)) target = target[part];
      else return undefined;
    }
    return target;
  }

  /** The TypeScript type of `schema`; nested object types are indented from `indent`. */
  type(schema: unknown, indent: string): string {
    if (schema === false) return "never";
    if (!isSchema(schema)) return "unknown";
    const parts: string[] = [];
    if (typeof schema["$ref"] === "string") parts.push(this.#ref(schema["$ref"]));
    if ("const" in schema) parts.push(literal(schema["const"]) ?? "unknown");
    else if (Array.isArray(schema["enum"]))
      parts.push(union(schema["enum"].map((value) => literal(value) ?? "unknown")));
    else parts.push(this.#byType(schema, indent));
    for (const key of ["anyOf", "oneOf"] as const) {
      const options = schema[key];
      if (Array.isArray(options) && options.length > 0)
        parts.push(union(options.map((option) => this.type(option, indent))));
    }
    if (Array.isArray(schema["allOf"])) for (const part of schema["allOf"]) parts.push(this.type(part, indent));
    const kept = parts.filter((part) => part !== "unknown");
    let type =
      kept.length === 0
        ? "unknown"
        : kept.includes("never")
          ? "never"
          : kept.length === 1
            ? kept[0]!
            : kept.map(atom).join(" & ");
    if (schema["nullable"] === true && type !== "unknown") type = `${type} | null`;
    return type;
  }

  #byType(schema: Schema, indent: string): string {
    const declared = schema["type"];
    let types: string[];
    if (typeof declared === "string") types = [declared];
    else if (Array.isArray(declared)) types = declared.filter((t): t is string => typeof t === "string");
    else if (
      isSchema(schema["properties"]) ||
      "additionalProperties" in schema ||
      isSchema(schema["patternProperties"]) ||
      Array.isArray(schema["required"])
    )
      types = ["object"];
    else if ("items" in schema || Array.isArray(schema["prefixItems"])) types = ["array"];
    else return "unknown";
    return union(
      types.map((type) => {
        switch (type) {
          case "string":
            return "string";
          case "number":
          case "integer":
            return "number";
          case "boolean":
            return "boolean";
          case "null":
            return "null";
          case "object":
            return this.#object(schema, indent);
          case "array":
            return this.#array(schema, indent);
          default:
            return "unknown";
        }
      }),
    );
  }

  #object(schema: Schema, indent: string): string {
    const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
    const required = new Set(
      Array.isArray(schema["required"])
        ? schema["required"].filter((name): name is string => typeof name === "string")
        : [],
    );
    const inner = `${indent}  `;
    const lines: string[] = [];
    const memberTypes: string[] = [];
    let optional = false;
    for (const [name, property] of Object.entries(properties)) {
      const type = this.type(property, inner);
      const isRequired = required.has(name);
      optional ||= !isRequired;
      memberTypes.push(type);
      lines.push(
        `${docComment(schemaDoc(property), inner)}${inner}${propertyKey(name)}${isRequired ? "" : "?"}: ${isRequired ? type : `${type} | undefined`};\n`,
      );
    }
    // Required names with no schema of their own still must be there.
    for (const name of required) {
      if (Object.hasOwn(properties, name)) continue;
      lines.push(`${inner}${propertyKey(name)}: unknown;\n`);
      memberTypes.push("unknown");
    }
    const extra: string[] = [];
    const additional = schema["additionalProperties"];
    if (additional === true) extra.push("unknown");
    else if (isSchema(additional)) extra.push(this.type(additional, inner));
    if (isSchema(schema["patternProperties"]))
      for (const pattern of Object.values(schema["patternProperties"])) extra.push(this.type(pattern, inner));
    if (extra.length > 0) {
      // Every named property must fit the index signature too.
      const all = union([...extra, ...memberTypes, ...(optional ? ["undefined"] : [])]);
      lines.push(`${inner}[key: string]: ${all};\n`);
    }
    if (lines.length === 0) return "Record<string, never>";
    return `{\n${lines.join("")}${indent}}`;
  }

  #array(schema: Schema, indent: string): string {
    const tuple = Array.isArray(schema["prefixItems"])
      ? schema["prefixItems"]
      : Array.isArray(schema["items"])
        ? schema["items"]
        : undefined;
    if (!tuple) return `${atom(this.type(schema["items"] ?? true, indent))}[]`;
    const rest = Array.isArray(schema["prefixItems"]) ? schema["items"] : schema["additionalItems"];
    const min = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
    const elements = tuple.map((item, i) => (i >= min ? `${atom(this.type(item, indent))}?` : this.type(item, indent)));
    if (rest !== false) elements.push(`...${atom(this.type(rest ?? true, indent))}[]`);
    return `[${elements.join(", ")}]`;
  }
}
