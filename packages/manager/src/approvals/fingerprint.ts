// What a project server will run, as hashes: an approval holds these, never the config itself.
import { createHash } from "node:crypto";
import type { MCPServerConfig } from "@mcp/client";
import { isShimCommand, unwrapShimConfig } from "../config/pool-text.js";

/**
 * What a project server will run, as hashes: an approval holds these, never the config itself
 * (env values and headers may be secrets). One hash per part, so a changed server can say which
 * part changed. Taken over the config as loaded — `${VAR}` expanded and `envFile` merged — since
 * that is what runs: a variable's new value, or a repository's `.env` that gains `NODE_OPTIONS`,
 * changes what runs as much as an edit of the config file does. An entry `mcp hosts pool` rewrote
 * to run through the shim has the fingerprint of its original: pooling asks for no new approval
 * (with the default shim `mcp`; an entry pooled with `--shim <other program>` is asked about again).
 */
export type Fingerprint = Record<string, string>;

/** Parts named in messages; everything else that decides what runs or where it connects is "other settings". */
const PARTS = ["command", "args", "cwd", "env", "url", "headers", "headersHelper"] as const;

/**
 * Fields that bound clocks and sizes only: changing them changes nothing that runs or is sent, so
 * they ask nothing. Every other field is covered, including ones added later (an unknown field
 * counts as "other settings", so a change asks again).
 */
const NOT_WHAT_RUNS = new Set([
  "timeout",
  "closeGraceMs",
  "killGraceMs",
  "maxLineBytes",
  "stderrTailBytes",
  "maxMessageBytes",
  "maxResumeAttempts",
  "defaultRetryMs",
  "headersHelperTtlMs",
  "serverName",
]);

/** JSON with object keys sorted at every level, `undefined` dropped: equal configs give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function hash(salt: string, part: string, value: unknown): string {
  return createHash("sha256")
    .update(salt)
    .update("\0")
    .update(part)
    .update("\0")
    .update(canonical(value))
    .digest("base64url");
}

/** The fingerprint of what a server config will run, salted with the approvals file's own salt. */
export function fingerprintOf(config: MCPServerConfig, salt: string): Fingerprint {
  // A pooled entry (`mcp daemon stdio <name> … -- <command> [args…]`) runs what its original runs.
  // Only when the program in front is a shim itself (`mcp` or `mcp-shim` on PATH): a repository's own
  // program given the shim's words would otherwise run under the original's approval.
  if ("command" in config && isShimCommand(config.command)) config = unwrapShimConfig(config) ?? config;
  const fields: Record<string, unknown> = { ...(config as unknown as Record<string, unknown>) };
  // `type` omitted and `"stdio"` run the same thing.
  if ("command" in config && fields["type"] === undefined) fields["type"] = "stdio";
  const out: Fingerprint = {};
  const other: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || NOT_WHAT_RUNS.has(key) || typeof value === "function") continue;
    if ((PARTS as readonly string[]).includes(key)) out[key] = hash(salt, key, value);
    else other[key] = value;
  }
  out["other"] = hash(salt, "other", other);
  return out;
}

/** The parts that differ between an approved fingerprint and the current one, in words ("command", "env", "other settings"); empty when equal. */
export function changedParts(approved: Fingerprint, now: Fingerprint): string[] {
  const keys = new Set([...Object.keys(approved), ...Object.keys(now)]);
  return [...keys].filter((key) => approved[key] !== now[key]).map((key) => (key === "other" ? "other settings" : key));
}

/** True for a value read from disk that has the shape of a fingerprint. */
export function isFingerprint(value: unknown): value is Fingerprint {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Record<string, unknown>)["other"] === "string" &&
    Object.values(value).every((item) => typeof item === "string")
  );
}
