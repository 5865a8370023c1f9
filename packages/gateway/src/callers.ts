// The callers file of `mcp serve --callers`: who may call, with which token, lists, rates and view.

import { InvalidConfigError } from "@mcp/client";
import type { ClaimRule } from "./oidc.js";
import { callerId, RESERVED_CALLER_NAMES, type Caller, type RateRule } from "./policy.js";

/** The names of a JSON object's own keys as written, duplicates included (JSON.parse keeps only the last). */
function keysAsWritten(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      // A top-level key is a string at depth 1 followed (after blanks) by a colon.
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1, end + 64)))
        keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      i = end;
    }
  }
  return keys;
}

const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  second: 1,
  m: 60,
  min: 60,
  minute: 60,
  h: 3600,
  hour: 3600,
  d: 86400,
  day: 86400,
};

/** `100/min` → 100 per 60 s (units: s, min, h, day, and their long names); undefined when it is not one. */
export function parseRate(text: string): { count: number; perSecond: number } | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const seconds = match
    ? (UNITS[match[2]!.toLowerCase().replace(/s$/, "")] ?? UNITS[match[2]!.toLowerCase()])
    : undefined;
  const count = match ? Number(match[1]) : NaN;
  return seconds !== undefined && count > 0 ? { count, perSecond: count / seconds } : undefined;
}

/** A problem in a file: `<file>: <what>` as the message, the file and the field (a dotted path) on the error. */
export function fileProblem(
  file: string,
  field: string | undefined,
  message: string,
  cause?: unknown,
): InvalidConfigError {
  return new InvalidConfigError(message, { file, field, cause });
}

/** A caller's `rate`/`burst` and `rates` as rules, or why they are wrong. */
function ratesOf(
  entry: Record<string, unknown>,
  where: string,
  fail: (field: string, message: string) => InvalidConfigError,
): RateRule[] | undefined {
  const rules: RateRule[] = [];
  const add = (pattern: string, spec: unknown, burst: unknown, field: string): void => {
    const rate = typeof spec === "string" ? parseRate(spec) : undefined;
    if (!rate) throw fail(field, `${where}: "${field}" must be a rate like "100/min" (per s, min, h or day)`);
    if (burst !== undefined && (typeof burst !== "number" || !Number.isInteger(burst) || burst < 1))
      throw fail("burst", `${where}: "burst" must be a whole number of 1 or more`);
    rules.push({
      pattern,
      perSecond: rate.perSecond,
      burst: burst ?? Math.max(1, Math.round(rate.count)),
      text: spec as string,
    });
  };
  if (entry["rate"] !== undefined) add("*", entry["rate"], entry["burst"], "rate");
  else if (entry["burst"] !== undefined) throw fail("burst", `${where}: "burst" needs a "rate"`);
  const per = entry["rates"];
  if (per !== undefined) {
    if (typeof per !== "object" || per === null || Array.isArray(per))
      throw fail(
        "rates",
        `${where}: "rates" must be an object of "<server>__<tool>" patterns and rates, { "crm__*": "10/min" }`,
      );
    for (const [pattern, spec] of Object.entries(per)) add(pattern, spec, undefined, `rates.${pattern}`);
  }
  return rules.length > 0 ? rules : undefined;
}

type Fail = (field: string | undefined, message: string) => InvalidConfigError;

/** The callers of a parsed file: name, entry and how to report a field of it; reserved names and non-objects refused. */
function* entriesOf(value: Record<string, unknown>, file: string): Generator<[string, Record<string, unknown>, Fail]> {
  for (const [name, entry] of Object.entries(value)) {
    const where = `${file}: caller "${name}"`;
    const fail: Fail = (field, message) => fileProblem(file, field === undefined ? name : `${name}.${field}`, message);
    if (RESERVED_CALLER_NAMES.has(name))
      throw fail(
        undefined,
        `${where}: the name is the gateway's own (${[...RESERVED_CALLER_NAMES].join(", ")}); choose another`,
      );
    if (typeof entry !== "object" || entry === null) throw fail(undefined, `${where}: expected an object`);
    yield [name, entry as Record<string, unknown>, fail];
  }
}

/** A caller entry's lists, rates and view, or why they are wrong. */
function profileOf(entry: Record<string, unknown>, where: string, fail: Fail): Omit<Caller, "id" | "name"> {
  const { allow, deny, view } = entry;
  for (const [field, list] of [
    ["allow", allow],
    ["deny", deny],
  ] as const) {
    if (list !== undefined && (!Array.isArray(list) || list.some((p) => typeof p !== "string")))
      throw fail(field, `${where}: "${field}" must be an array of strings`);
  }
  if (view !== undefined && typeof view !== "string") throw fail("view", `${where}: "view" must be the name of a view`);
  const rates = ratesOf(entry, where, fail);
  return {
    allow: allow as string[] | undefined,
    deny: deny as string[] | undefined,
    ...(rates ? { rates } : {}),
    ...(view === undefined ? {} : { view }),
  };
}

/**
 * The claim rules of a callers file, in the order written: an entry with `"claim": { "<claim>":
 * "<value>" }` instead of a token is the caller of an issuer's access token whose claim holds the
 * value (a word of `scope`, a member of `groups`), with the entry's lists, rates and view (see
 * `OidcOptions.rules`). Throws an `InvalidConfigError` naming the caller and field that is wrong.
 */
export function parseClaimRules(text: string, file: string): ClaimRule[] {
  const value = readObject(text, file);
  const rules: ClaimRule[] = [];
  for (const [name, entry, fail] of entriesOf(value, file)) {
    const claim = entry["claim"];
    if (claim === undefined) continue;
    const where = `${file}: caller "${name}"`;
    const pairs = typeof claim === "object" && claim !== null && !Array.isArray(claim) ? Object.entries(claim) : [];
    if (pairs.length !== 1 || typeof pairs[0]![1] !== "string" || pairs[0]![0] === "")
      throw fail("claim", `${where}: "claim" must name one claim and the value it must hold, { "groups": "admins" }`);
    rules.push({ claim: pairs[0]![0], value: pairs[0]![1], caller: { name, ...profileOf(entry, where, fail) } });
  }
  return rules;
}

/** A callers file's top-level object (names given twice refused), or why it is not one. */
function readObject(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fileProblem(file, undefined, `${file}: not JSON (${(error as Error).message})`, error);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw fileProblem(file, undefined, `${file}: expected an object of callers, { "<name>": { "token": "…" } }`);
  const seen = new Set<string>();
  for (const name of keysAsWritten(text)) {
    if (seen.has(name)) throw fileProblem(file, name, `${file}: caller "${name}" is named twice`);
    seen.add(name);
  }
  return value as Record<string, unknown>;
}

/**
 * Reads a callers file: `{ "<name>": { "token": "…", "allow": [...], "deny": [...], "rate": "100/min",
 * "burst": 20, "rates": { "crm__*": "10/min" }, "view": "support" } }`. Throws an
 * `InvalidConfigError` naming the file, the caller and the field that is wrong (`field`: `"<caller>.<field>"`); a name given twice, or one the gateway keeps for itself
 * ({@link RESERVED_CALLER_NAMES}), is refused. Entries with a `claim` instead of a token are
 * {@link parseClaimRules}' and left out here.
 */
export function parseCallers(text: string, file: string): Map<string, Caller> {
  const value = readObject(text, file);
  const byToken = new Map<string, Caller>();
  for (const [name, entry, fail] of entriesOf(value, file)) {
    const where = `${file}: caller "${name}"`;
    const { token } = entry;
    // A caller chosen by its token's claims (see parseClaimRules) has no token of its own.
    if (token === undefined && entry["claim"] !== undefined) continue;
    if (typeof token !== "string" || token.length < 16)
      throw fail("token", `${where}: "token" must be a string of at least 16 characters`);
    if (entry["claim"] !== undefined) throw fail("claim", `${where}: a caller has a "token" or a "claim", not both`);
    if (byToken.has(token)) throw fail("token", `${where}: its token is also another caller's`);
    byToken.set(token, { id: callerId(token), name, ...profileOf(entry, where, fail) });
  }
  return byToken;
}
