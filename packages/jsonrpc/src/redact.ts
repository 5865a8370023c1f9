/**
 * Keeping secrets out of logs: `console.log(transport)` or `console.log(connection)` must not print
 * an `Authorization` header or the env a server was given. Pure functions; no I/O.
 */

/** The key Node's `util.inspect` (and so `console.log`) reads a custom view from. */
export const inspectCustom: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never;

/** What a redacted value prints as. */
export const REDACTED = "[redacted]";

/** Header names whose values are credentials (matched case-insensitively, also inside longer names). */
const CREDENTIAL_HEADER = /authorization|cookie|token|secret|password|passwd|api[-_]?key|x-api|session|credential|auth/i;

/** True for a header whose value must not be printed. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

/** A copy of `headers` with every credential header's value replaced by `[redacted]`. */
export function redactHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isCredentialHeader(name) ? REDACTED : value;
  return out;
}

/** A copy of `env` with every value replaced by `[redacted]` (names stay: they say what was set). */
export function redactEnv(env: Record<string, string> | undefined): Record<string, string> | undefined {
  if (env === undefined) return undefined;
  return Object.fromEntries(Object.keys(env).map((name) => [name, REDACTED]));
}

/** A server config fit for a log: `headers`, `env`, `parentEnv` and `oauth.clientSecret` redacted, the password and token-like query values of `url` and `proxy` hidden. */
export function redactConfig<T extends object>(config: T): T {
  const copy: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  if (typeof copy["headers"] === "object" && copy["headers"] !== null) copy["headers"] = redactHeaders(copy["headers"] as Record<string, string>);
  if (typeof copy["env"] === "object" && copy["env"] !== null) copy["env"] = redactEnv(copy["env"] as Record<string, string>);
  if (typeof copy["parentEnv"] === "object" && copy["parentEnv"] !== null) copy["parentEnv"] = redactEnv(copy["parentEnv"] as Record<string, string>);
  if (typeof copy["url"] === "string") copy["url"] = redactUrl(copy["url"]);
  if (typeof copy["proxy"] === "string") copy["proxy"] = redactUrl(copy["proxy"]);
  if (copy["authProvider"] !== undefined) copy["authProvider"] = REDACTED;
  const oauth = copy["oauth"];
  if (typeof oauth === "object" && oauth !== null && "clientSecret" in oauth) copy["oauth"] = { ...oauth, clientSecret: REDACTED };
  return copy as T;
}

/** A URL with its password and credential-looking query values hidden. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const key of [...parsed.searchParams.keys()]) if (isCredentialHeader(key) || /^key$/i.test(key)) parsed.searchParams.set(key, REDACTED);
  return parsed.href;
}
