import { Validator, type OutputUnit } from "@cfworker/json-schema";

// The one JSON Schema check of tool arguments in the stack (the adapters before a call, the CLI's
// `mcp call`): arguments checked against the server's own schema, so a mistake comes back naming
// the field instead of reaching the server. A server's schema is untrusted input, so it is
// interpreted, never compiled to code: @cfworker/json-schema generates none, and so also runs
// where `eval` is refused (Workers, strict CSP).

const validators = new WeakMap<object, Validator>();

/** One way arguments do not fit a schema. */
export interface ArgumentIssue {
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, `additionalProperties`, …). */
  keyword: string;
  /** The argument's dotted path (`"from.x"`, `"tags.0"`); `""` for the arguments as a whole. */
  field: string;
  /** The validator's own sentence. */
  error: string;
  /** What a person reads: `missing required argument "b"`, `argument "a" must be number (got "two")`. */
  message: string;
}

function validatorFor(schema: object): Validator | undefined {
  let validator = validators.get(schema);
  if (!validator) {
    const declared = (schema as { $schema?: unknown }).$schema;
    const draft =
      typeof declared === "string" && /draft-0?7/.test(declared)
        ? "7"
        : typeof declared === "string" && /draft-0?4/.test(declared)
          ? "4"
          : typeof declared === "string" && /2019-09/.test(declared)
            ? "2019-09"
            : "2020-12";
    try {
      validator = new Validator(schema, draft, false);
    } catch {
      return undefined; // a schema the validator cannot read: the server decides
    }
    validators.set(schema, validator);
  }
  return validator;
}

/** The failing units, or undefined when the arguments fit (or the schema cannot be read: the server decides). */
function failures(schema: unknown, args: unknown): OutputUnit[] | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const validator = validatorFor(schema);
  if (!validator) return undefined;
  let result;
  try {
    result = validator.validate(args);
  } catch {
    return undefined; // e.g. a `$ref` to a document it does not have
  }
  return result.valid ? undefined : result.errors;
}

/** The schema keywords that only say "something below failed": the failure below says what. */
const WRAPPERS = new Set([
  "properties",
  "allOf",
  "$ref",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "patternProperties",
  "dependentSchemas",
  "if",
  "then",
  "else",
  "false",
]);

function pathOf(unit: OutputUnit): string[] {
  return unit.instanceLocation
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((part) => decodeURIComponent(part.replace(/~1/g, "/").replace(/~0/g, "~")));
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const part of path)
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

function issueOf(unit: OutputUnit, args: unknown): ArgumentIssue {
  const path = pathOf(unit);
  const field = path.join(".");
  const named = (key: string): string => [...path, key].join(".");
  let match: RegExpExecArray | null;
  if (unit.keyword === "required" && (match = /required property "(.*)"\.$/.exec(unit.error))) {
    return {
      keyword: unit.keyword,
      field: named(match[1]!),
      error: unit.error,
      message: `missing required argument "${named(match[1]!)}"`,
    };
  }
  if (unit.keyword === "additionalProperties" && (match = /^Property "(.*)" does not match/.exec(unit.error))) {
    return {
      keyword: unit.keyword,
      field: named(match[1]!),
      error: unit.error,
      message: `unknown argument "${named(match[1]!)}"`,
    };
  }
  if (unit.keyword === "type" && (match = /Expected "(.*)"\.$/.exec(unit.error))) {
    return {
      keyword: unit.keyword,
      field,
      error: unit.error,
      message: `argument "${field || "(root)"}" must be ${match[1]!.split('", "').join(" or ")} (got ${JSON.stringify(valueAt(args, path))})`,
    };
  }
  if (unit.keyword === "enum" && (match = /^Instance does not match any of (.*)\.$/.exec(unit.error))) {
    const allowed = JSON.parse(match[1]!) as unknown[];
    return {
      keyword: unit.keyword,
      field,
      error: unit.error,
      message: `argument "${field || "(root)"}" must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`,
    };
  }
  return { keyword: unit.keyword, field, error: unit.error, message: `argument "${field || "(root)"}": ${unit.error}` };
}

/**
 * Every way `args` do not fit `schema` (one issue per failing keyword, wrappers such as
 * `properties` and `$ref` left out when something below them says what failed); empty when they
 * fit, or when the schema cannot be read (the server decides). What `mcp call` reports.
 */
export function argumentIssues(schema: unknown, args: unknown): ArgumentIssue[] {
  const errors = failures(schema, args);
  if (!errors) return [];
  const specific = errors.filter((e) => !WRAPPERS.has(e.keyword));
  const issues = (specific.length > 0 ? specific : errors).map((unit) => issueOf(unit, args));
  const byMessage = new Map<string, ArgumentIssue>();
  for (const issue of issues) if (!byMessage.has(issue.message)) byMessage.set(issue.message, issue);
  return [...byMessage.values()];
}

/** Why `args` do not fit `schema` (naming the field), or undefined when they do: the most specific failure, for a model to read. */
export function argumentProblem(schema: unknown, args: unknown): string | undefined {
  const errors = failures(schema, args);
  if (!errors) return undefined;
  // The most specific error: the deepest location, then the first.
  const specific = errors.filter((e) => e.keyword !== "properties" && e.keyword !== "allOf" && e.keyword !== "$ref");
  const chosen = [...(specific.length > 0 ? specific : errors)].sort((a, b) => depth(b) - depth(a))[0]!;
  return `${fieldOf(chosen)}: ${chosen.error}`;
}

function depth(unit: OutputUnit): number {
  return unit.instanceLocation.split("/").length;
}

function fieldOf(unit: OutputUnit): string {
  const path = pathOf(unit);
  return path.length === 0 ? "the arguments" : `argument "${path.join(".")}"`;
}
