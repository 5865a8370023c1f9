import { InvalidConfigError, ProxyError } from "@mcp/jsonrpc";
import {
  envNamesProxy,
  envProxyFor,
  parseProxyUrl,
  PROXY_ENV_NAMES,
  proxyEnvKey,
  proxyRefusalStatus,
} from "@mcp/jsonrpc/internal";
import { NODE_NETWORK, proxiedFetch } from "#platform";

/**
 * A company proxy for `callMCP` on Node and Deno: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`
 * (lower-case names first), or the call's own `proxy`, through undici's proxy agents — the same
 * path as `@mcp/transport-http`. Node's built-in `fetch` (before Node 24's `NODE_USE_ENV_PROXY`)
 * ignores those variables. On Bun, Bun's own `fetch` (which reads them itself). Elsewhere
 * (browsers, workers) and when no proxy applies, the global `fetch` as it is; a proxy URL is
 * refused there. Which variable applies, and what a proxy URL must be, is `@mcp/transport-http`'s
 * policy, from one place (`@mcp/jsonrpc/internal`): a bad one is an `InvalidConfigError` naming
 * the option or the variable, in the transport's words.
 */

type Fetch = typeof fetch;

/** One dispatcher per proxy setting, kept for the process (its idle connections do not keep it alive). */
const proxied = new Map<string, Promise<Fetch>>();

/** A proxy URL that is not one, as the transport words it. */
function checkProxyUrl(value: unknown, field: string): void {
  const url = parseProxyUrl(value, field);
  if (typeof url === "string") throw new InvalidConfigError(url, { field });
}

/** The `fetch` for one call: the caller's, a proxied one, or the global one. */
export function fetchFor(url: string, proxy: string | false | undefined): Fetch | Promise<Fetch> {
  if (proxy === false) return fetch;
  if (!NODE_NETWORK) return typeof proxy === "string" ? proxiedFetch(proxy) : fetch; // a URL is refused there, clearly
  if (proxy === undefined && !envNamesProxy(process.env)) return fetch;
  if (proxy === undefined) {
    for (const name of PROXY_ENV_NAMES) if (process.env[name]) checkProxyUrl(process.env[name], name);
  } else {
    checkProxyUrl(proxy, "proxy");
  }
  // Keyed by the setting: a changed environment gets an agent of its own.
  const key = proxy ?? `env:${proxyEnvKey(process.env)}`;
  let found = proxied.get(key);
  if (found === undefined) {
    found = proxiedFetch(proxy);
    proxied.set(key, found);
  }
  return found;
}

/**
 * A proxy's refusal (407, a refused CONNECT) as a {@link ProxyError}; a proxy setting
 * {@link fetchFor} refused, as its `InvalidConfigError`; otherwise undefined.
 */
export function proxyErrorOf(
  url: string,
  proxy: string | false | undefined,
  error: unknown,
): ProxyError | InvalidConfigError | undefined {
  if (InvalidConfigError.isInstance(error)) return error;
  if (proxy === false || !NODE_NETWORK) return undefined;
  const status = proxyRefusalStatus(error);
  if (status === undefined) return undefined;
  const used = proxy ?? envProxyFor(new URL(url).protocol, process.env);
  return used === undefined ? undefined : new ProxyError(url, used, { status, cause: error });
}
