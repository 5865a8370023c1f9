/**
 * Variable expansion in config values: `${VAR}` and `${VAR:-default}` (Claude Code, our own
 * file), `${env:VAR}`, `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}`,
 * `${pathSeparator}` (Cursor, VS Code) and `${input:id}` (VS Code). An unset variable with no
 * default is an error naming it; nothing is ever executed.
 */

/** What expansion may read. */
export interface ExpandContext {
  env: Record<string, string | undefined>;
  home: string;
  workspace: string;
  separator: string;
  /** Values of `${input:id}` already resolved for this file. */
  inputs: Map<string, string>;
}

/** A variable with no value and no default. */
export class UnsetVariableError extends Error {
  constructor(readonly variable: string) {
    super(`environment variable "${variable}" is not set and has no default`);
    this.name = "UnsetVariableError";
  }
}

/** An `${input:id}` with no value. */
export class MissingInputError extends Error {
  constructor(readonly input: string) {
    super(`input "${input}" has no value; pass it with the "inputs" option`);
    this.name = "MissingInputError";
  }
}

const PATTERN = /\$\{([^}]*)\}/g;

/** The ids of every `${input:id}` in a value (strings, arrays and objects, deeply). */
export function inputsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    for (const match of value.matchAll(PATTERN)) {
      const body = match[1] ?? "";
      if (body.startsWith("input:")) found.add(body.slice("input:".length));
    }
  } else if (Array.isArray(value)) {
    for (const item of value) inputsIn(item, found);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) inputsIn(item, found);
  }
  return found;
}

/** Expands one string. Throws {@link UnsetVariableError} / {@link MissingInputError}. */
export function expandString(value: string, context: ExpandContext): string {
  return value.replace(PATTERN, (whole, body: string) => {
    if (body === "userHome") return context.home;
    if (body === "workspaceFolder") return context.workspace;
    if (body === "workspaceFolderBasename") return context.workspace.split(/[\\/]/).filter(Boolean).pop() ?? "";
    if (body === "pathSeparator" || body === "/") return context.separator;
    if (body.startsWith("input:")) {
      const id = body.slice("input:".length);
      const input = context.inputs.get(id);
      if (input === undefined) throw new MissingInputError(id);
      return input;
    }
    const name = body.startsWith("env:") ? body.slice("env:".length) : body;
    const fallback = name.indexOf(":-");
    const variable = fallback === -1 ? name : name.slice(0, fallback);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) return whole; // not a variable reference: left as written
    const set = context.env[variable];
    if (set !== undefined && set !== "") return set;
    if (fallback !== -1) return name.slice(fallback + 2);
    if (set !== undefined) return set;
    throw new UnsetVariableError(variable);
  });
}

/** Expands every string in a value (arrays and objects deeply; keys are left alone). */
export function expandDeep<T>(value: T, context: ExpandContext): T {
  if (typeof value === "string") return expandString(value, context) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => expandDeep(item, context)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandDeep(item, context)])) as T;
  }
  return value;
}
