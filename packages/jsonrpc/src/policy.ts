// The redirect policy and the proxy-environment policy of `@mcp/transport-http` and `@mcp/lite`,
// written once so that a security rule cannot drift between two copies. Pure: no I/O, no Node
// built-ins (the environment is passed in), so browser bundles may load it. Reached through
// `@mcp/jsonrpc/internal` (outside semver).

/** The statuses that are redirects. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Redirects followed in a row, by default, before the last one is refused. */
export const MAX_REDIRECTS = 5;

/** One redirect answer to judge. */
export interface RedirectAnswer {
  /** The URL the caller configured: redirects are followed only within its origin. */
  configured: string | URL;
  /** The URL that answered with the redirect (`Location` is relative to it). */
  current: string | URL;
  /** The answer's `Location`; undefined when it does not say (a browser's opaque redirect). */
  location: string | undefined;
  status: number;
  /** The request's method: only a GET may follow a 301/302/303. */
  method: string;
  /** Redirects already followed in a row. */
  hops: number;
  /** Default {@link MAX_REDIRECTS}. */
  maxRedirects?: number | undefined;
}

/**
 * Where a redirect is followed, or why it is not (with its target, when it has one). The policy:
 * only to an http or https URL within the configured origin (so no header, credential or session
 * leaves for an origin the caller did not name, and no other origin's answer can pass for the
 * call's), a request other than GET only by 307/308 (301/302/303 would turn it into a GET without
 * its body, whose answer could settle a call that never ran), at most `maxRedirects` in a row.
 */
export function judgeRedirect(
  answer: RedirectAnswer,
): { follow: URL } | { refuse: string; target: string | undefined } {
  const { location, status, method, hops } = answer;
  if (location === undefined)
    return { refuse: "it does not say where it points (an opaque redirect)", target: undefined };
  let target: URL;
  try {
    target = new URL(location, answer.current);
  } catch {
    return { refuse: "it is not a valid URL", target: location };
  }
  const origin = new URL(answer.configured).origin;
  const maxRedirects = answer.maxRedirects ?? MAX_REDIRECTS;
  let refuse: string | undefined;
  if (target.protocol !== "http:" && target.protocol !== "https:")
    refuse = `it is not an http or https URL (${target.protocol})`;
  else if (target.origin !== origin)
    refuse = `it points to another origin (${target.origin}), and redirects are followed only within ${origin}; if you trust the new address, use it as the server's URL`;
  else if (method !== "GET" && status !== 307 && status !== 308)
    refuse = `a ${status} would turn the ${method} into a GET without its body; only 307 and 308 are followed for a ${method}`;
  else if (hops >= maxRedirects) refuse = `more than ${maxRedirects} redirects in a row`;
  return refuse === undefined ? { follow: target } : { refuse, target: target.href };
}

/** The message of the error for a redirect that is not followed (`location` already redacted by the caller, or undefined). */
export function redirectNotFollowedMessage(status: number, location: string | undefined, why: string): string {
  // A browser's opaque redirect has status 0: say what it was, not "HTTP 0".
  const head = status === 0 ? "HTTP redirect (the browser hides its status)" : `HTTP ${status}`;
  return `${head}: ${location === undefined ? "a redirect" : `a redirect to ${location}`}, not followed: ${why}`;
}

/** The proxy variables, in the order they are read (lower-case first, as curl reads them). `NO_PROXY` / `no_proxy` exempt hosts. */
export const PROXY_ENV_NAMES: readonly string[] = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"];

/** The environment, as far as the proxy policy reads it. */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** Whether the environment names a proxy at all. */
export function envNamesProxy(env: ProxyEnv): boolean {
  return PROXY_ENV_NAMES.some((name) => Boolean(env[name]));
}

/**
 * The proxy a request with this protocol goes through as the environment says, ignoring
 * `NO_PROXY`: `https_proxy`/`HTTPS_PROXY` for https (else the http one), `http_proxy`/`HTTP_PROXY` for http.
 */
export function envProxyFor(protocol: string, env: ProxyEnv): string | undefined {
  const http = env["http_proxy"] || env["HTTP_PROXY"] || undefined;
  return protocol === "https:" ? env["https_proxy"] || env["HTTPS_PROXY"] || http : http;
}

/** Everything in the environment that decides the proxy (the variables and `NO_PROXY`), as one string: a key for a proxied client. */
export function proxyEnvKey(env: ProxyEnv): string {
  return `${PROXY_ENV_NAMES.map((name) => env[name] ?? "").join("\n")}\n${env["no_proxy"] ?? env["NO_PROXY"] ?? ""}`;
}

/**
 * A proxy URL (`proxy` of a config, or `HTTPS_PROXY` and its kind), or what is wrong with it: it
 * must be an http or https URL. The sentence names `field` and never the URL (it may hold a password).
 */
export function parseProxyUrl(value: unknown, field = "proxy"): URL | string {
  if (typeof value !== "string") return `"${field}" must be a proxy URL (or false for none)`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${field}" is not a valid proxy URL`;
  }
  return url.protocol === "http:" || url.protocol === "https:"
    ? url
    : `"${field}" must be an http or https proxy URL, got ${url.protocol}`;
}
