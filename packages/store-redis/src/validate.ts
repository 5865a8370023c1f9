// Shapes of what the stores read back from Redis. Anyone who can write to the Redis can put
// anything under a key; a value that is not what a store wrote counts as absent, so it can never
// stop a replica from starting or hand the OAuth provider a token that is not a string.

import type { CachedTools } from "@mcp/manager";
import type { StoredCredentials } from "@mcp/oauth";

type Fields = Record<string, unknown>;

/** A plain object (not null, not a list). */
export function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isTime = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
/** Absent, or of the given kind. */
const optional =
  (check: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    value === undefined || check(value);

/** A tool as a server lists it: the fields the manager and the gateway read, of the right kinds. */
function isTool(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value["name"]) &&
    isObject(value["inputSchema"]) &&
    optional(isObject)(value["outputSchema"]) &&
    optional(isString)(value["title"]) &&
    optional(isString)(value["description"]) &&
    optional(isObject)(value["annotations"]) &&
    optional(isObject)(value["_meta"])
  );
}

/** Whether `value` is a tool-cache entry as the manager writes it. */
export function isCachedTools(value: unknown): value is CachedTools {
  return (
    isObject(value) &&
    Array.isArray(value["tools"]) &&
    value["tools"].every(isTool) &&
    isTime(value["savedAt"]) &&
    isTime(value["expiresAt"]) &&
    optional(isTime)(value["freshUntil"]) &&
    optional((scope) => scope === "public" || scope === "private")(value["cacheScope"]) &&
    optional((era) => era === "2025" || era === "2026-07-28")(value["era"])
  );
}

function isTokens(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value["accessToken"]) &&
    isString(value["tokenType"]) &&
    optional(isString)(value["refreshToken"]) &&
    optional(isTime)(value["expiresAt"]) &&
    optional(isString)(value["scope"])
  );
}

function isClient(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value["clientId"]) &&
    optional(isString)(value["clientSecret"]) &&
    isString(value["tokenEndpointAuthMethod"]) &&
    optional(isString)(value["redirectUri"])
  );
}

function isJwk(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value["kty"]) &&
    isString(value["crv"]) &&
    isString(value["x"]) &&
    isString(value["y"]) &&
    optional(isString)(value["d"])
  );
}

/** Whether `value` is OAuth credentials as a {@link TokenStore} keeps them. */
export function isStoredCredentials(value: unknown): value is StoredCredentials {
  return (
    isObject(value) &&
    isString(value["issuer"]) &&
    isString(value["resource"]) &&
    optional(isTime)(value["savedAt"]) &&
    optional(isClient)(value["client"]) &&
    optional(isTokens)(value["tokens"]) &&
    optional(isJwk)(value["dpopKey"])
  );
}
