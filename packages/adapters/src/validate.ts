import { Validator, type OutputUnit } from "@cfworker/json-schema";

// Arguments checked against the server's own schema before a call (the provider may have had a
// simpler one), so a model's mistake comes back to it as a tool error that names the field,
// instead of reaching the server. @cfworker/json-schema interprets the schema: no code is
// generated, so it runs where `eval` is refused (Workers, strict CSP).

const validators = new WeakMap<object, Validator>();

/** Why `args` do not fit `schema` (naming the field), or undefined when they do. */
export function argumentProblem(schema: unknown, args: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  let validator = validators.get(schema);
  if (!validator) {
    const declared = (schema as { $schema?: unknown }).$schema;
    const draft = typeof declared === "string" && /draft-0?7/.test(declared) ? "7" : typeof declared === "string" && /draft-0?4/.test(declared) ? "4" : typeof declared === "string" && /2019-09/.test(declared) ? "2019-09" : "2020-12";
    try {
      validator = new Validator(schema, draft, false);
    } catch {
      return undefined; // a schema the validator cannot read: the server decides
    }
    validators.set(schema, validator);
  }
  const result = validator.validate(args);
  if (result.valid) return undefined;
  // The most specific error: the deepest location, then the first.
  const errors = result.errors.filter((e) => e.keyword !== "properties" && e.keyword !== "allOf" && e.keyword !== "$ref");
  const chosen = [...(errors.length > 0 ? errors : result.errors)].sort((a, b) => depth(b) - depth(a))[0]!;
  return `${fieldOf(chosen)}: ${chosen.error}`;
}

function depth(unit: OutputUnit): number {
  return unit.instanceLocation.split("/").length;
}

function fieldOf(unit: OutputUnit): string {
  const path = unit.instanceLocation.replace(/^#\/?/, "").split("/").filter(Boolean).map((part) => decodeURIComponent(part.replace(/~1/g, "/").replace(/~0/g, "~")));
  return path.length === 0 ? "the arguments" : `argument "${path.join(".")}"`;
}
