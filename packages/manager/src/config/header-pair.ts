// A header as a person writes it on a command line: `NAME=VALUE`, or `Name: value` as curl writes it.
/**
 * One `NAME=VALUE` header (or `Name: value` as curl writes it; whichever separator comes first),
 * both sides trimmed; undefined when the name is not an HTTP token (so the caller says which
 * value, and how it is written).
 *
 * @example
 * headerPair("Authorization: Bearer abc"); // ["Authorization", "Bearer abc"]
 * headerPair("no separator"); // undefined
 */
export function headerPair(value: string): [name: string, value: string] | undefined {
  const eq = value.indexOf("=");
  const colon = value.indexOf(":");
  const at = colon > 0 && (eq < 0 || colon < eq) ? colon : eq;
  const name = at > 0 ? value.slice(0, at).trim() : "";
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return undefined;
  return [name, value.slice(at + 1).trim()];
}
