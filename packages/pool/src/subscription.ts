// A host's `resources/subscribe` and `resources/unsubscribe` on a 2025 upstream: the upstream is
// subscribed to a resource while any host is, and each host hears only its own.

import type { PoolHost } from "./types.js";
import type { Upstream } from "./upstream.js";

/** Subscribes (or unsubscribes) `host` to `uri` on `upstream`, asking the server only for the first (or last) host. */
export async function subscription(
  host: PoolHost & { readonly subscriptions: Set<string> },
  upstream: Upstream,
  method: string,
  uri: string,
  signal: AbortSignal,
): Promise<unknown> {
  const holders = upstream.subscriptions.get(uri) ?? new Set<PoolHost>();
  if (method === "resources/subscribe") {
    if (holders.size === 0) await upstream.request(method, { uri }, { signal, host });
    holders.add(host);
    upstream.subscriptions.set(uri, holders);
    host.subscriptions.add(uri);
  } else {
    holders.delete(host);
    host.subscriptions.delete(uri);
    if (holders.size === 0 && upstream.subscriptions.delete(uri))
      await upstream.request(method, { uri }, { signal, host });
  }
  return {};
}
