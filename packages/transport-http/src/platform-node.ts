// The network of a runtime with Node's modules (Node, and Bun and Deno, which resolve the "node"
// export condition too): undici's keep-alive pool, proxies from the config or the environment,
// private CAs. Loaded through `#platform` (package.json "imports"), so a browser or worker bundle
// never reaches undici or a Node built-in.
import type { ExchangePool } from "./exchange.js";
import type { NetworkOptions } from "./node-pool.js";

/** The pool a transport uses when no `fetch` is given. */
export async function defaultPool(options: NetworkOptions): Promise<ExchangePool> {
  return (await import("./node-pool.js")).undiciPool(options);
}

/** A `fetch` on the transport's network path (its proxy, its CA). */
export async function networkFetch(options: NetworkOptions): Promise<typeof fetch> {
  return (await (await import("./node-fetch.js")).proxiedFetch(options)).fetch;
}
