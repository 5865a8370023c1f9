/**
 * Keeping secrets out of logs: `console.log(transport)` or `console.log(connection)` must not print
 * an `Authorization` header or the env a server was given. Pure functions; no I/O.
 */

/** The key Node's `util.inspect` (and so `console.log`) reads a custom view from. */
export const inspectCustom: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never;

/** What a redacted value prints as. */
export const REDACTED = "[redacted]";

/** Header names whose values are credentials (matched case-insensitively, also inside longer names). */
const CREDENTIAL_HEADER =
  /authorization|cookie|token|secret|password|passwd|api[-_]?key|x-api|session|credential|auth/i;

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
  if (typeof copy["headers"] === "object" && copy["headers"] !== null)
    copy["headers"] = redactHeaders(copy["headers"] as Record<string, string>);
  if (typeof copy["env"] === "object" && copy["env"] !== null)
    copy["env"] = redactEnv(copy["env"] as Record<string, string>);
  if (typeof copy["parentEnv"] === "object" && copy["parentEnv"] !== null)
    copy["parentEnv"] = redactEnv(copy["parentEnv"] as Record<string, string>);
  if (typeof copy["url"] === "string") copy["url"] = redactUrl(copy["url"]);
  if (typeof copy["proxy"] === "string") copy["proxy"] = redactUrl(copy["proxy"]);
  if (copy["authProvider"] !== undefined) copy["authProvider"] = REDACTED;
  const oauth = copy["oauth"];
  if (typeof oauth === "object" && oauth !== null && "clientSecret" in oauth)
    copy["oauth"] = { ...oauth, clientSecret: REDACTED };
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
  for (const key of [...parsed.searchParams.keys()])
    if (isCredentialHeader(key) || /^key$/i.test(key)) parsed.searchParams.set(key, REDACTED);
  return parsed.href;
}

/** Keys that look like credentials and are protocol bookkeeping instead: their values are kept. */
const BOOKKEEPING_KEYS = new Set(["progressToken"]);

/** Objects nested deeper than this are replaced whole by `[redacted]` (no message needs more; no stack is blown). */
const MAX_REDACT_DEPTH = 128;

/** URLs in a text (up to a space, a quote or an angle bracket). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
/** What {@link redactUrl} puts in a URL, as the URL encodes it. */
const HIDDEN_IN_URL = encodeURIComponent(REDACTED);

/** `text` with the password and credential query values of each URL in it hidden; other URLs stay as written. */
function redactUrlsIn(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (url) => {
    const hidden = redactUrl(url);
    return hidden.includes(HIDDEN_IN_URL) ? hidden : url;
  });
}

/**
 * A copy of a JSON value (a JSON-RPC message, a tool's arguments) fit for a log or a recording:
 * a string or number under a key that names a credential (as {@link isCredentialHeader} judges
 * the key: `token`, `apiKey`, `password`, `authorization`, …) becomes `[redacted]`, and each URL
 * in a string has its password and credential query values hidden ({@link redactUrl}). Objects
 * and arrays are walked, so shapes stay (a schema's `properties.token` is still a schema);
 * `progressToken` is kept (bookkeeping, not a secret). The same input always gives the same
 * output, so two redacted messages can be compared. `value` is not changed.
 */
export function redactJson(value: unknown): unknown {
  return redactValue(value, undefined, 0);
}

function redactValue(value: unknown, key: string | undefined, depth: number): unknown {
  if (typeof value === "string") {
    if (key !== undefined && isCredentialHeader(key) && !BOOKKEEPING_KEYS.has(key)) return REDACTED;
    return redactUrlsIn(value);
  }
  if (typeof value === "number")
    return key !== undefined && isCredentialHeader(key) && !BOOKKEEPING_KEYS.has(key) ? REDACTED : value;
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_REDACT_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, key, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    // A parsed "__proto__" key is an own property; assigning it would set the copy's prototype.
    if (name === "__proto__")
      Object.defineProperty(copy, name, {
        value: redactValue(item, name, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[name] = redactValue(item, name, depth + 1);
  }
  return copy;
}
