// The network of a browser, a worker or any other runtime without Node's modules: the global
// `fetch`, which follows the platform's own proxy settings and trust store. Loaded through
// `#platform` (package.json "imports") when the "node" export condition does not apply.
import { InvalidConfigError } from "@mcp/jsonrpc";
import { fetchPool, type ExchangePool, type FetchLike } from "./exchange.js";

/** What the Node network takes; here a proxy or a CA file cannot be honoured. */
interface NetworkOptions {
  proxy?: string | false | undefined;
  ca?: string | undefined;
  serverName?: string | undefined;
}

/** What this runtime cannot honour in `options` (a proxy URL, a CA file), as the error to give; or undefined. */
function nodeOnlyRefusal(options: NetworkOptions): InvalidConfigError | undefined {
  const field = typeof options.proxy === "string" ? "proxy" : options.ca !== undefined ? "ca" : undefined;
  if (field === undefined) return undefined;
  return new InvalidConfigError(
    `"${field}" needs Node (or Bun or Deno); here requests go through the platform's fetch, which uses the platform's own proxy and certificate settings. Remove "${field}" from this server's config.`,
    {
      serverName: options.serverName,
      field,
    },
  );
}

/** The pool a transport uses when no `fetch` is given: the global `fetch`. */
export function defaultPool(options: NetworkOptions): Promise<ExchangePool> {
  const refused = nodeOnlyRefusal(options);
  return refused ? Promise.reject(refused) : Promise.resolve(fetchPool(globalThis.fetch as FetchLike));
}

/** A `fetch` for the requests around a session: the global one. */
export function networkFetch(options: NetworkOptions): Promise<typeof fetch> {
  const refused = nodeOnlyRefusal(options);
  return refused ? Promise.reject(refused) : Promise.resolve((input, init) => globalThis.fetch(input, init));
}
