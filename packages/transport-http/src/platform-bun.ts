// The network on Bun: Bun's own `fetch`. Bun's "undici" module is a partial shim (no
// `Dispatcher.request`), so the Node pool cannot run there. Bun's `fetch` reads HTTPS_PROXY /
// HTTP_PROXY / NO_PROXY itself and takes a proxy and CA certificates per request. Loaded through
// `#platform` (package.json "imports", the "bun" condition).
import { readFile } from "node:fs/promises";
import { rootCertificates } from "node:tls";
import { InvalidConfigError } from "@mcp/jsonrpc";
import { fetchPool, type ExchangePool, type FetchLike } from "./exchange.js";
import type { NetworkOptions } from "./node-pool.js";

async function bunFetch(options: NetworkOptions): Promise<typeof fetch> {
  let ca: string[] | undefined;
  if (options.ca !== undefined) {
    try {
      // Beside the usual roots, as on Node.
      ca = [...rootCertificates, await readFile(options.ca, "utf8")];
    } catch (cause) {
      throw new InvalidConfigError(`"ca" cannot be read: ${(cause as Error).message}`, {
        serverName: options.serverName,
        field: "ca",
        cause,
      });
    }
  }
  const extra = {
    ...(typeof options.proxy === "string" ? { proxy: options.proxy } : {}),
    ...(ca ? { tls: { ca } } : {}),
  };
  return (input, init) => globalThis.fetch(input, { ...init, ...extra });
}

/** The pool a transport uses when no `fetch` is given: Bun's `fetch` with the server's proxy and CA. */
export async function defaultPool(options: NetworkOptions): Promise<ExchangePool> {
  return fetchPool((await bunFetch(options)) as FetchLike);
}

/** A `fetch` on the transport's network path. */
export async function networkFetch(options: NetworkOptions): Promise<typeof fetch> {
  return bunFetch(options);
}
