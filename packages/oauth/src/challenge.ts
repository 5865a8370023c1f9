/** The parameters of a `Bearer` challenge in `WWW-Authenticate` (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** The Protected Resource Metadata URL (`resource_metadata`). */
  resourceMetadata?: string | undefined;
  /** Space-separated scopes the request needs. */
  scope?: string | undefined;
  /** `invalid_token`, `insufficient_scope`, … */
  error?: string | undefined;
  errorDescription?: string | undefined;
}

/**
 * Reads the `Bearer` challenge of a `WWW-Authenticate` header: quoted or bare values, any case
 * of the scheme and names, other schemes ignored. Anything unreadable gives `{}`.
 */
export function parseBearerChallenge(header: string | undefined): BearerChallenge {
  if (header === undefined) return {};
  const scheme = /(?:^|[\s,])bearer(?=\s|$)/i.exec(header);
  if (!scheme) return {};
  const params: Record<string, string> = {};
  let i = scheme.index + scheme[0].length;
  while (i < header.length) {
    while (i < header.length && (header[i] === " " || header[i] === "," || header[i] === "\t")) i++;
    // `name=`; anything else (such as the next scheme, `Basic realm=…`) ends this challenge.
    const name = /^([A-Za-z0-9_-]+)\s*=\s*/.exec(header.slice(i));
    if (!name) break;
    i += name[0].length;
    let value = "";
    if (header[i] === '"') {
      for (i++; i < header.length && header[i] !== '"'; i++) value += header[i] === "\\" && i + 1 < header.length ? header[++i] : header[i];
      i++;
    } else {
      while (i < header.length && header[i] !== "," && header[i] !== " ") value += header[i++];
    }
    params[name[1]!.toLowerCase()] ??= value;
  }
  return {
    resourceMetadata: params["resource_metadata"],
    scope: params["scope"],
    error: params["error"],
    errorDescription: params["error_description"],
  };
}
