// When a request matches a recorded one, and which recorded one is closest when none does.
import { editDistance, redactJson } from "@mcp/jsonrpc/internal";

/** The parts of a recorded client message that matching reads. */
export interface Candidate {
  method: string;
  params: unknown;
  line: number;
}

/**
 * The params a match compares: without the top-level `_meta` (progress tokens, trace context and
 * the 2026-07-28 envelope differ from run to run), redacted as the recording was, absent as `{}`.
 */
export function comparedParams(params: unknown): unknown {
  if (params === undefined || params === null) return {};
  if (typeof params !== "object" || Array.isArray(params)) return redactJson(params);
  const rest: Record<string, unknown> = { ...(params as Record<string, unknown>) };
  delete rest["_meta"];
  return redactJson(rest);
}

/** JSON with object keys sorted, so two equal values always give the same text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * What a request must equal to be answered by a recorded one: its method and params as
 * {@link comparedParams} gives them. `initialize` matches by its method alone: a host under test has
 * its own name, version and capabilities, and the recorded server answers it as it answered then.
 */
export function matchKey(method: string, params: unknown): string {
  return method === "initialize" ? method : `${method} ${stableJson(comparedParams(params))}`;
}

/** Every leaf of a JSON value by its path, for counting differences. */
function leaves(value: unknown, path: string, into: Map<string, string>): Map<string, string> {
  if (
    typeof value === "object" &&
    value !== null &&
    (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0)
  ) {
    for (const [key, item] of Object.entries(value)) leaves(item, `${path}/${key}`, into);
  } else {
    into.set(path, stableJson(value));
  }
  return into;
}

/** How many leaves of two params differ (missing on one side, or another value). */
export function paramsDistance(a: unknown, b: unknown): number {
  const left = leaves(comparedParams(a), "", new Map());
  const right = leaves(comparedParams(b), "", new Map());
  let count = 0;
  for (const [path, value] of left) if (right.get(path) !== value) count++;
  for (const path of right.keys()) if (!left.has(path)) count++;
  return count;
}

/**
 * The recorded request closest to one that matched none: among those of the same method, the one
 * whose params differ in the fewest places; when no recorded request has the method, the nearest
 * method by spelling, then its closest params. The earliest wins a tie.
 */
export function closestOf<T extends Candidate>(
  candidates: readonly T[],
  method: string,
  params: unknown,
): T | undefined {
  let best: T | undefined;
  let bestScore = Infinity;
  const sameMethod = candidates.some((candidate) => candidate.method === method);
  for (const candidate of candidates) {
    if (sameMethod && candidate.method !== method) continue;
    const score =
      (sameMethod ? 0 : editDistance(candidate.method, method) * 1000) + paramsDistance(candidate.params, params);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** A request as one line for an error message: its method and compared params, cut at `max` characters. */
export function describeRequest(method: string, params: unknown, max = 300): string {
  const text = `${method} ${stableJson(comparedParams(params))}`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
