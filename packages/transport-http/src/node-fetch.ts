// The Node `fetch` behind `createHttpFetch`: undici on a dispatcher of its own, through the server's proxy and CA.
import { fetch as undiciFetch } from "undici";
import { dispatcherFor, proxyFailure, type NetworkOptions } from "./node-pool.js";

/**
 * A WHATWG `fetch` on the same network path as the transport (the server's proxy or the
 * environment's, its `ca`), for the requests around a session: OAuth discovery, registration and
 * tokens. A proxy's refusal is a {@link ProxyError}. Its connections end with `close()`.
 */
export async function proxiedFetch(
  options: NetworkOptions = {},
): Promise<{ fetch: typeof fetch; close(): Promise<void> }> {
  const { create, proxyFor } = await dispatcherFor(options);
  const dispatcher = create();
  const proxied = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    try {
      return await undiciFetch(url, { ...(init as object), dispatcher });
    } catch (error) {
      const proxy = proxyFor(url);
      throw (
        (proxy !== undefined &&
          proxyFailure(url, proxy, (error as { cause?: unknown }).cause ?? error, options.serverName)) ||
        error
      );
    }
  };
  return { fetch: proxied, close: () => dispatcher.close() };
}
