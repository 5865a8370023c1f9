// Bun: its own `fetch`, which reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY itself and takes a proxy
// per request (Bun's "undici" module is a partial shim, so undici's agents cannot be used).
// Loaded through `#platform` (the "bun" condition).

/** Proxies are honoured here. */
export const NODE_NETWORK: boolean = true;

/** Bun's `fetch`, through `proxy` when one is given (the environment's proxy otherwise, as Bun reads it). */
export function proxiedFetch(proxy: string | undefined): Promise<typeof fetch> {
  if (proxy === undefined) return Promise.resolve(globalThis.fetch);
  return Promise.resolve((input, init) => globalThis.fetch(input, { ...init, proxy } as RequestInit));
}
