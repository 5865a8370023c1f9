import { RegistryError } from "./errors.js";
import type { RegistryInput, RegistryInputWithVariables } from "./types.js";

/**
 * Filling a server's inputs (environment variables, headers, arguments, URL variables) for one
 * config entry. A value comes from the user's choices, else the registry's fixed `value`, else its
 * `default`; a secret is never a value: it becomes a `${NAME}` reference read from the environment
 * when the entry loads, as does a required input with no value. Optional inputs with nothing to
 * put in are left out (and reported).
 */

/** One input the entry refers to (`${name}`), or one left out. */
export interface RegistryVariable {
  /** The environment variable the entry reads (`${name}`), or would. */
  name: string;
  /** What it fills, in words: `environment variable API_KEY`, `header Authorization`, `URL variable host`, `argument --port`. */
  input: string;
  required: boolean;
  secret: boolean;
  description?: string | undefined;
  default?: string | undefined;
  choices?: string[] | undefined;
  /** False for an optional input with no value, which the entry leaves out. */
  inEntry: boolean;
}

/** A value given for an input: a list only for a repeated argument. */
export type RegistryValue = string | string[];

/** `weather-api` + `X-Key` → `WEATHER_API_X_KEY`: a name `${…}` accepts. */
export function variableName(...parts: string[]): string {
  const name = parts
    .map((part) => part.toUpperCase().replace(/[^A-Z0-9]+/g, "_"))
    .join("_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
  return /^[0-9]/.test(name) || name === "" ? `_${name}` : name;
}

const REFERENCE = /\$\{([^}]*)\}/g;

/** Fills inputs, remembering the references it made and the values it used. */
export class InputFiller {
  readonly variables = new Map<string, RegistryVariable>();
  readonly used = new Set<string>();
  /** Every `${…}` this filler wrote, and those in the user's own values: no other may reach the entry. */
  readonly references = new Set<string>();

  constructor(
    private readonly prefix: string,
    private readonly values: ReadonlyMap<string, RegistryValue>,
  ) {}

  /** The name of a reference made for `raw` (an environment variable keeps its own name). */
  refName(raw: string, own = false): string {
    return own ? raw : variableName(this.prefix, raw);
  }

  /** The user's value for the first of `keys` that has one. */
  given(keys: readonly string[], label: string, repeated = false): RegistryValue | undefined {
    for (const key of keys) {
      const value = this.values.get(key);
      if (value === undefined) continue;
      this.used.add(key);
      if (Array.isArray(value) && !repeated)
        throw new RegistryError("invalid_value", `${label} takes one value, got ${value.length}`);
      for (const item of Array.isArray(value) ? value : [value])
        for (const match of item.matchAll(REFERENCE)) this.references.add(match[0]);
      return value;
    }
    return undefined;
  }

  private reference(name: string, fallback?: string): string {
    // A default with `}` or `$` cannot sit inside `${NAME:-…}`: the reference then has none.
    const text = fallback !== undefined && !/[}$]/.test(fallback) ? `\${${name}:-${fallback}}` : `\${${name}}`;
    this.references.add(text);
    return text;
  }

  private note(variable: RegistryVariable): void {
    const known = this.variables.get(variable.name);
    // One name may serve two inputs; it stays required if either needs it.
    this.variables.set(
      variable.name,
      known
        ? { ...known, required: known.required || variable.required, inEntry: known.inEntry || variable.inEntry }
        : variable,
    );
  }

  /**
   * One input's value, or `undefined` to leave it out. `keys` are the names the user may give it
   * by; `ref` the variable a reference reads; `inside` when it is part of a template (where
   * nothing is left out: an optional variable with no value is empty); `given` a value the caller
   * already took from the user's (one of a repeated argument's).
   */
  fill(
    input: RegistryInputWithVariables,
    options: {
      keys: readonly string[];
      label: string;
      ref: string;
      secret?: boolean;
      inside?: boolean;
      given?: string;
    },
  ): string | undefined {
    const secret = input.isSecret === true || options.secret === true;
    const about = {
      input: options.label,
      secret,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.choices !== undefined ? { choices: input.choices } : {}),
    };
    const given = options.given ?? this.given(options.keys, options.label);
    if (typeof input.value === "string") {
      if (given !== undefined)
        throw new RegistryError(
          "invalid_value",
          `${options.label} has a value set by the registry; it is not yours to change`,
        );
      // A fixed secret is still a secret: read from the environment, never written.
      if (secret && !/\{[^{}]+\}/.test(input.value)) return this.required(options.ref, about);
      return this.template(input.value, input.variables, { label: options.label, secret });
    }
    if (given !== undefined) {
      const value = given as string;
      if (secret)
        throw new RegistryError(
          "secret_value",
          `${options.label} is a secret: it is never written to a config file. Set ${options.ref} in the environment instead; the entry reads it as \${${options.ref}}`,
        );
      if (input.choices?.length && !input.choices.includes(value))
        throw new RegistryError(
          "invalid_value",
          `${options.label} must be one of ${input.choices.join(", ")}; got ${JSON.stringify(value)}`,
        );
      return value;
    }
    if (typeof input.default === "string") {
      if (!secret) return input.default;
      this.note({ name: options.ref, required: false, default: input.default, inEntry: true, ...about });
      return this.reference(options.ref, input.default);
    }
    if (input.isRequired === true) return this.required(options.ref, about);
    if (options.inside) return "";
    this.note({ name: options.ref, required: false, inEntry: false, ...about });
    return undefined;
  }

  private required(ref: string, about: Omit<RegistryVariable, "name" | "required" | "inEntry">): string {
    this.note({ name: ref, required: true, inEntry: true, ...about });
    return this.reference(ref);
  }

  /** A `value` with `{name}` placeholders filled from `variables` (unknown ones stay as written). */
  template(
    value: string,
    variables: Record<string, RegistryInput> | undefined,
    options: { label: string; secret: boolean },
  ): string {
    return value.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
      const variable = variables?.[name];
      if (variable === undefined || typeof variable !== "object") return whole;
      return (
        this.fill(variable, {
          keys: [name],
          label: `variable {${name}} of ${options.label}`,
          ref: this.refName(name),
          secret: options.secret,
          inside: true,
        }) ?? ""
      );
    });
  }

  /** Refuses a `${…}` in what the entry will hold that nobody chose: the registry's text must not read the user's environment. */
  check(text: string, where: string): void {
    for (const match of text.matchAll(REFERENCE)) {
      if (!this.references.has(match[0]))
        throw new RegistryError(
          "invalid_server",
          `${where} holds ${JSON.stringify(match[0])}, which the config would fill from your environment; refused`,
        );
    }
  }
}
