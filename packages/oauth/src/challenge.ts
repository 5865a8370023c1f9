// Reading a `WWW-Authenticate: Bearer` challenge: its scope, error and resource metadata URL.
/** The parameters of a `Bearer` or `DPoP` challenge in `WWW-Authenticate` (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1). */
export interface BearerChallenge {
  /** The Protected Resource Metadata URL (`resource_metadata`). */
  resourceMetadata?: string | undefined;
  /** Space-separated scopes the request needs. */
  scope?: string | undefined;
  /** `invalid_token`, `insufficient_scope`, `use_dpop_nonce`, … */
  error?: string | undefined;
  errorDescription?: string | undefined;
  /** True when the server offers the `DPoP` scheme (RFC 9449): it takes DPoP-bound tokens. */
  dpop?: boolean | undefined;
  /** The proof algorithms a `DPoP` challenge names (`algs`), if it does. */
  dpopAlgorithms?: string[] | undefined;
}

/**
 * Reads the `Bearer` challenge of a `WWW-Authenticate` header, or the `DPoP` one when there is
 * no `Bearer` one: quoted or bare values, any case of the scheme and names, other schemes
 * ignored. Anything unreadable gives `{}`.
 */
export function parseBearerChallenge(header: string | undefined): BearerChallenge {
  if (header === undefined) return {};
  const bearer = paramsOf(header, "bearer");
  const dpop = paramsOf(header, "dpop");
  const params = bearer ?? dpop;
  if (!params) return {};
  return {
    resourceMetadata: params["resource_metadata"],
    scope: params["scope"],
    error: params["error"],
    errorDescription: params["error_description"],
    ...(dpop ? { dpop: true, dpopAlgorithms: dpop["algs"]?.split(" ").filter(Boolean) } : {}),
  };
}

/** The parameters of the header's challenge of `scheme` (lower case), or undefined without one. */
function paramsOf(header: string, scheme: string): Record<string, string> | undefined {
  const found = new RegExp(`(?:^|[\\s,])${scheme}(?=\\s|,|$)`, "i").exec(header);
  if (!found) return undefined;
  const params: Record<string, string> = {};
  let i = found.index + found[0].length;
  while (i < header.length) {
    while (i < header.length && (header[i] === " " || header[i] === "," || header[i] === "\t")) i++;
    // `name=`; anything else (such as the next scheme, `Basic realm=…`) ends this challenge.
    const name = /^([A-Za-z0-9_-]+)\s*=\s*/.exec(header.slice(i));
    if (!name) break;
    i += name[0].length;
    let value = "";
    if (header[i] === '"') {
      for (i++; i < header.length && header[i] !== '"'; i++)
        value += header[i] === "\\" && i + 1 < header.length ? header[++i] : header[i];
      i++;
    } else {
      while (i < header.length && header[i] !== "," && header[i] !== " ") value += header[i++];
    }
    params[name[1]!.toLowerCase()] ??= value;
  }
  return params;
}
