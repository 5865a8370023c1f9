// Browsers, workers and other runtimes without Node's modules: the global `fetch`, with the
// platform's own proxy settings. Loaded through `#platform` when the "node" condition does not apply.
import { InvalidConfigError } from "@mcp/jsonrpc";

/** Proxies cannot be honoured here. */
export const NODE_NETWORK: boolean = false;

/** Never called for `proxy: undefined` here; a proxy URL is refused with a clear error. */
export function proxiedFetch(proxy: string | undefined): Promise<typeof fetch> {
  return Promise.reject(
    new InvalidConfigError(
      `"proxy" (${proxy === undefined ? "from the environment" : "a URL"}) needs Node (or Bun or Deno); here calls go through the platform's fetch and its own proxy settings`,
      { field: "proxy" },
    ),
  );
}
