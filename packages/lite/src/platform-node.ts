// A proxied `fetch` where Node's modules exist (Node, and Bun and Deno, which resolve the "node"
// export condition). Loaded through `#platform` (package.json "imports"); undici itself loads on
// the first proxied call only.

/** Proxies can be honoured here. */
export const NODE_NETWORK: boolean = true;

/** undici's `fetch` through `proxy`, or through the environment's proxy settings when it is undefined. */
export async function proxiedFetch(proxy: string | undefined): Promise<typeof fetch> {
  const undici = await import("undici");
  const dispatcher =
    proxy === undefined
      ? new undici.EnvHttpProxyAgent({ proxyTunnel: false })
      : new undici.ProxyAgent({ uri: proxy, proxyTunnel: false });
  return (input: string | URL | Request, init?: RequestInit) =>
    undici.fetch(input as never, { ...(init as object), dispatcher });
}
