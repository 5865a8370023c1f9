// Reading JSON Schemas loosely, the way tools and elicitations write them.
import type { JsonSchema } from "../src/api.js";

/** The schema's main type (the first non-null one of a list). */
export function typeOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type) return type;
  if (schema.properties) return "object";
  if (schema.enum) return typeof schema.enum[0] === "number" ? "number" : "string";
  return undefined;
}

/** The choices of an `enum` or a `oneOf` of `const`s, with their labels. */
export function choicesOf(schema: JsonSchema): { value: unknown; label: string }[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema["enumNames"]) ? (schema["enumNames"] as string[]) : [];
    return schema.enum.map((value, i) => ({ value, label: names[i] ?? String(value) }));
  }
  for (const list of [schema.oneOf, schema["anyOf"]]) {
    if (
      Array.isArray(list) &&
      list.length > 0 &&
      list.every((o: unknown) => o !== null && typeof o === "object" && "const" in o)
    ) {
      return (list as { const: unknown; title?: string }[]).map((o) => ({
        value: o.const,
        label: o.title ?? String(o.const),
      }));
    }
  }
  return undefined;
}

/** The value a fresh form starts with: defaults, empty objects for nested objects, nothing else. */
export function initialValue(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (typeOf(schema) === "object" && schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(schema.properties)) {
      const value = initialValue(child);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return undefined;
}

/**
 * Whether an optional object was left out of the form: it has required fields and none has a value
 * (its defaults alone do not count). Its required fields are then not required, and it is not sent.
 */
function leftOut(schema: JsonSchema | undefined, value: unknown): boolean {
  if (typeOf(schema) !== "object" || !schema?.required?.length) return false;
  const object = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  return schema.required.every((key) => object[key] === undefined || object[key] === "");
}

/** `value` without the optional objects {@link leftOut} of the form (recursively), for sending. */
export function withoutLeftOut(schema: JsonSchema | undefined, value: unknown): unknown {
  if (!schema?.properties || !value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const child = schema.properties[key];
    if (!schema.required?.includes(key) && leftOut(child, v)) continue;
    out[key] = withoutLeftOut(child, v);
  }
  return out;
}

/** Required fields left empty, as dotted paths (`a`, `address.city`); an optional object left out asks nothing. */
export function missingRequired(schema: JsonSchema | undefined, value: unknown, path = ""): string[] {
  if (!schema || typeOf(schema) !== "object" || !schema.properties) return [];
  const object = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const missing: string[] = [];
  for (const [key, child] of Object.entries(schema.properties)) {
    const here = path ? `${path}.${key}` : key;
    const v = object[key];
    if (schema.required?.includes(key) && (v === undefined || v === "")) missing.push(here);
    else if (v !== undefined && (schema.required?.includes(key) || !leftOut(child, v)))
      missing.push(...missingRequired(child, v, here));
  }
  return missing;
}

/** Drops empty strings and `undefined` from objects, so an untouched optional field is not sent. */
export function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prune);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined && v !== "") out[key] = prune(v);
    return out;
  }
  return value;
}

/** The `{name}` variables of an RFC 6570 URI template (operators stripped). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([^}]+)\}/g)) {
    for (const part of match[1]!.replace(/^[+#./;?&]/, "").split(",")) {
      const name = part.replace(/[*]|:\d+$/g, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** Expands a URI template's simple and reserved expressions with the given values. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, body: string) => {
    const op = /^[+#./;?&]/.test(body) ? body[0]! : "";
    const names = (op ? body.slice(1) : body).split(",").map((n) => n.replace(/[*]|:\d+$/g, "").trim());
    const encode = (v: string): string => (op === "+" || op === "#" ? encodeURI(v) : encodeURIComponent(v));
    const parts = names
      .filter((n) => values[n] !== undefined && values[n] !== "")
      .map((n) => (op === "?" || op === "&" || op === ";" ? `${n}=${encode(values[n]!)}` : encode(values[n]!)));
    if (parts.length === 0) return "";
    const sep = op === "?" || op === "&" ? "&" : op === "." ? "." : op === "/" ? "/" : op === ";" ? ";" : ",";
    const prefix = op === "+" ? "" : op;
    return prefix + parts.join(sep);
  });
}
