// Views: a curated set of tools across servers, renamed and re-described, served at
// `<path>/view/<name>` and given to callers (`view` in the callers file). A call through a view
// goes to the real tool it names.

import type { InvalidConfigError } from "@mcp/client";
import { fileProblem } from "./callers.js";
import { matches, SEPARATOR } from "./policy.js";

/** A view as configured. */
export interface ViewConfig {
  /** Patterns of `<server>__<tool>` (as in allow lists): the tools the view shows. */
  tools: string[];
  /** `<server>__<tool>` → the name the view gives it. */
  rename?: Record<string, string> | undefined;
  /** The view's name of a tool → the description the view gives it. */
  describe?: Record<string, string> | undefined;
}

/** A view ready to serve: its names both ways. */
export interface View {
  name: string;
  tools: readonly string[];
  /** `<server>__<tool>` → the view's name. */
  names: ReadonlyMap<string, string>;
  /** The view's name → `<server>__<tool>` (renamed tools only). */
  real: ReadonlyMap<string, string>;
  describe: Readonly<Record<string, string>>;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Checks views from a config file (`where` is the file), returns them ready to serve; throws an
 * `InvalidConfigError` naming the file, the view and the field that is wrong (`field`:
 * `"views.<name>.<field>"`).
 */
export function parseViews(value: unknown, where: string): Map<string, View> {
  const views = new Map<string, View>();
  if (value === undefined) return views;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw fileProblem(where, "views", `${where}: "views" must be an object of views, { "<name>": { "tools": [...] } }`);
  for (const [name, config] of Object.entries(value)) {
    const at = `${where}: view "${name}"`;
    const fail = (field: string | undefined, message: string): InvalidConfigError =>
      fileProblem(where, field === undefined ? `views.${name}` : `views.${name}.${field}`, message);
    if (!NAME.test(name)) throw fail(undefined, `${at}: a view's name is letters, digits, "_", "-" and "." only`);
    const { tools, rename, describe } = (config ?? {}) as Partial<ViewConfig>;
    if (!Array.isArray(tools) || tools.some((t) => typeof t !== "string"))
      throw fail("tools", `${at}: "tools" must be an array of <server>__<tool> patterns`);
    const names = new Map<string, string>();
    const real = new Map<string, string>();
    for (const [field, map] of [
      ["rename", rename],
      ["describe", describe],
    ] as const) {
      if (
        map !== undefined &&
        (typeof map !== "object" ||
          map === null ||
          Array.isArray(map) ||
          Object.values(map).some((v) => typeof v !== "string"))
      )
        throw fail(field, `${at}: "${field}" must be an object of strings`);
    }
    for (const [from, to] of Object.entries(rename ?? {})) {
      if (!NAME.test(to) || to.includes(SEPARATOR))
        throw fail(
          `rename.${from}`,
          `${at}: rename of "${from}" to "${to}": a name is letters, digits, "_", "-" and "." only, with no "__"`,
        );
      if (real.has(to)) throw fail("rename", `${at}: two tools are renamed "${to}"`);
      names.set(from, to);
      real.set(to, from);
    }
    views.set(name, { name, tools, names, real, describe: describe ?? {} });
  }
  return views;
}

/** Whether the view shows `<server>__<tool>`. */
export function viewShows(view: View, server: string, tool: string): boolean {
  return view.tools.some((pattern) => matches(pattern, server, tool, false));
}

/** The view's name of `<server>__<tool>`: its rename, else the qualified name. */
export function viewName(view: View, server: string, tool: string): string {
  const qualified = `${server}${SEPARATOR}${tool}`;
  return view.names.get(qualified) ?? qualified;
}

/** The `<server>__<tool>` a view's name stands for (renamed, or already qualified). */
export function realName(view: View, name: string): string {
  return view.real.get(name) ?? name;
}
