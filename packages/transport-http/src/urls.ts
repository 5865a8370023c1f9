import { parseProxyUrl as sharedParseProxyUrl } from "@mcp/jsonrpc/internal";

// The URLs a config holds: the server's, and a proxy's.

/**
 * The `url` of an HTTP server config as a URL, or what is wrong with it (a sentence naming
 * `"url"`): it must be a string, parse, and be http or https. The transport and `@mcp/client`'s
 * config check both ask this, so a config file and code hear the same words.
 */
export function parseHttpUrl(value: unknown): URL | string {
  if (typeof value !== "string") return '"url" must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"url" is not a valid URL: ${JSON.stringify(value)}`;
  }
  return url.protocol === "http:" || url.protocol === "https:"
    ? url
    : `"url" must be http or https, got ${url.protocol}`;
}

/**
 * A proxy URL (`proxy` of a config, or `HTTPS_PROXY` and its kind), or what is wrong with it: it
 * must be an http or https URL. The sentence names `field` and never the URL (it may hold a password).
 * The proxy policy `@mcp/lite` shares (`@mcp/jsonrpc/internal`).
 */
export const parseProxyUrl: (value: unknown, field?: string) => URL | string = sharedParseProxyUrl;
