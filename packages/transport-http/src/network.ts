// `createHttpFetch`: a `fetch` on the transport's network path (proxy, CA), for OAuth discovery, registration and tokens.
/** The network options of an HTTP server (proxy, CA), outside a transport. */
export interface HttpNetworkOptions {
  /** A forward proxy URL for this server, or `false` for none; unset: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`. */
  proxy?: string | false | undefined;
  /** A PEM file of CA certificates to trust for this server, besides Node's own and `NODE_EXTRA_CA_CERTS`. */
  ca?: string | undefined;
  /** Names the server in errors. */
  serverName?: string | undefined;
}

/**
 * A `fetch` that goes the way the transport's requests go — through the server's `proxy` or the
 * environment's, trusting its `ca` — for the requests around a session (OAuth discovery,
 * registration, tokens). On Node it is undici's `fetch` on a dispatcher of its own, made on first
 * use; elsewhere the global `fetch` (the browser's own proxy settings apply there).
 */
export function createHttpFetch(options: HttpNetworkOptions = {}): typeof fetch {
  let made: Promise<typeof fetch> | undefined;
  return (input, init) => {
    made ??= import("#platform").then((platform) => platform.networkFetch(options));
    return made.then((proxied) => proxied(input, init));
  };
}
