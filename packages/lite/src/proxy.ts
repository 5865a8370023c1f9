import { ProxyError, proxyRefusalStatus } from "@mcp/jsonrpc";
import { NODE_NETWORK, proxiedFetch } from "#platform";

/**
 * A company proxy for `callMCP` on Node and Deno: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`
 * (lower-case names first), or the call's own `proxy`, through undici's proxy agents — the same
 * path as `@mcp/transport-http`. Node's built-in `fetch` (before Node 24's `NODE_USE_ENV_PROXY`)
 * ignores those variables. On Bun, Bun's own `fetch` (which reads them itself). Elsewhere
 * (browsers, workers) and when no proxy applies, the global `fetch` as it is; a proxy URL is
 * refused there.
 */

const PROXY_ENV = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"] as const;

type Fetch = typeof fetch;

/** One dispatcher per proxy setting, kept for the process (its idle connections do not keep it alive). */
const proxied = new Map<string, Promise<Fetch>>();

/** The proxy a request to `url` goes through as the environment says, ignoring `NO_PROXY`. */
function envProxy(url: URL): string | undefined {
  const env = process.env;
  const http = env["http_proxy"] || env["HTTP_PROXY"] || undefined;
  return url.protocol === "https:" ? env["https_proxy"] || env["HTTPS_PROXY"] || http : http;
}

/** The `fetch` for one call: the caller's, a proxied one, or the global one. */
export function fetchFor(url: string, proxy: string | false | undefined): Fetch | Promise<Fetch> {
  if (proxy === false) return fetch;
  if (!NODE_NETWORK) return typeof proxy === "string" ? proxiedFetch(proxy) : fetch; // a URL is refused there, clearly
  if (proxy === undefined && !PROXY_ENV.some((name) => process.env[name])) return fetch;
  // Keyed by the setting: a changed environment gets an agent of its own.
  const key = proxy ?? `env:${PROXY_ENV.map((name) => process.env[name] ?? "").join("\n")}\n${process.env["no_proxy"] ?? process.env["NO_PROXY"] ?? ""}`;
  let found = proxied.get(key);
  if (found === undefined) {
    found = proxiedFetch(proxy);
    proxied.set(key, found);
  }
  return found;
}

/** A proxy's refusal (407, a refused CONNECT) as a {@link ProxyError}, or undefined. */
export function proxyErrorOf(url: string, proxy: string | false | undefined, error: unknown): ProxyError | undefined {
  if (proxy === false || !NODE_NETWORK) return undefined;
  const status = proxyRefusalStatus(error);
  if (status === undefined) return undefined;
  const used = proxy ?? envProxy(new URL(url));
  return used === undefined ? undefined : new ProxyError(url, used, { status, cause: error });
}
