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
  return url.protocol === "http:" || url.protocol === "https:" ? url : `"url" must be http or https, got ${url.protocol}`;
}

/**
 * A proxy URL (`proxy` of a config, or `HTTPS_PROXY` and its kind), or what is wrong with it: it
 * must be an http or https URL. The sentence names `field` and never the URL (it may hold a password).
 */
export function parseProxyUrl(value: unknown, field = "proxy"): URL | string {
  if (typeof value !== "string") return `"${field}" must be a proxy URL (or false for none)`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${field}" is not a valid proxy URL`;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : `"${field}" must be an http or https proxy URL, got ${url.protocol}`;
}
