// The schema a model provider gets for a tool. As the server wrote it by default; in strict mode
// the subset strict function calling takes (OpenAI's `strict: true`, Anthropic's strict tool use):
// `$ref`s into `$defs` inlined, keywords outside the subset dropped, every object closed with
// `additionalProperties: false` and every property required, an optional one made nullable so
// the model can leave it out by sending null (`fromStrictArguments` removes those nulls again).

type Json = Record<string, unknown>;

const KEPT = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
  "title",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "$ref",
  "$defs",
]);

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The tool's input schema as a provider takes it: an object schema; in strict mode, the strict subset. */
export function providerSchema(schema: unknown, strict: boolean): Json {
  const base: Json = isObject(schema) ? schema : {};
  const object: Json = base["type"] === undefined ? { ...base, type: "object" } : base;
  if (!strict) return object;
  const defs = {
    ...(isObject(object["$defs"]) ? object["$defs"] : {}),
    ...(isObject(object["definitions"]) ? object["definitions"] : {}),
  };
  const recursive = new Set<string>();
  const result = strictNode(object, defs, [], recursive);
  // A definition that refers to itself stays a definition (strict mode takes `$defs` and `$ref`).
  if (recursive.size > 0)
    result["$defs"] = Object.fromEntries(
      [...recursive].map((name) => [name, strictNode(defs[name] as Json, defs, [name], new Set())]),
    );
  return result;
}

function strictNode(node: Json, defs: Json, path: string[], recursive: Set<string>): Json {
  const ref = node["$ref"];
  if (typeof ref === "string") {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
    if (name !== undefined && isObject(defs[name])) {
      if (path.includes(name)) {
        recursive.add(name);
        return { $ref: `#/$defs/${name}` };
      }
      const { $ref: _ref, ...siblings } = node;
      return strictNode({ ...defs[name], ...siblings }, defs, [...path, name], recursive);
    }
  }
  // oneOf reads as anyOf here; allOf of objects is merged into one object.
  let source: Json = node;
  if (Array.isArray(node["oneOf"]) && node["anyOf"] === undefined) source = { ...node, anyOf: node["oneOf"] };
  if (Array.isArray(node["allOf"]))
    source = mergeAll(
      source,
      node["allOf"].filter(isObject).map((part) => strictNode(part, defs, path, recursive)),
    );
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (!KEPT.has(key) || key === "$defs" || key === "$ref") continue;
    if (key === "properties" && isObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => isObject(v))
          .map(([k, v]) => [k, strictNode(v as Json, defs, path, recursive)]),
      );
    else if (key === "items" && isObject(value)) out[key] = strictNode(value, defs, path, recursive);
    else if (key === "anyOf" && Array.isArray(value))
      out[key] = value.filter(isObject).map((v) => strictNode(v, defs, path, recursive));
    else if (key !== "additionalProperties" && key !== "required") out[key] = value;
  }
  const isObjectType =
    out["type"] === "object" ||
    (Array.isArray(out["type"]) && out["type"].includes("object")) ||
    isObject(out["properties"]);
  if (isObjectType) {
    const properties = (out["properties"] ?? {}) as Json;
    const required = new Set(
      Array.isArray(source["required"]) ? source["required"].filter((k): k is string => typeof k === "string") : [],
    );
    for (const [key, property] of Object.entries(properties))
      if (!required.has(key)) properties[key] = nullable(property as Json);
    out["type"] ??= "object";
    out["properties"] = properties;
    out["required"] = Object.keys(properties);
    out["additionalProperties"] = false;
  }
  return out;
}

function mergeAll(base: Json, parts: Json[]): Json {
  const { allOf: _allOf, ...rest } = base;
  const merged: Json = { ...rest };
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties" && isObject(value))
        merged["properties"] = { ...(isObject(merged["properties"]) ? merged["properties"] : {}), ...value };
      else if (key === "required" && Array.isArray(value))
        merged["required"] = [
          ...new Set<unknown>([
            ...((Array.isArray(merged["required"]) ? merged["required"] : []) as unknown[]),
            ...(value as unknown[]),
          ]),
        ];
      else merged[key] ??= value;
    }
  }
  return merged;
}

function nullable(schema: Json): Json {
  const type = schema["type"];
  if (typeof type === "string" && schema["enum"] === undefined && schema["const"] === undefined)
    return { ...schema, type: [type, "null"] };
  if (Array.isArray(type) && !type.includes("null") && schema["enum"] === undefined)
    return { ...schema, type: [...(type as unknown[]), "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * The arguments a model sent under a strict schema, as the server's schema wants them: a null
 * for a property the server's schema does not require is taken out (it meant "left out").
 */
export function fromStrictArguments(schema: unknown, args: unknown): unknown {
  return stripNulls(
    isObject(schema) ? schema : {},
    args,
    isObject(schema)
      ? {
          ...(isObject(schema["$defs"]) ? schema["$defs"] : {}),
          ...(isObject(schema["definitions"]) ? schema["definitions"] : {}),
        }
      : {},
    0,
  );
}

function stripNulls(schema: Json, value: unknown, defs: Json, depth: number): unknown {
  if (depth > 32) return value;
  const ref =
    typeof schema["$ref"] === "string" ? /^#\/(?:\$defs|definitions)\/(.+)$/.exec(schema["$ref"])?.[1] : undefined;
  if (ref !== undefined && isObject(defs[ref])) return stripNulls(defs[ref], value, defs, depth + 1);
  if (Array.isArray(value))
    return isObject(schema["items"])
      ? value.map((item) => stripNulls(schema["items"] as Json, item, defs, depth + 1))
      : value;
  if (!isObject(value)) return value;
  const properties = isObject(schema["properties"]) ? schema["properties"] : {};
  const required = new Set<unknown>(Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : []);
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null && !required.has(key) && key in properties) continue;
    out[key] = isObject(properties[key]) ? stripNulls(properties[key], item, defs, depth + 1) : item;
  }
  return out;
}
