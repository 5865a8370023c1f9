// The boundary check of list results: a server's `tools/list`, `prompts/list`, `resources/list`
// and `resources/templates/list` items are untrusted input. An item that is not an object, or
// whose fields have the wrong types, is dropped (the rest are kept) and named in one warning, so
// nothing above (task support, adapters, the manager's cache) dereferences `null.name`.
import { InvalidResultError } from "./stateless.js";

/** The list methods whose items are checked, and the result key that holds the items. */
export const LIST_ITEM_KEYS: ReadonlyMap<string, string> = new Map([
  ["tools/list", "tools"],
  ["prompts/list", "prompts"],
  ["resources/list", "resources"],
  ["resources/templates/list", "resourceTemplates"],
]);

type Item = Record<string, unknown>;

const isObject = (value: unknown): value is Item =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function optionalString(item: Item, field: string): string | undefined {
  return item[field] === undefined || typeof item[field] === "string" ? undefined : `"${field}" must be a string`;
}

function optionalObject(item: Item, field: string): string | undefined {
  return item[field] === undefined || isObject(item[field]) ? undefined : `"${field}" must be an object`;
}

function requiredString(item: Item, field: string): string | undefined {
  return typeof item[field] === "string" && item[field] !== "" ? undefined : `"${field}" must be a non-empty string`;
}

function promptArguments(item: Item): string | undefined {
  const args = item["arguments"];
  if (args === undefined) return undefined;
  if (!Array.isArray(args) || !args.every((arg) => isObject(arg) && typeof arg["name"] === "string"))
    return '"arguments" must be a list of objects with a string "name"';
  return undefined;
}

/** What is wrong with one item of each list, or undefined when it is usable. */
const CHECKS: Readonly<Record<string, (item: Item) => string | undefined>> = {
  tools: (item) =>
    requiredString(item, "name") ??
    (isObject(item["inputSchema"]) ? undefined : '"inputSchema" must be an object') ??
    optionalObject(item, "outputSchema") ??
    optionalObject(item, "annotations") ??
    optionalObject(item, "execution") ??
    optionalString(item, "title") ??
    optionalString(item, "description"),
  prompts: (item) =>
    requiredString(item, "name") ??
    promptArguments(item) ??
    optionalString(item, "title") ??
    optionalString(item, "description"),
  resources: (item) =>
    requiredString(item, "uri") ??
    requiredString(item, "name") ??
    optionalString(item, "mimeType") ??
    optionalString(item, "title") ??
    optionalString(item, "description"),
  resourceTemplates: (item) =>
    requiredString(item, "uriTemplate") ??
    requiredString(item, "name") ??
    optionalString(item, "mimeType") ??
    optionalString(item, "title") ??
    optionalString(item, "description"),
};

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  return typeof value;
}

/**
 * The result of a list method with its malformed items dropped. `onDropped` is called once per
 * page that had any, with an {@link InvalidResultError} naming the server, the method and each
 * dropped item (its position, its name when it has one, and what is wrong). A result whose list is
 * not an array is returned as it is (pagination reads nothing from it).
 */
export function dropMalformedItems(
  server: string,
  method: string,
  result: unknown,
  onDropped: ((error: Error) => void) | undefined,
): unknown {
  const key = LIST_ITEM_KEYS.get(method);
  if (key === undefined || !isObject(result) || !Array.isArray(result[key])) return result;
  const check = CHECKS[key]!;
  const list = result[key] as unknown[];
  const kept: unknown[] = [];
  const dropped: string[] = [];
  list.forEach((item, index) => {
    const problem = isObject(item) ? check(item) : `${describe(item)}, not an object`;
    if (problem === undefined) {
      kept.push(item);
      return;
    }
    const label = isObject(item) && typeof item["name"] === "string" ? ` ("${item["name"]}")` : "";
    dropped.push(`#${index}${label}: ${problem}`);
  });
  if (dropped.length === 0) return result;
  onDropped?.(
    new InvalidResultError(
      `MCP server "${server}" sent ${dropped.length} malformed item${dropped.length === 1 ? "" : "s"} in ${method}, dropped (the other ${kept.length} kept): ${dropped.join("; ")}`,
    ),
  );
  return { ...result, [key]: kept };
}
